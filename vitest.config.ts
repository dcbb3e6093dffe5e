import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/** Files that replace a module with vi.mock: they get modules of their own. */
const MOCKING = ['test/hardening/full-disk.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Most test files spend much of their time waiting on child processes (the built CLI, npm,
    // git, the outside actors), watchers and timers rather than on a core, so two files run at
    // once; vitest's default on two cores is one less than the cores, one worker. Every file
    // uses temporary folders of its own and port 0, so files running at once do not meet.
    // Three workers at a load of 17 to 19 (other work on the machine) failed 15 tests in the
    // first 22 files, most on their time limits; `--maxWorkers=3` tries three again.
    maxWorkers: 2,
    // Worker threads started by the code under test run its TypeScript source (see the hooks).
    execArgv: ['--import', fileURLToPath(new URL('./test/support/register-typescript.mjs', import.meta.url))],
    projects: [
      {
        extends: true,
        // The test files of a worker share its loaded modules (the MCP SDK, zod, src/): loading
        // them again for each file was most of test/unit's time (250 s isolated, 139 s shared,
        // at load 20 on 2 cores). No test file keeps state in a module it shares, but for these.
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...MOCKING], isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: MOCKING, isolate: true } },
    ],
  },
});
