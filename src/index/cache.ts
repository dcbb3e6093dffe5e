import { createHash } from 'node:crypto';
import { open, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { replaceFileAtomicStreaming } from '../storage/atomic.js';
import { INDEX_CACHE_FILE } from '../storage/dexi-dir.js';
import type { NoteRecord } from '../vault/note.js';
import { FullTextIndex, type FullTextMeta, type FullTextSnapshot } from './fulltext/fulltext.js';
import type { RecordTable } from '../vault/record-table.js';
import { DamagedRecords, decodeRecords, decodeRecordTable, encodeRecords } from './record-columns.js';
import { bytesToHash, SharedHash } from './shared-hash.js';

/**
 * Bump whenever what is stored, or how notes are parsed, changes: an older
 * snapshot is then rebuilt rather than trusted. 5: the index's words changed
 * (issue 16: compounds beside their parts, unspaced scripts segmented, kana
 * and other letters' marks kept; src/index/fulltext/terms.ts). 6: the records by
 * column (record-columns.ts). 8: a record keeps its body's tasks
 * (src/format/tasks.ts; in the extras of record-columns.ts). 9: and the
 * note's frontmatter properties (`properties`, for list_notes `where` and
 * list_properties). 10: stop words are indexed (a query leaves them out
 * instead: stop-words.ts), and Hangul touching Latin letters or digits is a
 * word apart (issue 33; korean.ts). 11: a record's properties and tasks by
 * column, not in the JSON extras (record-extras.ts). 12: texts in Latin-1 or
 * UTF-16 rather than UTF-8 (string-column.ts).
 */
export const CACHE_VERSION = 12;

/** The cache file was `notes.json`, one JSON document, in version 2. */
const OLD_CACHE_FILES = ['notes.json'];

/*
 * Layout of index.bin, chosen so that neither saving nor loading builds one
 * giant string or object graph (at 100,000 notes the JSON form was 240 MB,
 * and serialising it held the server for tens of seconds):
 *
 *   postings   the full-text postings as 32-bit integers in the machine's
 *              byte order (the cache never leaves the machine: .gitignore)
 *   records    the note records by column (record-columns.ts)
 *   meta       the index metadata and term list, JSON
 *   footer     FOOTER_BYTES: magic, version, the three lengths, and a
 *              SHA-1 of everything before the footer (integrity, not security)
 */
const MAGIC = Buffer.from('dexi-idx', 'latin1');
const FOOTER_BYTES = 64;
const HASH_BYTES = 20;

export interface CacheSnapshot {
  /** Checked whole, each row made into a record when asked (record-table.ts). */
  records: RecordTable;
  fulltext: FullTextIndex;
}

/** The cache file in `folder`: a vault's `.dexi/cache/`, or a teammate's folder inside it. */
export function cacheFile(folder: string): string {
  return path.join(folder, INDEX_CACHE_FILE);
}

class DamagedCache extends Error {}
class OtherVersion extends Error {}

/** Where index.bin's sections end, as its footer says; see the layout above. */
interface Layout {
  /** The file's length in bytes. */
  size: number;
  postingBytes: number;
  recordBytes: number;
  metaBytes: number;
  /** The SHA-1 the footer holds of everything before it. */
  digest: Buffer;
}

/** The footer of an open cache file, checked against the file's length; throws DamagedCache or OtherVersion. */
async function readLayout(file: FileHandle): Promise<Layout> {
  const { size } = await file.stat();
  if (size < FOOTER_BYTES) throw new DamagedCache('too short');
  const footer = Buffer.alloc(FOOTER_BYTES);
  await readExactly(file, footer, size - FOOTER_BYTES);
  if (!footer.subarray(0, MAGIC.length).equals(MAGIC)) throw new DamagedCache('no magic');
  if (footer.readUInt32LE(8) !== CACHE_VERSION) throw new OtherVersion();
  const postingBytes = footer.readDoubleLE(16);
  const recordBytes = footer.readDoubleLE(24);
  const metaBytes = footer.readDoubleLE(32);
  const valid = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;
  if (!valid(postingBytes) || !valid(recordBytes) || !valid(metaBytes) || postingBytes % 4 !== 0 || postingBytes + recordBytes + metaBytes !== size - FOOTER_BYTES) {
    throw new DamagedCache('lengths');
  }
  return { size, postingBytes, recordBytes, metaBytes, digest: footer.subarray(40, 40 + HASH_BYTES) };
}

function decodedRecords<T>(decode: (section: Buffer) => T, section: Buffer): T {
  try {
    return decode(section);
  } catch (error) {
    if (error instanceof DamagedRecords) throw new DamagedCache(error.message);
    throw error;
  }
}

/**
 * Read and check the cache file section by section, the postings straight
 * into the Int32Array the index keeps (the records and metadata are parsed
 * and dropped), so that the loaded index does not hold the whole file.
 */
async function decode(file: FileHandle): Promise<CacheSnapshot> {
  const { size, postingBytes, recordBytes, metaBytes, digest: expected } = await readLayout(file);
  // Hashed on a worker while the main thread decodes (shared-hash.ts);
  // nothing decoded is handed out before the hash agrees.
  const hash = new SharedHash();
  try {
    const postings = new Int32Array(bytesToHash(postingBytes, size));
    const postingView = Buffer.from(postings.buffer, postings.byteOffset, postings.byteLength);
    const rest = Buffer.from(bytesToHash(recordBytes + metaBytes, size));
    // The records first, decoded while the postings are read: at 100,000
    // notes the postings (153 MB) took some 150 ms to read before.
    await readSideBySide(file, rest, postingBytes);
    const postingsRead = readExactly(file, postingView, 0);
    const [records, postingsDone] = await Promise.allSettled([Promise.resolve().then(() => decodedRecords(decodeRecordTable, rest.subarray(0, recordBytes))), postingsRead]);
    if (records.status === 'rejected') throw records.reason;
    if (postingsDone.status === 'rejected') throw postingsDone.reason;
    hash.update(postingView);
    hash.update(rest);
    const decoded = await Promise.allSettled([hash.digest(), Promise.resolve().then(() => fullTextOf(rest, recordBytes, postings))]);
    const [digest, fulltext] = decoded as [PromiseSettledResult<Buffer>, PromiseSettledResult<FullTextIndex>];
    if (digest.status === 'rejected') throw digest.reason;
    if (!digest.value.equals(expected)) throw new DamagedCache('checksum');
    if (fulltext.status === 'rejected') throw fulltext.reason;
    return { records: records.value, fulltext: fulltext.value };
  } finally {
    hash.close();
  }
}

/** The full-text index of a cache file whose hash is being checked. */
function fullTextOf(rest: Buffer, recordBytes: number, postings: Int32Array): FullTextIndex {
  const meta = JSON.parse(rest.toString('utf8', recordBytes)) as FullTextMeta;
  if (typeof meta !== 'object' || meta === null) throw new DamagedCache('shape');
  return FullTextIndex.fromSnapshot(meta, postings);
}

/** The postings are hashed this much at a time by `readCachedRecords`, which does not keep them. */
const HASH_SLICE = 4 * 1024 * 1024;

/** What `readCachedRecords` finds: the records the next start would begin from, or why there are none. */
export type CachedRecords =
  | { state: 'saved'; records: NoteRecord[]; bytes: number; savedMs: number }
  | { state: 'missing' }
  | { state: 'other-version' | 'damaged'; bytes: number; savedMs: number };

/**
 * The note records of the cache in `folder`, checked as `loadSnapshot`
 * checks them (the whole file's checksum) without building the full-text
 * index: for `dexi-vault status`, which says whether the next start can
 * trust the cache and reads nothing else of it. Writes nothing.
 */
export async function readCachedRecords(folder: string): Promise<CachedRecords> {
  let file: FileHandle;
  try {
    file = await open(cacheFile(folder), 'r');
  } catch (error) {
    // ENOTDIR: a `.dexi` that is a file holds no cache either.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { state: 'missing' };
    throw error;
  }
  try {
    const { size: bytes, mtimeMs: savedMs } = await file.stat();
    try {
      const { postingBytes, recordBytes, metaBytes, digest } = await readLayout(file);
      const hash = createHash('sha1');
      const slice = Buffer.alloc(Math.min(HASH_SLICE, postingBytes));
      for (let at = 0; at < postingBytes; at += slice.length) {
        const piece = slice.subarray(0, Math.min(slice.length, postingBytes - at));
        await readExactly(file, piece, at);
        hash.update(piece);
      }
      const rest = Buffer.alloc(recordBytes + metaBytes);
      await readExactly(file, rest, postingBytes);
      if (!hash.update(rest).digest().equals(digest)) throw new DamagedCache('checksum');
      return { state: 'saved', records: decodedRecords(decodeRecords, rest.subarray(0, recordBytes)), bytes, savedMs };
    } catch (error) {
      if (error instanceof OtherVersion) return { state: 'other-version', bytes, savedMs };
      if (error instanceof DamagedCache) return { state: 'damaged', bytes, savedMs };
      throw error;
    }
  } finally {
    await file.close();
  }
}

/** Fill `into` from `file` at `position`; throws if the file ends first. */
async function readExactly(file: FileHandle, into: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < into.length) {
    // A single read returns at most 2 GiB, and may return less.
    const { bytesRead } = await file.read(into, done, Math.min(into.length - done, 1 << 30), position + done);
    if (bytesRead === 0) throw new DamagedCache('cut short');
    done += bytesRead;
  }
}

