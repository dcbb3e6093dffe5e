import { Worker } from 'node:worker_threads';
import { parseNoteFile, type FileFacts, type ParsedNote } from '../parse.js';
import type { ParseRequest, ParseResponse } from './parse-worker.js';

/** A parse as the first read uses it: everything but the frontmatter's data. */
export type NoteParse = Omit<ParsedNote, 'data'>;

export interface ParsedWithText {
  parsed: NoteParse;
  /** The body's search text, what the full-text index takes (`parsed.searchText`). */
  plain: string;
}

/**
 * Parses notes on one worker thread during the first read of a large vault.
 * On two cores, reading and indexing keep the main thread busy; parsing
 * (YAML and the Markdown scan for tags, snippet and search text) was about a
 * fifth of its work in a profile of the cold start, and runs beside it here. If the worker cannot start or dies, notes are parsed on the
 * calling thread instead: the pool only ever makes the read faster.
 */
export class ParsePool {
  private readonly pending = new Map<number, Waiting>();
  private nextJob = 1;
  private worker: Worker | undefined;

  /** `launch` is a test seam: a worker that fails, to check the fallback. */
  constructor(log: (line: string) => void, launch: () => Worker = launchParseWorker) {
    try {
      const worker = launch();
      worker.on('message', (response: ParseResponse) => this.settle(response));
      worker.on('error', (error) => this.fallBack(`the parsing worker failed (${error.message})`, log));
      worker.on('exit', (code) => this.fallBack(`the parsing worker exited (code ${code})`, log));
      this.worker = worker;
    } catch (error) {
      log(`Parsing notes on the main thread: the parsing worker did not start (${(error as Error).message}).`);
    }
  }

  parse(facts: FileFacts): Promise<ParsedWithText> {
    const worker = this.worker;
    if (!worker) return new Promise((resolve, reject) => settleHere({ facts, resolve, reject }));
    const job = this.nextJob++;
    return new Promise((resolve, reject) => {
      this.pending.set(job, { facts, resolve, reject });
      worker.postMessage({ job, facts } satisfies ParseRequest);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.parseWaitingHere();
    await worker?.terminate();
  }

  private settle(response: ParseResponse): void {
    const waiting = this.pending.get(response.job);
    if (!waiting) return;
    this.pending.delete(response.job);
    // A note the worker could not parse is parsed here, where an error reaches the caller as usual.
    if ('error' in response) settleHere(waiting);
    else {
      const { parsed } = response;
      waiting.resolve({ parsed: { ...parsed, body: waiting.facts.content.slice(parsed.bodyStart) }, plain: parsed.searchText });
    }
  }

  /** The worker failed: what it held, and everything after, is parsed on this thread. Not called after `close`. */
  private fallBack(why: string, log: (line: string) => void): void {
    if (!this.worker) return;
    this.worker = undefined;
    log(`Parsing notes on the main thread: ${why}.`);
    this.parseWaitingHere();
  }

  private parseWaitingHere(): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const item of waiting) settleHere(item);
  }
}

/** `parse-worker.js` beside this module, in dist/ or the bundle (the tests run its TypeScript source: see test/support/typescript-hooks.mjs). */
function launchParseWorker(): Worker {
  return new Worker(new URL('./parse-worker.js', import.meta.url));
}

interface Waiting {
  facts: FileFacts;
  resolve(result: ParsedWithText): void;
  reject(error: Error): void;
}

function settleHere({ facts, resolve, reject }: Waiting): void {
  try {
    const parsed = parseNoteFile(facts);
    resolve({ parsed, plain: parsed.searchText });
  } catch (error) {
    reject(error instanceof Error ? error : new Error(String(error)));
  }
}
