import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts the embedding worker, `embed-worker.js` beside this module (in
 * dist/ or the bundle; the tests run its TypeScript source through module
 * hooks every worker inherits: see test/support/typescript-hooks.mjs).
 */
export function launchEmbedWorker(options: WorkerOptions): Worker {
  return new Worker(new URL('./embed-worker.js', import.meta.url), options);
}