/**
 * `readExactly` in READ_PIECES reads at once, which the thread pool copies
 * side by side: the records' 120 MB at 100,000 notes took 74-82 ms in one
 * read, 37-38 ms in four (in-process, three rounds each), and the main
 * thread has nothing else to do meanwhile.
 */
async function readSideBySide(file: FileHandle, into: Uint8Array, position: number): Promise<void> {
  const piece = Math.ceil(into.length / READ_PIECES);
  await Promise.all(Array.from({ length: READ_PIECES }, (_, i) => readExactly(file, into.subarray(i * piece, (i + 1) * piece), position + i * piece)));
}

const READ_PIECES = 4;

/**
 * Load the saved snapshot, or undefined when there is none, it is from
 * another version, or anything in it does not look right.
 */
export async function loadSnapshot(folder: string, log: (line: string) => void): Promise<CacheSnapshot | undefined> {
  let file: FileHandle;
  try {
    file = await open(cacheFile(folder), 'r');
  } catch {
    for (const old of OLD_CACHE_FILES) {
      if (await stat(path.join(folder, old)).then(() => true, () => false)) {
        log('The index cache is from another version; rebuilding it.');
        break;
      }
    }
    return undefined;
  }
  try {
    return await decode(file);
  } catch (error) {
    log(error instanceof OtherVersion ? 'The index cache is from another version; rebuilding it.' : 'The index cache is damaged; rebuilding it.');
    return undefined;
  } finally {
    await file.close();
  }
}

