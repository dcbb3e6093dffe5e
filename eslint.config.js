// ESLint 9 flat config: `npm run lint:es`. The recommended rules of ESLint
// and typescript-eslint, without type information (fast: no program is built),
// over src/, test/ and bench/ (once moved there). Formatting is not checked.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // Only the project's own code: everything at the top level but these folders is left out.
    ignores: ['*', '!src/', '!test/', '!bench/'],
  },
  {
    files: ['**/*.{ts,mts,cts,js,mjs,cjs}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      // Kept, with the project's convention: a name starting with `_` is unused on purpose (a property
      // left out by destructuring, the fourth parameter that makes an Express error handler).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Off: the control characters in these patterns are the point (file names, folder names, NUL, ASCII ranges).
      'no-control-regex': 'off',
    },
  },
  {
    // The house rule of ARCHITECTURE.md (issue 31): a source file holds one job in at most 450 lines,
    // and a function reads in one sitting, at most 80 lines. Every line counts, blank and comment
    // lines too, as they are counted when the rule is read. Tests and benchmarks are not held to it.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 450, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false }],
    },
  },
);
