/**
 * Worker-thread entry: parses note files (frontmatter, tags, snippet, search
 * text) for the first read of a large vault, so that the main thread is left
 * to read files and index them. Pure work; nothing here touches the disk.
 */
import { parentPort } from 'node:worker_threads';
import { parseNoteFile, type FileFacts, type ParsedNote } from '../parse.js';

export interface ParseRequest {
  job: number;
  facts: FileFacts;
}

export type ParseResponse = { job: number; parsed: ParsedNote } | { job: number; error: string };

const port = parentPort;
if (!port) throw new Error('parse-worker must run in a worker thread');

port.on('message', (request: ParseRequest) => {
  try {
    const parsed = parseNoteFile(request.facts);
    port.postMessage({ job: request.job, parsed } satisfies ParseResponse);
  } catch (error) {
    port.postMessage({ job: request.job, error: error instanceof Error ? error.message : String(error) } satisfies ParseResponse);
  }
});
