import { SOURCES, type NoteRecord } from '../vault/note.js';
import { tableRecords, type RecordTable, type RowNumbers } from '../vault/record-table.js';
import { RecordExtrasReader, RecordExtrasWriter } from './record-extras.js';
import { bytesOf, CHUNK, chunkBytesOf, copied, DamagedRecords, parseJsonBlob, TextColumn } from './string-column.js';

export { DamagedRecords };

/*
 * The note records in the index cache, stored by column rather than as a
 * JSON array of objects. At 100,000 notes (89.5 MB of JSON) a warm start
 * spent 180 ms turning the JSON into one string and 490 ms parsing it, with
 * the garbage collector busy after; see BENCHMARKS.md for what this form
 * takes.
 *
 *   blobs      numbers  Float64 × 9 a record (NaN where an optional one is absent)
 *              flags    Uint8 a record: shared, broken, at the vault root, source
 *              tags     Uint32 count a record, then Uint32 indexes into the tag names
 *              strings  per column: the text, then Uint32 UTF-16 length a
 *                       record, then Uint32 bytes a chunk of CHUNK records
 *                       (Latin-1 or UTF-16: string-column.ts);
 *                       a note's links as one text, joined by newlines (no
 *                       link path holds one)
 *              extras   JSON [[record index, {key: value}]] for the keys few records have
 *              then the properties and tasks, by column (record-extras.ts)
 *   header     JSON: count, tag names, and each blob's byte length in order
 *   u32        header bytes (little-endian)
 *
 * The header comes last because it is known last: the blobs are written
 * as they are made.
 *
 * Numbers are in the machine's byte order, like the postings: the cache
 * never leaves the machine.
 */

const NUMBER_COLUMNS = ['createdMs', 'updatedMs', 'statedCreatedMs', 'statedUpdatedMs', 'size', 'mtimeMs', 'ctimeMs', 'ino', 'birthtimeMs'] as const;
const STRING_COLUMNS = ['id', 'path', 'title', 'hash', 'snippet', 'folder', 'links'] as const;
const COLUMN_KEYS = new Set<string>([...NUMBER_COLUMNS, ...STRING_COLUMNS, 'source', 'tags', 'shared', 'broken', 'properties', 'tasks']);

const SHARED = 1;
const BROKEN = 2;
const AT_ROOT = 4;
/** The source is the SOURCES entry at these bits' value. */
const SOURCE_SHIFT = 3;

interface Header {
  count: number;
  tagNames: string[];
  blobs: number[];
}

/** Records placed in columns between two pieces: each piece keeps the event loop some 10 ms at most. */
const RECORDS_PER_STEP = 5000;

/**
 * The records as the pieces of their section, in order: the cache is
 * written with the event loop free between pieces (an empty piece is a
 * pause), so that tool calls are answered while 100,000 records are encoded.
 */
export function* encodeRecords(records: readonly NoteRecord[]): Generator<Uint8Array> {
  const count = records.length;
  const numbers = new Float64Array(count * NUMBER_COLUMNS.length);
  const flags = new Uint8Array(count);
  const tagCounts = new Uint32Array(count);
  const tagIndexOf = new Map<string, number>();
  const tagIndexes: number[] = [];
  const extras: [number, Record<string, unknown>][] = [];
  const tagIndex = (tag: string): number => {
    let index = tagIndexOf.get(tag);
    if (index === undefined) {
      index = tagIndexOf.size;
      tagIndexOf.set(tag, index);
    }
    return index;
  };
  const typed = new RecordExtrasWriter(tagIndex);
  for (let i = 0; i < count; i++) {
    if (i > 0 && i % RECORDS_PER_STEP === 0) yield PAUSE;
    const record = records[i] as NoteRecord;
    NUMBER_COLUMNS.forEach((key, j) => {
      numbers[i * NUMBER_COLUMNS.length + j] = record[key] ?? Number.NaN;
    });
    const source = SOURCES.indexOf(record.source);
    if (source < 0) throw new Error(`A record with an unknown source: ${record.source}`);
    flags[i] = (record.shared ? SHARED : 0) | (record.broken ? BROKEN : 0) | (record.folder === null ? AT_ROOT : 0) | (source << SOURCE_SHIFT);
    tagCounts[i] = record.tags.length;
    for (const tag of record.tags) tagIndexes.push(tagIndex(tag));
    typed.add(record);
    let extra: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(record)) {
      if (COLUMN_KEYS.has(key) || value === undefined) continue;
      extra ??= {};
      extra[key] = value;
    }
    if (extra) extras.push([i, extra]);
  }
  const blobs: number[] = [];
  const blob = (bytes: Uint8Array): Uint8Array => {
    blobs.push(bytes.byteLength);
    return bytes;
  };
  yield blob(bytesOf(numbers));
  yield blob(flags);
  yield blob(bytesOf(tagCounts));
  yield blob(bytesOf(Uint32Array.from(tagIndexes)));
  for (const key of STRING_COLUMNS) {
    const lengths = new Uint32Array(count);
    const chunkBytes = new Uint32Array(Math.ceil(count / CHUNK));
    let textBytes = 0;
    for (let start = 0; start < count; start += CHUNK) {
      const values: string[] = [];
      for (let i = start; i < Math.min(count, start + CHUNK); i++) {
        const record = records[i] as NoteRecord;
        const value = key === 'links' ? (record.links?.join('\n') ?? '') : (record[key] ?? '');
        lengths[i] = value.length;
        values.push(value);
      }
      const text = chunkBytesOf(values.join(''));
      chunkBytes[start / CHUNK] = text.length;
      textBytes += text.length;
      yield text;
    }
    blobs.push(textBytes);
    yield blob(bytesOf(lengths));
    yield blob(bytesOf(chunkBytes));
  }
  yield blob(Buffer.from(JSON.stringify(extras), 'utf8'));
  for (const bytes of typed.blobs()) yield blob(bytes);
  const header: Header = { count, tagNames: [...tagIndexOf.keys()], blobs };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const suffix = Buffer.alloc(4);
  suffix.writeUInt32LE(headerBytes.length, 0);
  yield headerBytes;
  yield suffix;
}

