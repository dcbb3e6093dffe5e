/*
 * A list of texts as three blobs of the index cache: the texts joined, in
 * UTF-8; each one's UTF-16 length (Uint32); and the UTF-8 bytes of each
 * chunk of CHUNK texts (Uint32). The records' columns (record-columns.ts)
 * and their properties and tasks (record-extras.ts) are kept this way.
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
      // A lone surrogate comes back as U+FFFD, one unit long like itself: the lengths still hold.
      const bytes = Buffer.from(chunk.join(''), 'utf8');
      chunkBytes[start / CHUNK] = bytes.length;
      pieces.push(bytes);
    }
    return [Buffer.concat(pieces), bytesOf(lengths), bytesOf(chunkBytes)];
  }
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

/** The `count` texts of a column's blobs; throws DamagedRecords when the blobs do not agree. */
export function decodeStringColumn(count: number, lengthBlob: Buffer, chunkBlob: Buffer, text: Buffer): string[] {
  const lengths = copied(Uint32Array, lengthBlob);
  const chunkBytes = copied(Uint32Array, chunkBlob);
  if (lengths.length !== count || chunkBytes.length !== Math.ceil(count / CHUNK)) throw new DamagedRecords('text counts');
  const values = new Array<string>(count);
  let byteOffset = 0;
  for (let start = 0; start < count; start += CHUNK) {
    const bytes = chunkBytes[start / CHUNK] as number;
    if (byteOffset + bytes > text.length) throw new DamagedRecords('text cut short');
    const chunk = text.toString('utf8', byteOffset, byteOffset + bytes);
    byteOffset += bytes;
    let at = 0;
    for (let i = start; i < Math.min(count, start + CHUNK); i++) {
      const end = at + (lengths[i] as number);
      values[i] = chunk.slice(at, end);
      at = end;
    }
    if (at !== chunk.length) throw new DamagedRecords('text lengths');
  }
  if (byteOffset !== text.length) throw new DamagedRecords('text length');
  return values;
}
