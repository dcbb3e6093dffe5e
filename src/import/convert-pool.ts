import { Worker } from 'node:worker_threads';
import type { ConvertMessage, ConvertRequest, ConvertResult } from './convert-worker.js';
import type { ParsedFeed } from './feed.js';
import { FeedError } from './feed-bytes.js';
import type { ReadablePage } from './page.js';
import { DexiError } from '../vault/errors.js';

/**
 * How much one document may take to become Markdown. A real 10 MiB feed
 * (500 full-text articles) took 17 s on the reference machine, Wikipedia's
 * heaviest test page 5 s; a second document waits for the first. The heap
 * is the worker's own: a 5 MiB page's three trees took about 600 MB.
 */
export interface ConversionLimits {
  /** Per document, from when the worker takes it. */
  deadlineMs: number;
  heapMb: number;
  /** An idle worker is stopped after this, and its memory given back. */
  idleMs: number;
}

export const CONVERSION_LIMITS: Readonly<ConversionLimits> = { deadlineMs: 60_000, heapMb: 1024, idleMs: 10_000 };

/** A document that could not be converted, in a sentence; `reason` is the part after the colon, for callers that say what the document was. */
export class ConversionError extends DexiError {
  override name = 'ConversionError';

  constructor(
    readonly reason: string,
    subject: string,
  ) {
    super(`${subject} could not be read: ${reason}`);
  }
}

interface Job {
  request: ConvertRequest;
  subject: string;
  resolve(value: ConvertResult): void;
  reject(error: Error): void;
}

/**
 * Converts HTML on one worker thread, one document at a time, so that no
 * document (a hostile feed nesting 300,000 elements, a page Readability
 * needs minutes for) can stop the main thread answering. A document that
 * runs past its deadline or out of heap stops the worker; it is reported as
 * a ConversionError and the next document gets a fresh worker. There is no
 * fallback to the main thread: that is what this is here to prevent.
 */
export class ConvertPool {
  private worker: Worker | undefined;
  private ready = false;
  private readonly queue: Job[] = [];
  private current: { job: Job; id: number; timer: NodeJS.Timeout } | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private nextId = 1;

  /** `launch` is a test seam: a worker that fails to start. */
  constructor(
    readonly limits: Readonly<ConversionLimits> = CONVERSION_LIMITS,
    private readonly launch: (limits: Readonly<ConversionLimits>) => Worker = launchConvertWorker,
  ) {}

