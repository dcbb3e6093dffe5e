import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/*
 * The SHA-1 that checks the index cache, taken on a worker thread. At
 * 100,000 notes the file is 243 MB and hashing it took 186-194 ms of the
 * main thread's CPU (measured with createHash under load 5-7), about a
 * twelfth of a warm start's; the worker reads the bytes where they are
 * (shared memory, no copy) while the main thread decodes them, and starting
 * it costs the main thread 10-20 ms. crypto.subtle.digest was no way out:
 * it copies its input first, 194-210 ms of the main thread for the same
 * file.
 */

/** Below this many bytes the hash is taken here: a worker's start costs more than it saves (SHA-1 runs at some 1.3 GB/s). */
export const OFF_THREAD_MIN_BYTES = 16 * 1024 * 1024;

/** The worker: CommonJS evaluated from this text, so that it needs no file of its own beside the bundle. */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const hash = createHash('sha1');
parentPort.on('message', (piece) => {
  if (piece === null) {
    parentPort.postMessage(hash.digest());
    parentPort.close();
  } else hash.update(piece);
});
`;

/** Memory for `length` bytes that will be hashed: shared (a worker reads it without a copy) when the whole to hash is `total` bytes or more than OFF_THREAD_MIN_BYTES. */
export function bytesToHash(length: number, total: number): ArrayBufferLike {
  return total >= OFF_THREAD_MIN_BYTES ? new SharedArrayBuffer(length) : new ArrayBuffer(length);
}

/**
 * A SHA-1 fed piece by piece, taken on a worker thread when every piece is
 * in shared memory (`bytesToHash`) and here otherwise. The pieces must not
 * change until `digest` resolves; `close` ends the worker of a hash whose
 * digest is not wanted. Should the worker fail, the pieces are hashed here:
 * the digest is the same either way.
 */
export class SharedHash {
  private readonly pieces: Uint8Array[] = [];
  private worker: Worker | undefined;
  /** Set once the pieces are to be hashed here: one was not shared, or the worker failed. */
  private here = false;
  private result: Promise<Buffer | undefined> | undefined;

  update(piece: Uint8Array): void {
    const first = this.pieces.length === 0;
    this.pieces.push(piece);
    if (this.here) return;
    if (!(piece.buffer instanceof SharedArrayBuffer) || (!first && !this.worker)) {
      this.hashHere();
      return;
    }
    try {
      this.worker ??= this.start();
      this.worker.postMessage(piece);
    } catch {
      this.hashHere();
    }
  }

  async digest(): Promise<Buffer> {
    const fromWorker = this.worker && !this.here ? await this.finish(this.worker) : undefined;
    if (fromWorker) return fromWorker;
    const hash = createHash('sha1');
    for (const piece of this.pieces) hash.update(piece);
    return hash.digest();
  }

  close(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }

  private hashHere(): void {
    this.here = true;
    this.close();
  }

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    // A load abandoned half way must not keep the process alive.
    worker.unref();
    this.result = new Promise((resolve) => {
      worker.once('message', (digest: Uint8Array) => resolve(Buffer.from(digest)));
      worker.once('error', () => resolve(undefined));
      worker.once('exit', () => resolve(undefined));
    });
    return worker;
  }

  private async finish(worker: Worker): Promise<Buffer | undefined> {
    try {
      worker.postMessage(null);
    } catch {
      return undefined;
    }
    const digest = await this.result;
    this.worker = undefined;
    return digest;
  }
}