/** A save writes at least this much at a time (but the last write). */
const WRITE_BYTES = 256 * 1024;

export interface SaveOptions {
  /**
   * Asked between pieces: once it says false (a note changed), the save is
   * abandoned and the previous cache stays, to be replaced by a later save.
   */
  stillCurrent?: () => boolean;
}

/**
 * Write the records and a full-text snapshot into `folder` (made by the
 * caller, with its `.gitignore`), a piece at a time with the event loop free
 * in between, so that tool calls are answered while a large cache is
 * written. Resolves false if it was abandoned.
 */
export async function saveSnapshot(
  folder: string,
  snapshot: { records: readonly NoteRecord[]; fulltext: FullTextSnapshot },
  options: SaveOptions = {},
): Promise<boolean> {
  const dir = folder;
  const stillCurrent = options.stillCurrent ?? (() => true);
  const saved = await replaceFileAtomicStreaming(path.join(dir, INDEX_CACHE_FILE), async (write) => {
    const hash = createHash('sha1');
    let written = 0;
    // Small pieces (the records come in some 25, many of a few bytes) are
    // gathered into writes of WRITE_BYTES: a write each made a small vault's
    // save some 25 writes long. A piece is copied when gathered, since the
    // postings come in one reused array.
    let gathered: Buffer[] = [];
    let gatheredBytes = 0;
    const writeGathered = async (): Promise<void> => {
      if (gatheredBytes === 0) return;
      const bytes = gathered.length === 1 ? (gathered[0] as Buffer) : Buffer.concat(gathered, gatheredBytes);
      gathered = [];
      gatheredBytes = 0;
      await write(bytes);
    };
    const put = async (bytes: Uint8Array): Promise<boolean> => {
      hash.update(bytes);
      written += bytes.length;
      if (bytes.length >= WRITE_BYTES) {
        await writeGathered();
        await write(bytes);
      } else if (bytes.length > 0) {
        gathered.push(Buffer.from(bytes));
        gatheredBytes += bytes.length;
        if (gatheredBytes >= WRITE_BYTES) await writeGathered();
      }
      await yieldToEventLoop();
      return stillCurrent();
    };
    for (const chunk of snapshot.fulltext.postings()) {
      if (!(await put(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)))) return false;
    }
    const postingBytes = written;
    for (const piece of encodeRecords(snapshot.records)) {
      if (!(await put(piece))) return false;
    }
    const recordBytes = written - postingBytes;
    if (!(await put(Buffer.from(JSON.stringify(snapshot.fulltext.meta), 'utf8')))) return false;
    const metaBytes = written - postingBytes - recordBytes;
    const footer = Buffer.alloc(FOOTER_BYTES);
    MAGIC.copy(footer, 0);
    footer.writeUInt32LE(CACHE_VERSION, 8);
    footer.writeDoubleLE(postingBytes, 16);
    footer.writeDoubleLE(recordBytes, 24);
    footer.writeDoubleLE(metaBytes, 32);
    hash.digest().copy(footer, 40);
    gathered.push(footer);
    gatheredBytes += footer.length;
    await writeGathered();
    return stillCurrent();
  });
  if (saved) for (const old of OLD_CACHE_FILES) await rm(path.join(dir, old), { force: true });
  return saved;
}
