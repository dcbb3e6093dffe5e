import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { bundleWorkers, workerBundlesDir } from './worker-bundles.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A temporary folder of this run, for fixtures test files make once and share (see shared-fixtures.ts); removed at its end. */
    runDir: string;
  }
}

/**
 * Once per run, before any test file: the run's own temporary folder, handed
 * to the files through `inject('runDir')`, and the bundles of the worker
 * threads, which the test processes, started after this, find through their
 * environment (see worker-bundles.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const runDir = await mkdtemp(path.join(tmpdir(), 'dexi-test-run-'));
  project.provide('runDir', runDir);
  const bundles = await workerBundlesDir();
  await bundleWorkers(bundles);
  process.env.DEXI_TEST_WORKER_BUNDLES = bundles;
  project.onTestsRerun(() => bundleWorkers(bundles));
  return async () => {
    await rm(runDir, { recursive: true, force: true });
    await rm(bundles, { recursive: true, force: true });
  };
}
