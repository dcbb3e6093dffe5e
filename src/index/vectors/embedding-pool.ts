import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import { createEmbedder, type Embedder, type EmbedderSpec } from './embedder.js';
import type { FromWorker, ToWorker } from './embed-worker.js';
import { launchEmbedWorker } from './embed-worker-launch.js';
import type { WindowRequest, WindowVector } from './windows.js';
import { PUBLIC_WARNING, type Logger } from '../../vault/logger.js';

export interface EmbeddingPoolOptions {
  spec: EmbedderSpec;
  /** Worker threads, each with its own copy of the model; 0 runs the model on the calling thread. */
  workers: number;
  /**
   * Windows handed to a worker at a time (default 2). A query waits for a
   * worker to finish its batch, and a full window takes ~85 ms; batches of
   * 2, 8, 16 and 32 full windows measured 85.8, 82.9, 87.7 and 92.3 ms a
   * window on one worker, so larger batches would buy nothing.
   */
  batchSize?: number;
  log?: (line: string) => void;
}

export interface EmbedOptions {
  /** `high` jumps the queue: used for search queries while notes are being embedded. */
  priority?: 'high' | 'normal';
  /** Requests a worker takes at a time for this call, in place of the pool's `batchSize`: more for cheap windows (leads, short notes). */
  batchSize?: number;
  /** Whose work this is: `cancel(owner)` takes what is still queued for it off the queue (a share of the pool closing). */
  owner?: object;
}

/** What an indexer embeds with: a pool of its own, or its share of one that others use too (`EmbeddingPool#share`). */
export type EmbeddingWorkers = Pick<EmbeddingPool, 'id' | 'dimensions' | 'batchSize' | 'workerCount' | 'embed' | 'embedWindows' | 'close'>;

interface Job {
  owner: object | undefined;
  requests: WindowRequest[];
  resolve(results: WindowVector[]): void;
  reject(error: Error): void;
}

interface Runner {
  readonly name: string;
  busy: boolean;
  alive: boolean;
  run(requests: WindowRequest[]): Promise<WindowVector[]>;
  close(): Promise<void>;
}

/** What embedding on a pool that was closed fails with. */
const CLOSED = 'The embedding pool is closed';

/** Crashed workers are restarted unless this many restarts happened within RESTART_WINDOW_MS. */
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 10 * 60_000;

/**
 * Embeds texts on a pool of worker threads. Calls are cut into batches that
 * idle workers take in turn, queries (`priority: 'high'`) first; results come
 * back in input order. A worker that dies fails only the batch it held and
 * is replaced.
 */
export class EmbeddingPool implements Embedder {
  private readonly high: Job[] = [];
  private readonly normal: Job[] = [];
  private readonly runners: Runner[] = [];
  readonly batchSize: number;
  private readonly log: Logger;
  private restarts: number[] = [];
  private replacing = 0;
  private closed = false;

  private constructor(
    private readonly options: EmbeddingPoolOptions,
    readonly id: string,
    readonly dimensions: number,
  ) {
    this.batchSize = Math.max(1, options.batchSize ?? 2);
    this.log = options.log ?? (() => undefined);
  }

  /** Loads the model in every worker; rejects if it cannot be loaded. */
  static async create(options: EmbeddingPoolOptions): Promise<EmbeddingPool> {
    const log = options.log ?? (() => undefined);
    if (options.workers <= 0) {
      const embedder = await createEmbedder(options.spec);
      const pool = new EmbeddingPool(options, embedder.id, embedder.dimensions);
      pool.runners.push(new InThreadRunner(embedder));
      return pool;
    }
    const started = Array.from({ length: options.workers }, (_, i) => startWorker(options.spec, `embed-worker-${i + 1}`, log));
    const loaded = await Promise.allSettled(started.map((s) => s.ready));
    const failure = loaded.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    const first = loaded.find((r): r is PromiseFulfilledResult<ModelInfo> => r.status === 'fulfilled');
    if (failure || !first) {
      await Promise.all(started.map((s) => s.runner.close()));
      throw failure?.reason instanceof Error ? failure.reason : new Error('The embedding model did not load');
    }
    const pool = new EmbeddingPool(options, first.value.id, first.value.dimensions);
    for (const s of started) pool.adopt(s.runner);
    return pool;
  }

  get workerCount(): number {
    return this.runners.filter((r) => r.alive).length;
  }

  /** Each text's first window (`Embedder#embed`): queries, and tests. */
  async embed(texts: string[], options: EmbedOptions = {}): Promise<number[][]> {
    const results = await this.embedWindows(
      texts.map((text) => ({ text, window: 0 })),
      options,
    );
    return results.map((result) => result.vector);
  }

