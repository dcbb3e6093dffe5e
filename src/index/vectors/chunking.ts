import { windowWords } from './windows.js';

/**
 * Windows by words, for an embedder that does not say how it counts tokens
 * (transformers.js models, whose tokenizers differ): overlapping chunks of
 * words, sized for the 256–512 tokens such models read. USE-lite windows by
 * its own tokens instead (`use-lite.ts`).
 */
export interface ChunkOptions {
  /** Words per chunk. */
  words: number;
  /** Words repeated at the start of the next chunk, so no passage is cut in two. */
  overlap: number;
  /** Longer "words" (URLs, text without spaces) are cut into pieces this long. */
  maxWordChars: number;
  /** Chunks kept per note: the rest of a very long note is not embedded. */
  maxChunks: number;
}

export const DEFAULT_CHUNK_OPTIONS: ChunkOptions = Object.freeze({
  words: 200,
  overlap: 40,
  maxWordChars: 24,
  maxChunks: 48,
});

/**
 * Part of the content hash: changing how notes are cut into windows must
 * re-embed them, so bump this with any change to `chunkText`, its defaults,
 * or an embedder's own windows. /2: USE-lite windows by its 128 tokens. /3:
 * USE-lite leads (a short window 0 for long notes).
 */
export const CHUNKER_VERSION = 'words-200-40-24-48/3';

export function chunkText(text: string, options: Partial<ChunkOptions> = {}): string[] {
  const chunking = { ...DEFAULT_CHUNK_OPTIONS, ...options };
  if (!(chunking.words >= 1) || !(chunking.overlap >= 0) || chunking.overlap >= chunking.words || !(chunking.maxWordChars >= 1) || !(chunking.maxChunks >= 1)) {
    throw new RangeError('chunk options need words >= 1, 0 <= overlap < words, maxWordChars >= 1, maxChunks >= 1');
  }
  const words = windowWords(text, chunking.maxWordChars);
  if (words.length === 0) return [];
  const step = chunking.words - chunking.overlap;
  const chunks: string[] = [];
  for (let start = 0; chunks.length < chunking.maxChunks; start += step) {
    chunks.push(words.slice(start, start + chunking.words).join(' '));
    if (start + chunking.words >= words.length) break;
  }
  return chunks;
}
