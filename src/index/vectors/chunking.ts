/**
 * Long notes are embedded as overlapping chunks of words: a sentence encoder
 * summarises a few paragraphs well and a whole book badly. A note's vector
 * score is its best chunk's, so one relevant section is enough to find it.
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
 * Part of the content hash: changing how notes are chunked must re-embed
 * them, so bump this with any change to `chunkText` or its defaults.
 */
export const CHUNKER_VERSION = 'words-200-40-24-48/1';

export function chunkText(text: string, options: Partial<ChunkOptions> = {}): string[] {
  const chunking = { ...DEFAULT_CHUNK_OPTIONS, ...options };
  if (!(chunking.words >= 1) || !(chunking.overlap >= 0) || chunking.overlap >= chunking.words || !(chunking.maxWordChars >= 1) || !(chunking.maxChunks >= 1)) {
    throw new RangeError('chunk options need words >= 1, 0 <= overlap < words, maxWordChars >= 1, maxChunks >= 1');
  }
  const words = splitWords(text, chunking.maxWordChars);
  if (words.length === 0) return [];
  const step = chunking.words - chunking.overlap;
  const chunks: string[] = [];
  for (let start = 0; chunks.length < chunking.maxChunks; start += step) {
    chunks.push(words.slice(start, start + chunking.words).join(' '));
    if (start + chunking.words >= words.length) break;
  }
  return chunks;
}

function splitWords(text: string, maxWordChars: number): string[] {
  const out: string[] = [];
  for (const word of text.split(/\s+/u)) {
    if (word === '') continue;
    // Array.from splits by code point, so no surrogate pair is cut in half.
    const chars = word.length > maxWordChars ? Array.from(word) : undefined;
    if (!chars || chars.length <= maxWordChars) {
      out.push(word);
      continue;
    }
    for (let i = 0; i < chars.length; i += maxWordChars) out.push(chars.slice(i, i + maxWordChars).join(''));
  }
  return out;
}
