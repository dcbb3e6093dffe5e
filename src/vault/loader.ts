import { lstat, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToEventLoop, setTimeout as sleep } from 'node:timers/promises';
import { removeLeftoverTemps } from '../storage/atomic.js';
import { sharedCacheDir, tempDir } from '../storage/dexi-dir.js';
import { FIRST_READ_MEMORY_MS, type Catalog } from './catalog.js';
import type { Ingest } from './ingest.js';
import type { KeyedLock } from './lock.js';
import type { NoteFiles } from './note-files.js';
import type { NoteRecord } from './note.js';
import type { RecordTable } from './record-table.js';
import { StagedRows } from './staged-rows.js';
import { ParsePool } from './workers/parse-pool.js';
import { scanVault, type FileStat, type ScanResult } from './scan.js';
import { scanOffThread, unpackScan, type EarlyScan } from './workers/scan-pool.js';
import { WARNING, type Logger } from './logger.js';
import { counted } from '../format/counts.js';

export interface LoadProgress {
  phase: 'starting' | 'scanning' | 'reading' | 'ready';
  done: number;
  total: number;
}

const READ_CONCURRENCY = 32;
/**
 * A first read with this many notes to parse uses a parsing worker; below
 * it, starting the worker (0.12–0.15 s to its first answer, measured here)
 * costs more than it saves.
 */
const PARSE_WORKER_MIN_NOTES = 1000;
/**
 * A scan of a vault known to hold this many notes runs on the scanning
 * worker; below it the scan is done here. Its file stats (synchronous, in
 * slices) take a few milliseconds at a thousand notes, less than starting the
 * worker costs: 50 ms of CPU or so in the bundle, 0.17 s in the tests, which
 * open a small vault well over a thousand times a suite.
 */
const SCAN_WORKER_MIN_NOTES = 1000;
/** How long the first read waits to learn whether a cache is still loading (see scanBesideCache). */
const CACHE_KNOWN_MS = 20;

/** What the loader works with: the vault's parts, and how to tell it is being shut down. */
export interface LoaderParts {
  root: string;
  catalog: Catalog;
  files: NoteFiles;
  ingest: Ingest;
  lock: KeyedLock;
  log: Logger;
  /** A vault never written: not even leftovers are removed from it. */
  readOnly: boolean;
  /** The person's vault's cache folder, cleared of leftovers even when the vault is read-only (it is outside it then); undefined for a teammate's. */
  cacheDir?: string | undefined;
  parseWorkerMinNotes?: number | undefined;
  /** The first read's listing, begun before the vault was opened (src/cli/early-scan.ts). */
  earlyScan?: EarlyScan | undefined;
  progress: LoadProgress;
  stopped(): boolean;
}

/** Whether a file's stats are those the cache recorded: then its content is what the cache says. */
export function unchangedFile(file: FileStat, known: Pick<NoteRecord, 'size' | 'mtimeMs' | 'ctimeMs' | 'ino'> | undefined): boolean {
  return (
    known !== undefined &&
    known.size === file.size &&
    known.mtimeMs === file.mtimeMs &&
    known.ctimeMs === file.ctimeMs &&
    known.ino === file.ino
  );
}

/**
 * The first read: every note, 32 at a time. With `previous` (records from
 * the cache, once it has loaded), files whose size, times and inode are
 * unchanged are not read again: their rows are staged while the listing
 * ends and placed at once after it, without being made into records
 * (staged-rows.ts, record-table.ts); a note whose path vanished and whose
 * content turns up at a new path keeps its id. Returns the cached records
 * and those of them whose path no file has now, or undefined when stopped.
 */
export async function readEveryNote(parts: LoaderParts, cached: Promise<RecordTable>): Promise<{ previous: RecordTable; gone: number[] } | undefined> {
  const { catalog, files, ingest, lock, log, progress } = parts;
  Object.assign(progress, { phase: 'scanning', done: 0, total: 0 });
  // The folders are listed while the cache loads, and its rows are staged while the listing ends.
  const [scan, staged] = await Promise.all([scanBesideCache(parts, cached), cached.then((table) => new StagedRows(table))]);
  const previous = staged.table;
  await removeLeftovers(parts, scan.leftovers);
  for (const folder of scan.folders) catalog.addFolder(folder);
  const { gone, toRead } = confirmRows(staged, scan.files);
  catalog.adoptRows(staged);
  for (const row of gone) catalog.rememberGone(previous.record(row), FIRST_READ_MEMORY_MS);
  Object.assign(progress, { phase: 'reading', done: scan.files.length - toRead.length, total: scan.files.length });
  files.beginFirstRead();
  ingest.provisional = new Set();
  if (toRead.length >= (parts.parseWorkerMinNotes ?? PARSE_WORKER_MIN_NOTES)) ingest.parsePool = new ParsePool(log);

  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < toRead.length && !parts.stopped()) {
      const { file, row } = toRead[next++] as { file: FileStat; row: number | undefined };
      try {
        await lock.run(file.path, () => ingest.ingest(file.path, row === undefined ? undefined : previous.record(row)));
      } catch (error) {
        log(`Skipping ${file.path}: ${(error as Error).message}`, WARNING);
      }
      progress.done++;
    }
  };
  try {
    await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));
  } finally {
    files.endFirstRead();
    const pool = ingest.parsePool;
    ingest.parsePool = undefined;
    await pool?.close();
  }
  for (const vaultPath of ingest.reingestLater.splice(0)) {
    if (parts.stopped()) break;
    await lock.run(vaultPath, () => ingest.ingest(vaultPath)).catch((error: Error) => log(`Skipping ${vaultPath}: ${error.message}`, WARNING));
  }
  ingest.provisional = undefined;
  return parts.stopped() ? undefined : { previous, gone };
}

