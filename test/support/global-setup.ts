import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A temporary folder of this run, for fixtures test files make once and share (see shared-fixtures.ts); removed at its end. */
    runDir: string;
  }
}

/** Once per run, before any test file: the run's own temporary folder, handed to the files through `inject('runDir')`. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const runDir = await mkdtemp(path.join(tmpdir(), 'dexi-test-run-'));
  project.provide('runDir', runDir);
  return async () => {
    await rm(runDir, { recursive: true, force: true });
  };
}
