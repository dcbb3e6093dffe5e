/**
 * The import rules of ARCHITECTURE.md, checked by `npm run lint:deps`
 * (dependency-cruiser over src/ with tsconfig.json). An error fails
 * `npm run lint`, and so `npm test` and CI; a warning is only printed.
 *
 * The layers, in the order data flows. A module may import only from its own
 * layer and the layers before it; `src/index` and `src/watch` share a place
 * and do not import each other. `node:` built-ins and npm packages may be
 * imported anywhere.
 */
const LAYERS = [['storage'], ['format'], ['vault'], ['review'], ['index', 'watch', 'import'], ['access'], ['tools'], ['server'], ['cli']];

const KNOWN = LAYERS.flat();

/** The modules of src/vault that tools may import for their values, not only their types: plain helpers, not the model. */
const VAULT_HELPERS = ['errors', 'note'];

const folders = (names) => `^src/(${names.join('|')})/`;

const layerRules = LAYERS.flatMap((layer, index) =>
  layer.flatMap((name) => {
    const later = [...layer.filter((other) => other !== name), ...LAYERS.slice(index + 1).flat()];
    if (later.length === 0) return [];
    return {
      name: `layer-order-${name}`,
      severity: 'error',
      comment: `src/${name} may import only its own folder, ${LAYERS.slice(0, index).flat().map((before) => `src/${before}, `).join('')}node: built-ins and npm packages; not ${later.map((after) => `src/${after}`).join(', ')}. See ARCHITECTURE.md.`,
      from: { path: folders([name]) },
      to: { path: folders(later) },
    };
  }),
);

/**
 * Cycles that were there when the rules were written down (ARCHITECTURE.md,
 * "Known exceptions"). Each is matched by exactly its set of modules: it is
 * reported as ignored, and any other cycle still fails. Remove an entry when
 * its cycle is broken; the last one was, so the list is empty and every cycle
 * fails.
 */
const knownCycle = (from, to) => ({
  type: 'cycle',
  from,
  to,
  rule: { severity: 'error', name: 'no-circular' },
  cycle: [to, from].map((name) => ({ name, dependencyTypes: [] })),
});

const KNOWN_CYCLES = [];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles, not even through type-only imports: a cycle means two modules are one layer.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'src-not-to-test-or-bench',
      severity: 'error',
      comment: 'The server never imports tests, test support or benchmarks.',
      from: { path: '^src/' },
      to: { path: ['^test/', '^bench/'] },
    },
    {
      name: 'tools-not-to-vault-model',
      severity: 'error',
      comment:
        `A tool is handed the vault through the connection's view (context.view, src/access/view.ts) and never imports the model's code: from src/vault it imports types only, ` +
        `apart from the plain helpers ${VAULT_HELPERS.map((helper) => `${helper}.ts`).join(', ')}.`,
      from: { path: '^src/tools/' },
      to: {
        path: '^src/vault/',
        pathNot: `^src/vault/(${VAULT_HELPERS.join('|')})\\.ts$`,
        dependencyTypesNot: ['type-only', 'type-import'],
      },
    },
    {
      name: 'src-in-a-layer',
      severity: 'error',
      comment: `Every module in src belongs to a layer folder (${KNOWN.map((name) => `src/${name}/`).join(', ')}); a new folder is added to ARCHITECTURE.md and to this file first.`,
      from: { path: '^src/', pathNot: folders(KNOWN) },
      to: {},
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve to a file would escape every rule above.',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
    {
      name: 'no-orphans',
      severity: 'warn',
      comment: 'A module in src that imports nothing and is imported by nothing: dead, or started some other way (by URL, as a worker).',
      from: { orphan: true, path: '^src/', pathNot: '\\.d\\.ts$' },
      to: {},
    },
  ],
  options: {
    // Tests and benchmarks are recorded when src imports them (to break the rule above), not cruised.
    doNotFollow: { path: ['node_modules', '^test/', '^bench/'] },
    // See `import type` and unused imports too, each marked 'type-only' where it is one.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
    knownViolations: KNOWN_CYCLES,
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
