import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Worker threads started by the code under test run its TypeScript source (see the hooks).
    execArgv: ['--import', fileURLToPath(new URL('./test/support/register-typescript.mjs', import.meta.url))],
  },
});