  embedWindows(requests: readonly WindowRequest[], options: EmbedOptions = {}): Promise<WindowVector[]> {
    if (this.closed) return Promise.reject(new Error(CLOSED));
    if (requests.length === 0) return Promise.resolve([]);
    if (this.workerCount === 0 && this.replacing === 0) return Promise.reject(new Error('Embedding failed: no worker is running'));
    const queue = options.priority === 'high' ? this.high : this.normal;
    const size = Math.max(1, Math.floor(options.batchSize ?? this.batchSize));
    const parts: Promise<WindowVector[]>[] = [];
    for (let start = 0; start < requests.length; start += size) {
      const batch = requests.slice(start, start + size);
      parts.push(new Promise<WindowVector[]>((resolve, reject) => queue.push({ owner: options.owner, requests: batch, resolve, reject })));
    }
    this.dispatch();
    return Promise.all(parts).then((results) => results.flat());
  }

  /**
   * A share of this pool for one user of several (each served vault's
   * indexer in a process that serves many, as the tests do): it embeds on
   * the pool's workers, and its `close` takes only its own queued work off
   * the queue, leaving the pool running for the others. A batch a worker
   * already holds finishes. Loading the model costs each pool 0.4–0.7 s of
   * CPU and its first call about 0.2 s more (measured here).
   */
  share(): EmbeddingWorkers {
    return new PoolShare(this);
  }

  /** Fail the queued work of `owner` (see EmbedOptions) with `error`; work a worker holds goes on. */
  cancel(owner: object, error: Error): void {
    for (const queue of [this.high, this.normal]) {
      let kept = 0;
      for (const job of queue) {
        if (job.owner === owner) job.reject(error);
        else queue[kept++] = job;
      }
      queue.length = kept;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.failQueued(new Error(CLOSED));
    await Promise.all(this.runners.map((r) => r.close()));
  }

  private adopt(runner: Runner): void {
    this.runners.push(runner);
    if (runner instanceof WorkerRunner) runner.onDeath = (error) => this.replace(runner, error);
  }

  private dispatch(): void {
    for (const runner of this.runners) {
      if (!runner.alive || runner.busy) continue;
      const job = this.high.shift() ?? this.normal.shift();
      if (!job) return;
      runner.busy = true;
      runner.run(job.requests).then(job.resolve, job.reject).finally(() => {
        runner.busy = false;
        this.dispatch();
      });
    }
  }

  private replace(dead: WorkerRunner, error: Error): void {
    const index = this.runners.indexOf(dead);
    if (index >= 0) this.runners.splice(index, 1);
    if (this.closed) return;
    this.log(`${dead.name} stopped: ${error.message}`, PUBLIC_WARNING);
    const now = Date.now();
    this.restarts = this.restarts.filter((t) => now - t < RESTART_WINDOW_MS);
    if (this.restarts.length >= MAX_RESTARTS) {
      this.log(`${dead.name} is not restarted: the workers keep failing`, PUBLIC_WARNING);
      this.failIfNoWorker(error);
      return;
    }
    this.restarts.push(now);
    this.replacing++;
    const { runner, ready } = startWorker(this.options.spec, dead.name, this.log);
    ready.then(
      () => {
        this.replacing--;
        if (this.closed) {
          void runner.close();
          return;
        }
        this.adopt(runner);
        this.dispatch();
      },
      (loadError: unknown) => {
        this.replacing--;
        this.log(`${dead.name} could not restart: ${loadError instanceof Error ? loadError.message : String(loadError)}`, PUBLIC_WARNING);
        this.failIfNoWorker(error);
      },
    );
  }

  /** Queued work would otherwise wait forever for a worker that will not come. */
  private failIfNoWorker(cause: Error): void {
    if (this.workerCount === 0 && this.replacing === 0) this.failQueued(new Error(`Embedding failed: no worker is running (${cause.message})`));
  }

  private failQueued(error: Error): void {
    for (const job of this.high.splice(0)) job.reject(error);
    for (const job of this.normal.splice(0)) job.reject(error);
  }
}

/** One user's share of a pool (`EmbeddingPool#share`). */
class PoolShare implements EmbeddingWorkers {
  readonly id: string;
  readonly dimensions: number;
  readonly batchSize: number;
  /** Marks this share's jobs in the pool's queues. */
  private readonly owner = {};
  private closed = false;

  constructor(private readonly pool: EmbeddingPool) {
    this.id = pool.id;
    this.dimensions = pool.dimensions;
    this.batchSize = pool.batchSize;
  }

  get workerCount(): number {
    return this.pool.workerCount;
  }