  convert(request: ConvertRequest, subject: string): Promise<ConvertResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ request, subject, resolve, reject });
      this.pump();
    });
  }

  /** Stops the worker; documents still waiting are refused. */
  async close(): Promise<void> {
    const worker = this.worker;
    const current = this.current;
    this.drop();
    current?.job.reject(new ConversionError('the import was stopped first.', current.job.subject));
    for (const job of this.queue.splice(0)) job.reject(new ConversionError('the import was stopped first.', job.subject));
    await worker?.terminate();
  }

  private pump(): void {
    if (this.current !== undefined) return;
    if (this.queue.length === 0) {
      this.rest();
      return;
    }
    clearTimeout(this.idleTimer);
    const worker = this.worker ?? this.start();
    // Until the worker has loaded its modules, which the deadline does not count.
    if (!worker || !this.ready) return;
    const job = this.queue.shift();
    if (!job) return;
    const id = this.nextId++;
    const seconds = Math.round(this.limits.deadlineMs / 100) / 10;
    const timer = setTimeout(() => this.fail(`turning its HTML into Markdown took longer than ${seconds} s, so it was stopped.`), this.limits.deadlineMs);
    this.current = { job, id, timer };
    worker.ref();
    worker.postMessage({ job: id, request: job.request });
  }

  private start(): Worker | undefined {
    let worker: Worker;
    try {
      worker = this.launch(this.limits);
    } catch (error) {
      this.refuseAll(`the converter did not start (${(error as Error).message}).`);
      return undefined;
    }
    this.worker = worker;
    this.ready = false;
    worker.on('message', (message: ConvertMessage) => {
      if (worker === this.worker) this.receive(message);
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (worker !== this.worker) return;
      if (!this.ready) this.failStart(`the converter did not start (${error.message}).`);
      else if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') this.fail(`turning its HTML into Markdown needed more than ${this.limits.heapMb} MB of memory, so it was stopped.`);
      else this.fail(`the converter failed (${error.message}).`);
    });
    worker.on('exit', (code) => {
      if (worker !== this.worker) return;
      if (!this.ready) this.failStart(`the converter did not start (it exited with code ${code}).`);
      else this.fail(`the converter stopped (exit code ${code}).`);
    });
    return worker;
  }

  private receive(message: ConvertMessage): void {
    if ('ready' in message) {
      this.ready = true;
      this.pump();
      return;
    }
    const current = this.current;
    if (current === undefined || message.job !== current.id) return;
    clearTimeout(current.timer);
    this.current = undefined;
    if (!('error' in message)) current.job.resolve(message.value);
    else if (message.feedError) current.job.reject(new FeedError(message.error));
    else current.job.reject(new ConversionError(`the converter failed (${message.error}).`, current.job.subject));
    this.pump();
  }

  /** The document in hand failed and took the worker with it: that one is refused, the next gets a new worker. */
  private fail(reason: string): void {
    const current = this.current;
    const worker = this.worker;
    this.drop();
    void worker?.terminate();
    current?.job.reject(new ConversionError(reason, current.job.subject));
    this.pump();
  }

  /** A worker that fails before it is ready would fail the same way for every document waiting. */
  private failStart(reason: string): void {
    const worker = this.worker;
    this.drop();
    void worker?.terminate();
    this.refuseAll(reason);
  }

  private refuseAll(reason: string): void {
    for (const job of this.queue.splice(0)) job.reject(new ConversionError(reason, job.subject));
  }

  private drop(): void {
    if (this.current) clearTimeout(this.current.timer);
    this.current = undefined;
    clearTimeout(this.idleTimer);
    this.worker = undefined;
    this.ready = false;
  }

  /** Nothing to do: the worker no longer keeps the process alive, and after a while it goes. */
  private rest(): void {
    const worker = this.worker;
    if (!worker || !this.ready) return;
    worker.unref();
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.worker !== worker || this.current !== undefined) return;
      this.drop();
      void worker.terminate();
    }, this.limits.idleMs);
    this.idleTimer.unref();
  }
}

/** `convert-worker.js` beside this module, in dist/ or the bundle (the tests run its TypeScript source: see test/support/typescript-hooks.mjs). */
function launchConvertWorker(limits: Readonly<ConversionLimits>): Worker {
  return new Worker(new URL('./convert-worker.js', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: limits.heapMb } });
}

let shared: ConvertPool | undefined;

function pool(): ConvertPool {
  shared ??= new ConvertPool();
  return shared;
}

/**
 * Replaces the shared converter by one with other limits (tests use a short
 * deadline); gives back a function that puts the default back.
 */
export function useConversionLimits(limits: Partial<ConversionLimits>): () => Promise<void> {
  const previous = shared;
  shared = new ConvertPool({ ...CONVERSION_LIMITS, ...limits });
  const replaced = shared;
  return async () => {
    await replaced.close();
    shared = previous;
  };
}

/** A feed document as articles (feed.ts, `parseFeedDocument`), off the main thread. Throws FeedError or ConversionError. */
export async function convertFeed(text: string, url: string): Promise<ParsedFeed> {
  return (await pool().convert({ kind: 'feed', text, url }, 'The feed')) as ParsedFeed;
}

/** A page's readable text (page.ts, `readablePage`), off the main thread. Throws ConversionError. */
export async function convertPage(html: string, url: string): Promise<ReadablePage> {
  return (await pool().convert({ kind: 'page', html, url }, 'The page')) as ReadablePage;
}

/** HTML as Markdown (html-markdown.ts, `htmlToMarkdown`), off the main thread. Throws ConversionError. */
export async function convertHtml(html: string, base?: string): Promise<string> {
  return (await pool().convert({ kind: 'markdown', html, ...(base !== undefined ? { base } : {}) }, 'The HTML')) as string;
}