const PAUSE = new Uint8Array(0);


/** The records of a section `encodeRecords` wrote, every one made; throws DamagedRecords on anything inconsistent. */
export function decodeRecords(section: Buffer): NoteRecord[] {
  return tableRecords(decodeRecordTable(section));
}

/**
 * The records of a section `encodeRecords` wrote, as a table whose rows are
 * made into records when asked (record-table.ts). Everything is checked
 * now: anything inconsistent throws DamagedRecords here, never when a row
 * is made.
 */
export function decodeRecordTable(section: Buffer): RecordTable {
  if (section.length < 4) throw new DamagedRecords('no header');
  const headerBytes = section.readUInt32LE(section.length - 4);
  const end = section.length - 4 - headerBytes;
  if (end < 0) throw new DamagedRecords('header cut short');
  const header = parseHeader(section.toString('utf8', end, end + headerBytes));
  const { count, tagNames } = header;
  const blobs = header.blobs[Symbol.iterator]();
  let offset = 0;
  const next = (expected?: number): Buffer => {
    const { value: bytes, done } = blobs.next();
    if (done || (expected !== undefined && bytes !== expected) || offset + bytes > end) throw new DamagedRecords('blob lengths');
    const blob = section.subarray(offset, offset + bytes);
    offset += bytes;
    return blob;
  };
  const numbers = copied(Float64Array, next(count * NUMBER_COLUMNS.length * 8));
  const flags = Uint8Array.from(next(count));
  for (const flag of flags) if (SOURCES[flag >> SOURCE_SHIFT] === undefined) throw new DamagedRecords('source');
  const tagCounts = copied(Uint32Array, next(count * 4));
  const tagIndexes = copied(Uint32Array, next());
  const column = (): TextColumn => {
    const text = next();
    return new TextColumn(count, next(count * 4), next(Math.ceil(count / CHUNK) * 4), text);
  };
  // One for each of STRING_COLUMNS, in order.
  const texts: Columns['texts'] = [column(), column(), column(), column(), column(), column(), column()];
  const extras = parseExtras(next(), count);
  const typed = new RecordExtrasReader(count, tagNames, next);
  if (offset !== end || !blobs.next().done) throw new DamagedRecords('blob count');
  const [ids, paths, , hashes] = texts;
  return new ColumnTable(count, {
    numbers,
    flags,
    tagStarts: tagStartsOf(tagCounts, tagIndexes, tagNames.length),
    tagIndexes,
    tagNames,
    // Made now: a first read keys every row by them (loader.ts).
    ids: decodeAll(ids),
    paths: decodeAll(paths),
    hashes: decodeAll(hashes),
    texts,
    extras,
    typed,
  });
}

function decodeAll(column: TextColumn): string[] {
  return Array.from({ length: column.count }, (_, i) => column.at(i));
}

/** Where each record's tags start in `tagIndexes` (one more entry than records); throws DamagedRecords unless they add up and name known tags. */
function tagStartsOf(tagCounts: Uint32Array, tagIndexes: Uint32Array, tagNameCount: number): Uint32Array {
  const starts = new Uint32Array(tagCounts.length + 1);
  let at = 0;
  for (let row = 0; row < tagCounts.length; row++) {
    starts[row] = at;
    at += tagCounts[row] as number;
  }
  starts[tagCounts.length] = at;
  if (at !== tagIndexes.length) throw new DamagedRecords('tag count');
  for (const index of tagIndexes) if (index >= tagNameCount) throw new DamagedRecords('tag');
  return starts;
}

/** What a ColumnTable reads its rows from. */
interface Columns {
  numbers: Float64Array;
  flags: Uint8Array;
  tagStarts: Uint32Array;
  tagIndexes: Uint32Array;
  tagNames: readonly string[];
  ids: readonly string[];
  paths: readonly string[];
  hashes: readonly string[];
  /** STRING_COLUMNS, in order. */
  texts: readonly [TextColumn, TextColumn, TextColumn, TextColumn, TextColumn, TextColumn, TextColumn];
  /** The keys few records have, by row. */
  extras: ReadonlyMap<number, Record<string, unknown>>;
  typed: RecordExtrasReader;
}

