import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { configDefaults, defineConfig } from 'vitest/config';

/** Files that replace a module with vi.mock: they get modules of their own. */
const MOCKING = ['test/hardening/full-disk.test.ts'];

/**
 * The files that took 17 s or more each in a run of the whole suite (three at once, 2 idle cores,
 * 2026-12-03 18:25), longest first. A fresh clone has no timings of earlier runs, and vitest then
 * starts the largest files first: in an earlier run these came last (meaning-calibration from 284 s
 * to 306 s, the run's end, in a run of 315 s), holding the end of the run on one or two workers.
 */
export const LONG_FIRST = [
  'test/e2e/package.test.ts',
  'test/e2e/bundle.test.ts',
  'test/e2e/import-cli.test.ts',
  'test/server/transports/http-cli.test.ts',
  'test/access/write-differential.test.ts',
  'test/hardening/soak.test.ts',
  'test/hardening/crash.test.ts',
  'test/e2e/inspector.test.ts',
  'test/ownership/slow-savers.test.ts',
  'test/ownership/other-writers.test.ts',
  'test/import/hostile-html.test.ts',
  'test/hardening/fence-fuzz.test.ts',
  'test/access/meaning-calibration.test.ts',
  'test/server/transports/http-many-sessions.test.ts',
];

/** vitest's order (earlier runs' failures first, then the longest), with LONG_FIRST ahead where it has no timings yet. */
class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // The file's path from the root with / between folders, as vitest's own cache keys name it.
    const name = (file: TestSpecification): string => path.relative(this.ctx.config.root, file.moduleId).split(path.sep).join('/');
    const known = (file: TestSpecification): boolean => this.ctx.cache.getFileTestResults(`${file.project.name}:${name(file)}`) !== undefined;
    if (sorted.some(known)) return sorted;
    const rank = (file: TestSpecification): number => {
      const at = LONG_FIRST.indexOf(name(file));
      return at < 0 ? LONG_FIRST.length : at;
    };
    // Within each project, in vitest's order of projects; a stable sort: the rest keep vitest's order (the largest files first).
    const projects = [...new Set(sorted.map((file) => file.project.name))];
    return projects.flatMap((name) => sorted.filter((file) => file.project.name === name).sort((a, b) => rank(a) - rank(b)));
  }
}

/** Test files run at once: DEXI_TEST_WORKERS when it is a whole number from 1 to 16, else 4. */
function testWorkers(asked: string | undefined): number {
  if (asked === undefined || asked === '') return 4;
  const workers = Number(asked);
  if (!Number.isInteger(workers) || workers < 1 || workers > 16) {
    throw new Error(`DEXI_TEST_WORKERS is ${JSON.stringify(asked)}; give a whole number from 1 to 16, or leave it unset for 4.`);
  }
  return workers;
}

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Many test files spend much of their time waiting on child processes (the built CLI, npm,
    // git, the outside actors), watchers and timers rather than on a core, so four files run at
    // once. Every file uses temporary folders of its own and port 0, so files running at once do
    // not meet. Measured on 2 idle cores (2026-12-03): the suite took 350 s with two files at once
    // and 303 s with three; later, with less work around the tests, 266 s with three and 240 s
    // with four (1.76 and 1.90 cores busy on average). Beside two busy loops, four took 332 s,
    // every test passed, and none used more than 30 % of its time limit (crash's 15 rounds 42 s of
    // 150; under the 20 s default, none took 8 s). A machine busy with other work can ask for
    // fewer: DEXI_TEST_WORKERS=1, 2 or 3. vitest's own
    // --maxWorkers does not reach the projects below, which take this value; so an earlier run
    // with `--maxWorkers=3` at a load of 17 to 19, which failed 15 tests in the first 22 files,
    // most on their time limits, may have run two files at once or three.
    maxWorkers: testWorkers(process.env.DEXI_TEST_WORKERS),
    sequence: { sequencer: LongFirstSequencer },
    // The run's own temporary folder, for fixtures made once and shared (test/support/shared-fixtures.ts).
    globalSetup: ['test/support/global-setup.ts'],
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
