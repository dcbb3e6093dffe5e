/**
 * Worker-thread entry: turns fetched and mailed HTML into Markdown (a feed's
 * articles, a bookmarked page's readable text, a message's HTML part), so
 * that however long a hostile document takes, the main thread goes on
 * answering; convert-pool.ts stops this thread when one takes too long.
 * Pure work: nothing here touches the disk or the network.
 */
import { parentPort } from 'node:worker_threads';
import { FeedError, parseFeedDocument, type ParsedFeed } from './feed.js';
import { htmlToMarkdown } from './html-markdown.js';
import { readablePage, type ReadablePage } from './page.js';

export type ConvertRequest = { kind: 'feed'; text: string; url: string } | { kind: 'page'; html: string; url: string } | { kind: 'markdown'; html: string; base?: string };

export type ConvertResult = ParsedFeed | ReadablePage | string;

/** The worker's first message says it has loaded its modules; then one answer per job, in order. */
export type ConvertMessage = { ready: true } | { job: number; value: ConvertResult } | { job: number; error: string; feedError?: true };

const port = parentPort;
if (!port) throw new Error('convert-worker must run in a worker thread');

function convert(request: ConvertRequest): ConvertResult {
  switch (request.kind) {
    case 'feed':
      return parseFeedDocument(request.text, request.url);
    case 'page':
      return readablePage(request.html, request.url);
    case 'markdown':
      return htmlToMarkdown(request.html, request.base);
  }
}

port.on('message', ({ job, request }: { job: number; request: ConvertRequest }) => {
  try {
    port.postMessage({ job, value: convert(request) } satisfies ConvertMessage);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    port.postMessage({ job, error: message, ...(error instanceof FeedError ? { feedError: true as const } : {}) } satisfies ConvertMessage);
  }
});
port.postMessage({ ready: true } satisfies ConvertMessage);
