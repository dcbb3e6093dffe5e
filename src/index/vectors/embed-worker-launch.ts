import type { Worker, WorkerOptions } from 'node:worker_threads';
import { launchWorker } from '../../vault/worker-launch.js';

/** Starts the embedding worker, `embed-worker.js` beside this module (in dist/ or the bundle). */
export function launchEmbedWorker(options: WorkerOptions): Worker {
  return launchWorker(new URL('./embed-worker.js', import.meta.url), new URL('./embed-worker.ts', import.meta.url), options);
}