/** The rows of a decoded records section, each made into a record when asked. */
class ColumnTable implements RecordTable {
  constructor(
    readonly count: number,
    private readonly columns: Columns,
  ) {}

  id(row: number): string {
    return this.columns.ids[row] as string;
  }

  path(row: number): string {
    return this.columns.paths[row] as string;
  }

  hash(row: number): string {
    return this.columns.hashes[row] as string;
  }

  private folder(row: number): string | null {
    return (this.columns.flags[row] as number) & AT_ROOT ? null : this.columns.texts[5].at(row);
  }

  size(row: number): number {
    return this.columns.numbers[row * NUMBER_COLUMNS.length + 4] as number;
  }

  numbers(row: number): RowNumbers {
    const { numbers, extras } = this.columns;
    const n = row * NUMBER_COLUMNS.length;
    const extra = extras.get(row) as Partial<RowNumbers> | undefined;
    return {
      createdMs: numbers[n] as number,
      updatedMs: numbers[n + 1] as number,
      statedCreatedMs: stated(numbers[n + 2] as number),
      statedUpdatedMs: stated(numbers[n + 3] as number),
      size: numbers[n + 4] as number,
      mtimeMs: numbers[n + 5] as number,
      ctimeMs: numbers[n + 6] as number,
      ino: numbers[n + 7] as number,
      birthtimeMs: numbers[n + 8] as number,
      keptCreatedMs: extra?.keptCreatedMs,
      keptUpdatedMs: extra?.keptUpdatedMs,
      editedMs: extra?.editedMs,
    };
  }

  record(row: number): NoteRecord {
    const { numbers, flags, tagStarts, tagIndexes, tagNames, texts, extras, typed } = this.columns;
    const n = row * NUMBER_COLUMNS.length;
    const flag = flags[row] as number;
    const firstTag = tagStarts[row] as number;
    const tags = new Array<string>((tagStarts[row + 1] as number) - firstTag);
    for (let t = 0; t < tags.length; t++) tags[t] = tagNames[tagIndexes[firstTag + t] as number] as string;
    // One shape for every record: the optional dates go in after.
    const record: NoteRecord = {
      id: this.id(row),
      path: this.path(row),
      folder: this.folder(row),
      title: texts[2].at(row),
      source: SOURCES[flag >> SOURCE_SHIFT] as NoteRecord['source'],
      createdMs: numbers[n] as number,
      updatedMs: numbers[n + 1] as number,
      tags,
      snippet: texts[4].at(row),
      shared: (flag & SHARED) !== 0,
      broken: (flag & BROKEN) !== 0,
      size: numbers[n + 4] as number,
      mtimeMs: numbers[n + 5] as number,
      ctimeMs: numbers[n + 6] as number,
      ino: numbers[n + 7] as number,
      birthtimeMs: numbers[n + 8] as number,
      hash: this.hash(row),
    };
    const statedCreated = stated(numbers[n + 2] as number);
    const statedUpdated = stated(numbers[n + 3] as number);
    if (statedCreated !== undefined) record.statedCreatedMs = statedCreated;
    if (statedUpdated !== undefined) record.statedUpdatedMs = statedUpdated;
    const linkText = texts[6].at(row);
    if (linkText !== '') record.links = linkText.split('\n');
    typed.apply(record, row);
    const extra = extras.get(row);
    if (extra) Object.assign(record, extra);
    return record;
  }
}

/** An optional number of the numbers column: NaN where the record has none. */
function stated(value: number): number | undefined {
  return Number.isNaN(value) ? undefined : value;
}

function parseHeader(text: string): Header {
  let header: unknown;
  try {
    header = JSON.parse(text);
  } catch {
    throw new DamagedRecords('header');
  }
  const { count, tagNames, blobs } = (header ?? {}) as Partial<Header>;
  const valid =
    Number.isSafeInteger(count) &&
    (count as number) >= 0 &&
    Array.isArray(tagNames) &&
    tagNames.every((name) => typeof name === 'string') &&
    Array.isArray(blobs) &&
    blobs.every((bytes) => Number.isSafeInteger(bytes) && bytes >= 0);
  if (!valid) throw new DamagedRecords('header');
  return header as Header;
}

/** The keys few records have, by row; throws DamagedRecords unless each entry is a row and an object. */
function parseExtras(blob: Buffer, count: number): Map<number, Record<string, unknown>> {
  const extras = parseJsonBlob(blob, 'extras');
  if (!Array.isArray(extras)) throw new DamagedRecords('extras');
  const byRow = new Map<number, Record<string, unknown>>();
  for (const entry of extras as unknown[]) {
    if (!Array.isArray(entry) || typeof entry[1] !== 'object' || entry[1] === null) throw new DamagedRecords('extra');
    const row: unknown = entry[0];
    if (typeof row !== 'number' || !Number.isInteger(row) || row < 0 || row >= count) throw new DamagedRecords('extra index');
    byRow.set(row, { ...byRow.get(row), ...(entry[1] as Record<string, unknown>) });
  }
  return byRow;
}