  embed(texts: string[], options: EmbedOptions = {}): Promise<number[][]> {
    return this.closed ? Promise.reject(new Error(CLOSED)) : this.pool.embed(texts, { ...options, owner: this.owner });
  }

  embedWindows(requests: readonly WindowRequest[], options: EmbedOptions = {}): Promise<WindowVector[]> {
    return this.closed ? Promise.reject(new Error(CLOSED)) : this.pool.embedWindows(requests, { ...options, owner: this.owner });
  }

  close(): Promise<void> {
    this.closed = true;
    this.pool.cancel(this.owner, new Error(CLOSED));
    return Promise.resolve();
  }
}

interface ModelInfo {
  id: string;
  dimensions: number;
}

/**
 * A model call allocates many short-lived objects (tensors, token arrays).
 * With V8's default young generation the worker spends much of its time in
 * scavenges, whose helper threads take the other core; 64 MB measured here
 * gave 8 % more notes/s on one worker and 10 % more on two.
 */
const WORKER_YOUNG_GENERATION_MB = 64;

function startWorker(spec: EmbedderSpec, name: string, log: (line: string) => void): { runner: WorkerRunner; ready: Promise<ModelInfo> } {
  const worker = launchEmbedWorker({
    workerData: { spec },
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    stdout: true,
    stderr: true,
  });
  const runner = new WorkerRunner(name, worker, log);
  return { runner, ready: runner.ready };
}

class WorkerRunner implements Runner {
  busy = false;
  alive = true;
  onDeath: ((error: Error) => void) | undefined;
  readonly ready: Promise<ModelInfo>;
  private readonly pending = new Map<number, { resolve(results: WindowVector[]): void; reject(e: Error): void }>();
  private nextJob = 1;
  private closing = false;
  private settleReady: { resolve(info: ModelInfo): void; reject(error: Error): void } | undefined;

  constructor(
    readonly name: string,
    private readonly worker: Worker,
    log: (line: string) => void,
  ) {
    this.ready = new Promise<ModelInfo>((resolve, reject) => {
      this.settleReady = { resolve, reject };
    });
    // stdout belongs to the MCP protocol: whatever the model libraries print
    // in a worker goes to the log instead.
    forwardLines(worker.stdout, (line) => log(`${name}: ${line}`));
    forwardLines(worker.stderr, (line) => log(`${name}: ${line}`));
    worker.on('message', (message: FromWorker) => this.onMessage(message));
    worker.on('error', (error) => this.die(error));
    worker.on('exit', (code) => this.die(new Error(`exited with code ${code}`)));
  }

  run(requests: WindowRequest[]): Promise<WindowVector[]> {
    if (!this.alive) return Promise.reject(new Error(`${this.name} is not running`));
    const job = this.nextJob++;
    return new Promise<WindowVector[]>((resolve, reject) => {
      this.pending.set(job, { resolve, reject });
      this.post({ type: 'embed', job, requests });
    });
  }

  async close(): Promise<void> {
    if (!this.alive) return;
    this.closing = true;
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.post({ type: 'close' });
    const timer = setTimeout(() => void this.worker.terminate(), 2_000);
    await exited;
    clearTimeout(timer);
  }

  private post(message: ToWorker): void {
    this.worker.postMessage(message);
  }

  private onMessage(message: FromWorker): void {
    switch (message.type) {
      case 'ready':
        this.settleReady?.resolve({ id: message.id, dimensions: message.dimensions });
        return;
      case 'load-failed':
        this.settleReady?.reject(new Error(`The embedding model did not load: ${message.message}`));
        void this.close();
        return;
      case 'result':
      case 'failed': {
        const pending = this.pending.get(message.job);
        this.pending.delete(message.job);
        if (message.type === 'result') pending?.resolve(message.results);
        else pending?.reject(new Error(`Embedding failed: ${message.message}`));
        return;
      }
    }
  }

  private die(error: Error): void {
    if (!this.alive) return;
    this.alive = false;
    const reason = this.closing ? new Error(CLOSED) : error;
    this.settleReady?.reject(reason);
    for (const pending of this.pending.values()) pending.reject(reason);
    this.pending.clear();
    if (!this.closing) this.onDeath?.(error);
  }
}

class InThreadRunner implements Runner {
  readonly name = 'in-thread embedder';
  busy = false;
  alive = true;

  constructor(private readonly embedder: Embedder) {}

  run(requests: WindowRequest[]): Promise<WindowVector[]> {
    return this.embedder.embedWindows(requests);
  }

  async close(): Promise<void> {
    this.alive = false;
    await this.embedder.close();
  }
}

function forwardLines(stream: Readable | null | undefined, write: (line: string) => void): void {
  if (!stream) return;
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
    if (line.trim() !== '') write(line);
  });
}
