/**
 * Worker-thread entry: loads the embedder its spec names and answers embed
 * requests one at a time. Model code runs here so that the server's main
 * thread keeps answering while a vault is being embedded.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createEmbedder, type Embedder, type EmbedderSpec } from './embedder.js';
import type { WindowRequest, WindowVector } from './windows.js';

export type ToWorker = { type: 'embed'; job: number; requests: WindowRequest[] } | { type: 'close' };
export type FromWorker =
  | { type: 'ready'; id: string; dimensions: number }
  | { type: 'result'; job: number; results: WindowVector[] }
  | { type: 'failed'; job: number; message: string }
  | { type: 'load-failed'; message: string };

const port = parentPort;
if (!port) throw new Error('embed-worker must run in a worker thread');
const spec = (workerData as { spec: EmbedderSpec }).spec;
const send = (message: FromWorker): void => port.postMessage(message);

let embedder: Embedder | undefined;
try {
  embedder = await createEmbedder(spec);
  send({ type: 'ready', id: embedder.id, dimensions: embedder.dimensions });
} catch (error) {
  send({ type: 'load-failed', message: errorMessage(error) });
}

port.on('message', (message: ToWorker) => {
  void handle(message);
});

async function handle(message: ToWorker): Promise<void> {
  if (message.type === 'close') {
    await embedder?.close().catch(() => undefined);
    // Model runtimes may keep handles open; in a worker this ends only the thread.
    process.exit(0);
  }
  if (!embedder) {
    send({ type: 'failed', job: message.job, message: 'The embedder did not load' });
    return;
  }
  try {
    send({ type: 'result', job: message.job, results: await embedder.embedWindows(message.requests) });
  } catch (error) {
    send({ type: 'failed', job: message.job, message: errorMessage(error) });
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
