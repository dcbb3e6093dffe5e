import { Worker } from 'node:worker_threads';
import { expect, it } from 'vitest';

it('loads the model when its WASM backend compiles slower than the weights are read', async () => {
  const worker = new Worker(new URL('./slow-wasm-worker.ts', import.meta.url));
  const answer = await new Promise<{ dimensions?: number; error?: string }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  expect(answer).toEqual({ dimensions: 512 });
});
