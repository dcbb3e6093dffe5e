import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/** Files that replace a module with vi.mock: they get modules of their own. */
const MOCKING = ['test/hardening/full-disk.test.ts'];

/** Test files run at once: DEXI_TEST_WORKERS when it is a whole number from 1 to 16, else 3. */
function testWorkers(asked: string | undefined): number {
  if (asked === undefined || asked === '') return 3;
  const workers = Number(asked);
  if (!Number.isInteger(workers) || workers < 1 || workers > 16) {
    throw new Error(`DEXI_TEST_WORKERS is ${JSON.stringify(asked)}; give a whole number from 1 to 16, or leave it unset for 3.`);
  }
  return workers;
}

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Many test files spend much of their time waiting on child processes (the built CLI, npm,
    // git, the outside actors), watchers and timers rather than on a core, so three files run at
    // once. Every file uses temporary folders of its own and port 0, so files running at once do
    // not meet. Measured on 2 idle cores (2026-12-03): the suite took 350 s with two files at once
    // and 303 s with three; beside two busy loops (load 6), three took 483 s, every test passed,
    // and no test used more than half of its time limit (the longest at the 20 s default, 10.0 s).
    // A machine busy with other work can ask for fewer: DEXI_TEST_WORKERS=1 or 2. vitest's own
    // --maxWorkers does not reach the projects below, which take this value.
    maxWorkers: testWorkers(process.env.DEXI_TEST_WORKERS),
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