/**
 * Which staged rows the listing confirms: a row whose file is unchanged
 * stays; one whose file changed is dropped and the file read (with the row,
 * for its id); a row whose path no file has is gone. Files with no row are
 * read.
 */
function confirmRows(staged: StagedRows, scanned: readonly FileStat[]): { gone: number[]; toRead: { file: FileStat; row: number | undefined }[] } {
  const table = staged.table;
  const rows = scanned.map((file) => staged.rowAt(file.path));
  const found = new Uint8Array(table.count);
  for (const row of rows) if (row !== undefined) found[row] = 1;
  const gone: number[] = [];
  for (let row = 0; row < table.count; row++) {
    // A row left out of the staging for repeating a path is gone only if the staged one is.
    if (found[row]) continue;
    const stagedAtPath = staged.rowAt(table.path(row));
    if (stagedAtPath === undefined || !found[stagedAtPath]) gone.push(row);
  }
  for (const row of gone) staged.drop(row);
  const toRead: { file: FileStat; row: number | undefined }[] = [];
  scanned.forEach((file, at) => {
    const row = rows[at];
    if (row !== undefined && unchangedFile(file, table.numbers(row))) return;
    if (row !== undefined) staged.drop(row);
    toRead.push({ file, row });
  });
  return { gone, toRead };
}

/**
 * Temporary files of writes that never finished (a crash, a SIGKILL): nobody
 * will rename them now. Notes' replacements wait in `.dexi/cache/tmp/`; the
 * caches are written beside themselves, and a save cut short at 100,000
 * notes left 70–108 MB each.
 */
async function removeLeftovers(parts: LoaderParts, oldStyle: readonly string[]): Promise<void> {
  if (parts.cacheDir === undefined) return;
  const shared = sharedCacheDir(parts.cacheDir);
  const teammates = await readdir(shared, { withFileTypes: true }).catch(() => []);
  const dirs = [parts.cacheDir, ...teammates.filter((entry) => entry.isDirectory()).map((entry) => path.join(shared, entry.name))];
  if (!parts.readOnly) dirs.unshift(tempDir(parts.root));
  let removed = 0;
  for (const dir of dirs) removed += await removeLeftoverTemps(dir);
  let beside = 0;
  for (const vaultPath of parts.readOnly ? [] : oldStyle) {
    const abs = parts.files.absolute(vaultPath);
    // A minute old at least: an older server on this vault could be writing it right now.
    const info = await lstat(abs).catch(() => undefined);
    if (info?.isFile() && Date.now() - info.mtimeMs > 60_000 && (await unlink(abs).then(() => true, () => false))) beside++;
  }
  if (removed + beside > 0) parts.log(`Removed ${counted(removed + beside, 'temporary file')} left by writes that never finished.`);
}

/**
 * The first read's scan. While a large cache loads, the folders are listed on
 * the scanning worker, the two sharing the wait for the disk and the main
 * thread left to the cache (issue 17). With no cache (a first start: nothing
 * to overlap with) or a small one, known within a few milliseconds, the scan
 * runs here instead, without the worker's start.
 */
async function scanBesideCache(parts: LoaderParts, cached: Promise<RecordTable>): Promise<ScanResult> {
  const onOversize = (vaultPath: string, size: number): void => parts.files.logOversize(vaultPath, size);
  // Every line a scan logs is a file or folder skipped.
  const skipped = (line: string): void => parts.log(line, WARNING);
  if (parts.earlyScan?.root === parts.root) return unpackScan(await parts.earlyScan.packed, parts.root, skipped, onOversize);
  const known = await Promise.race([cached, sleep(CACHE_KNOWN_MS, undefined, { ref: false })]);
  if (known !== undefined && known.count < SCAN_WORKER_MIN_NOTES) return scanVault(parts.root, skipped, onOversize);
  return scanOffThread(parts.root, skipped, onOversize);
}

/** Notes the reconcile compares between two turns of the event loop. */
const RECONCILE_PER_TURN = 5000;

/**
 * Bring the catalog in step with the disk after a period nobody watched
 * (the first read runs before the watcher starts, so that the two do not
 * compete): files whose size, times or inode differ are read again, new ones
 * added, vanished ones dropped.
 */
export async function reconcile(
  parts: Pick<LoaderParts, 'root' | 'catalog' | 'files' | 'log'>,
  refresh: (vaultPath: string) => Promise<void>,
  forget: (vaultPath: string) => Promise<void>,
): Promise<void> {
  const { catalog } = parts;
  const skipped = (line: string): void => parts.log(line, WARNING);
  const onOversize = (vaultPath: string, size: number): void => parts.files.logOversize(vaultPath, size);
  const scan = catalog.size >= SCAN_WORKER_MIN_NOTES ? await scanOffThread(parts.root, skipped, onOversize) : await scanVault(parts.root, skipped, onOversize);
  catalog.setFolders(scan.folders);
  const seen = new Set<string>();
  // A turn of the event loop every few thousand notes: compared in one go,
  // 100,000 unchanged notes held tool calls for some 300 ms (issue 17).
  let sinceYield = 0;
  const breathe = async (): Promise<void> => {
    if (++sinceYield < RECONCILE_PER_TURN) return;
    sinceYield = 0;
    await yieldToEventLoop();
  };
  for (const file of scan.files) {
    seen.add(file.path);
    if (!unchangedFile(file, catalog.atPath(file.path))) await refresh(file.path);
    await breathe();
  }
  for (const record of [...catalog.all()]) {
    if (!seen.has(record.path)) await forget(record.path);
    await breathe();
  }
}
