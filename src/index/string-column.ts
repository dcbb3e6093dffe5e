/*
 * A list of texts as three blobs of the index cache: the texts joined, a
 * chunk of CHUNK texts at a time (`chunkBytes`); each one's UTF-16 length
 * (Uint32); and the bytes of each chunk (Uint32). The records' columns
 * (record-columns.ts) and their properties and tasks (record-extras.ts) are
 * kept this way.
 *
 * A chunk is in Latin-1 when every character of it fits in a byte, else in
 * UTF-16: its byte count against its texts' lengths tells which. They were
 * UTF-8, and at 100,000 generated notes the snippets (30 MB, every one
 * ending in "…") took 190-280 ms of CPU to decode against 30-50 ms as
 * Latin-1; the other columns, all ASCII, took 2-4 ms each. A chunk with a
 * character past U+00FF is two bytes a character in memory either way, and
 * UTF-16 decodes as a copy.
 */

/** Thrown on anything in the records' section that does not add up. */
export class DamagedRecords extends Error {}

/**
 * Texts decoded as one string. A column decoded whole is two bytes a
 * character throughout if any one of its texts has a character past U+00FF;
 * a chunk confines that to its own texts, while one decode per text took
 * 160–290 ms for six columns at 100,000 notes, against 145–180 ms to decode
 * eight columns whole and split them.
 */
export const CHUNK = 1024;

/** Texts gathered into the blobs a column is stored as. */
export class StringColumn {
  private readonly texts: string[] = [];

  get count(): number {
    return this.texts.length;
  }

  add(text: string): void {
    this.texts.push(text);
  }

  /** The text, the lengths and the chunks' byte counts, in that order. */
  blobs(): [Uint8Array, Uint8Array, Uint8Array] {
    const { texts } = this;
    const lengths = new Uint32Array(texts.length);
    const chunkBytes = new Uint32Array(Math.ceil(texts.length / CHUNK));
    const pieces: Buffer[] = [];
    for (let start = 0; start < texts.length; start += CHUNK) {
      const chunk = texts.slice(start, start + CHUNK);
      chunk.forEach((text, i) => {
        lengths[start + i] = text.length;
      });
      const bytes = chunkBytesOf(chunk.join(''));
      chunkBytes[start / CHUNK] = bytes.length;
      pieces.push(bytes);
    }
    return [Buffer.concat(pieces), bytesOf(lengths), bytesOf(chunkBytes)];
  }
}

/** Characters that do not fit in one byte. */
const WIDE = /[^\u0000-\u00ff]/;
const SURROGATE = /[\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A chunk's texts joined, as stored: see the top of this file. */
export function chunkBytesOf(joined: string): Buffer {
  if (!WIDE.test(joined)) return Buffer.from(joined, 'latin1');
  // A lone surrogate comes back as U+FFFD (as it did from UTF-8), one unit long like itself: the lengths still hold.
  return Buffer.from(SURROGATE.test(joined) ? joined.replace(LONE_SURROGATE, '\ufffd') : joined, 'utf16le');
}

/** A blob of JSON, parsed; DamagedRecords (saying `what`) when it is not JSON. */
export function parseJsonBlob(blob: Buffer, what: string): unknown {
  try {
    return JSON.parse(blob.toString('utf8'));
  } catch {
    throw new DamagedRecords(what);
  }
}

export function bytesOf(array: Float64Array | Uint32Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/** The blob's bytes in a typed array of their own, aligned whatever the blob's offset. */
export function copied<T extends Float64Array | Uint32Array>(Kind: { new (length: number): T; BYTES_PER_ELEMENT: number }, blob: Buffer): T {
  if (blob.length % Kind.BYTES_PER_ELEMENT !== 0) throw new DamagedRecords('blob length');
  const array = new Kind(blob.length / Kind.BYTES_PER_ELEMENT);
  new Uint8Array(array.buffer).set(blob);
  return array;
}

/**
 * A column's texts, checked whole and decoded a chunk at a time (one string
 * of CHUNK texts) when a text of the chunk is first asked for, each text cut
 * from its chunk then: the records' titles, snippets, folders and links are
 * made this way as each record is (record-table.ts). Decoding every chunk
 * up front took some 130 ms of a 100,000-note warm start's main thread
 * (BENCHMARKS.md, issue 31). A column keeps its blob until every chunk is
 * decoded.
 */
export class TextColumn {
  private readonly chunks: (string | undefined)[];
  /** Where each chunk starts in `text`, one more entry than chunks. */
  private readonly chunkStarts: Uint32Array;
  /** 1 where a chunk is UTF-16, 0 where Latin-1. */
  private readonly wide: Uint8Array;
  /** Where each text starts in its chunk. */
  private readonly starts: Uint32Array;
  private readonly lengths: Uint32Array;
  private text: Buffer | undefined;
  private undecoded: number;

  /** Throws DamagedRecords when the blobs do not agree. */
  constructor(
    readonly count: number,
    lengthBlob: Buffer,
    chunkBlob: Buffer,
    text: Buffer,
  ) {
    const lengths = copied(Uint32Array, lengthBlob);
    const chunkBytes = copied(Uint32Array, chunkBlob);
    if (lengths.length !== count || chunkBytes.length !== Math.ceil(count / CHUNK)) throw new DamagedRecords('text counts');
    const starts = new Uint32Array(count);
    this.chunkStarts = new Uint32Array(chunkBytes.length + 1);
    this.wide = new Uint8Array(chunkBytes.length);
    let byteOffset = 0;
    for (let start = 0; start < count; start += CHUNK) {
      const chunk = start / CHUNK;
      const bytes = chunkBytes[chunk] as number;
      if (byteOffset + bytes > text.length) throw new DamagedRecords('text cut short');
      const last = Math.min(count, start + CHUNK);
      let units = 0;
      for (let i = start; i < last; i++) {
        starts[i] = units;
        units += lengths[i] as number;
      }
      if (bytes !== units && bytes !== units * 2) throw new DamagedRecords('text lengths');
      this.wide[chunk] = bytes === units ? 0 : 1;
      this.chunkStarts[chunk] = byteOffset;
      byteOffset += bytes;
    }
    if (byteOffset !== text.length) throw new DamagedRecords('text length');
    this.chunkStarts[chunkBytes.length] = byteOffset;
    this.chunks = new Array<string | undefined>(chunkBytes.length).fill(undefined);
    this.undecoded = chunkBytes.length;
    this.text = this.undecoded > 0 ? text : undefined;
    this.starts = starts;
    this.lengths = lengths;
  }

  get length(): number {
    return this.count;
  }

  /** The text at `index` (below `count`). */
  at(index: number): string {
    const start = this.starts[index] as number;
    return this.chunk(Math.floor(index / CHUNK)).slice(start, start + (this.lengths[index] as number));
  }

  private chunk(chunk: number): string {
    const decoded = this.chunks[chunk];
    if (decoded !== undefined) return decoded;
    const text = (this.text as Buffer).toString(this.wide[chunk] ? 'utf16le' : 'latin1', this.chunkStarts[chunk], this.chunkStarts[chunk + 1]);
    this.chunks[chunk] = text;
    if (--this.undecoded === 0) this.text = undefined;
    return text;
  }
}
