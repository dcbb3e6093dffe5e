/**
 * Worker-thread entry: parses note files (frontmatter, tags, snippet, search
 * text) for the first read of a large vault, so that the main thread is left
 * to read files and index them. Pure work; nothing here touches the disk.
 */
import { parentPort } from 'node:worker_threads';
import { parseNoteFile, type FileFacts, type ParsedNote } from '../parse.js';

/**
 * What the main thread takes of a parse: not the frontmatter's data, which
 * the first read does not use, nor the body, which is the end of the text
 * the main thread sent (`bodyStart`). Each is copied on both threads when
 * posted, and the main thread is the one the first read waits on.
 */
export type WorkerParse = Pick<ParsedNote, 'record' | 'id' | 'bodyStart' | 'searchText'>;

export interface ParseRequest {
  job: number;
  facts: FileFacts;
}

export type ParseResponse = { job: number; parsed: WorkerParse } | { job: number; error: string };

const port = parentPort;
if (!port) throw new Error('parse-worker must run in a worker thread');

port.on('message', (request: ParseRequest) => {
  try {
    const { record, id, bodyStart, searchText } = parseNoteFile(request.facts);
    port.postMessage({ job: request.job, parsed: { record, id, bodyStart, searchText } } satisfies ParseResponse);
  } catch (error) {
    port.postMessage({ job: request.job, error: error instanceof Error ? error.message : String(error) } satisfies ParseResponse);
  }
});
