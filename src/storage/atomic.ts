import { randomBytes } from 'node:crypto';
import { constants, fstatSync, lstatSync, renameSync, type BigIntStats, type Stats } from 'node:fs';
import { link, open, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/**
 * Temporary files start with a dot so that a scanner or watcher (which skip
 * dot-files) can never take one for a note, and carry the writing process's
 * id so that a leftover can be told from a file another running server is
 * still writing (see removeLeftoverTemps).
 */
export const TEMP_PREFIX = '.dexi-tmp-';

/**
 * A temporary file for `target`, in `dir` (default: beside the target). A
 * note's temporary file goes under `.dexi/`, never beside the note, where a
 * crash would leave a copy of its text for `git add -A` to commit.
 */
export function tempPathFor(target: string, dir = path.dirname(target)): string {
  // File names are limited to 255 bytes; the target's name is only a hint for a person looking.
  const hint = path.basename(target).slice(0, 40);
  return path.join(dir, `${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}-${hint}`);
}

/** Whether a process with this id exists (it may be another user's). */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, and belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Older than this, a temporary file is a leftover even if its process id has been reused since. */
const LEFTOVER_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Remove the temporary files in `dir` that no running writer owns: those of
 * processes that are gone (a crash, a SIGKILL), and any older than a day.
 * Another server on the same vault may be writing its own right now, so a
 * live process's recent file is left alone. Returns how many were removed.
 */
export async function removeLeftoverTemps(dir: string, now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const pid = Number(/^(\d+)-/.exec(name.slice(TEMP_PREFIX.length))?.[1]);
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) continue;
    const owned = Number.isInteger(pid) && pid > 0 && pid !== process.pid && processIsAlive(pid);
    if ((owned || pid === process.pid) && now - info.mtimeMs < LEFTOVER_AGE_MS) continue;
    if (await unlink(file).then(() => true, () => false)) removed++;
  }
  return removed;
}

/**
 * Write a temporary file durably; returns its stats (a rename keeps them),
 * plain and exact. A write that fails (a full disk, a quota) removes its
 * temporary file before the error goes on: only a crash leaves one behind.
 */
async function writeTemp(
  temp: string,
  data: string | Uint8Array,
  options: { mode?: number } = {},
): Promise<{ stats: Stats; exact: BigIntStats }> {
  const handle = await open(temp, 'wx', options.mode ?? 0o644);
  let written = false;
  try {
    await handle.writeFile(data);
    // The umask narrows the mode given to open; a note's own mode is kept exactly.
    if (options.mode !== undefined) await handle.chmod(options.mode);
    // Security: flush before the rename so a crash never leaves a renamed
    // but empty file where the person's note was.
    await handle.sync();
    const stats = { stats: await handle.stat(), exact: await handle.stat({ bigint: true }) };
    written = true;
    return stats;
  } finally {
    await handle.close().catch(() => undefined);
    if (!written) await unlink(temp).catch(() => undefined);
  }
}

/**
 * Replace a file atomically: a crash leaves either the old or the new
 * content, never half of one. `beforeRename` runs just before the rename and
 * may throw to abandon the write.
 */
export async function replaceFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: { mode?: number; beforeRename?: () => Promise<void> } = {},
): Promise<void> {
  const temp = tempPathFor(target);
  await writeTemp(temp, data, options.mode === undefined ? {} : { mode: options.mode });
  try {
    await options.beforeRename?.();
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/**
 * Replace a file atomically with content written piece by piece, so that a
 * large file never has to sit in memory whole. `produce` hands each piece to
 * `write` and returns false to abandon the new file: the old one then stays.
 */
export async function replaceFileAtomicStreaming(
  target: string,
  produce: (write: (bytes: Uint8Array) => Promise<void>) => Promise<boolean>,
): Promise<boolean> {
  const temp = tempPathFor(target);
  const handle = await open(temp, 'wx', 0o644);
  let keep = false;
  try {
    keep = await produce(async (bytes) => {
      for (let offset = 0; offset < bytes.length; ) offset += (await handle.write(bytes, offset)).bytesWritten;
    });
    if (keep) await handle.sync();
  } catch (error) {
    // A failed write or flush (a full disk) leaves no temporary file behind.
    keep = false;
    throw error;
  } finally {
    await handle.close().catch(() => undefined);
    if (!keep) await unlink(temp).catch(() => undefined);
  }
  if (!keep) return false;
  try {
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return true;
}

/**
 * Create a file that must not exist yet, atomically: the content is written
 * to a temporary file and hard-linked into place, which fails with EEXIST
 * instead of overwriting a file that appeared in the meantime.
 */
export async function createFileExclusive(target: string, data: string | Uint8Array, tempDir?: string, mode?: number): Promise<void> {
  const temp = tempPathFor(target, tempDir);
  await writeTemp(temp, data, mode === undefined ? {} : { mode });
  try {
    await link(temp, target);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/**
 * The times and inode of `stats` as plain Stats give them (`mtimeMs` and so
 * on, numbers), to the last bit: the scan and the cache compare a file's
 * plain stats, and a note's read takes the exact ones from the handle
 * rather than asking for them a second time.
 */
export function plainStats(stats: BigIntStats): { mtimeMs: number; ctimeMs: number; birthtimeMs: number; ino: number; size: number } {
  return { mtimeMs: msOf(stats.mtimeNs), ctimeMs: msOf(stats.ctimeNs), birthtimeMs: msOf(stats.birthtimeNs), ino: Number(stats.ino), size: Number(stats.size) };
}

const NS_PER_SECOND = 1_000_000_000n;

/** Node makes a plain time as seconds × 1000 + nanoseconds / 1e6, from a timespec whose nanoseconds are never negative. */
function msOf(ns: bigint): number {
  let seconds = ns / NS_PER_SECOND;
  let nanoseconds = ns % NS_PER_SECOND;
  if (nanoseconds < 0n) {
    nanoseconds += NS_PER_SECOND;
    seconds -= 1n;
  }
  return Number(seconds) * 1000 + Number(nanoseconds) / 1e6;
}

/** A regular file opened for reading, with what it held when read. The caller closes `handle`. */
export interface OpenedFile {
  handle: FileHandle;
  /** Identity (dev, ino) and size, times and mode, from the handle itself. */
  stats: BigIntStats;
  bytes: Buffer;
}

export type OpenOutcome = { kind: 'file'; file: OpenedFile } | { kind: 'missing' } | { kind: 'not-a-file' } | { kind: 'too-large'; size: number };

// Security: O_NOFOLLOW refuses a symbolic link in the last component, so a
// note replaced by a link is never read through it; O_NONBLOCK keeps a FIFO
// named like a note from blocking the open (it is then refused as not a file).
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Read a whole file from offset 0 through an open handle (the handle's position is not used). */
export async function readWhole(handle: FileHandle, sizeHint: number, maxBytes: number): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let total = 0;
  let chunkSize = Math.min(Math.max(sizeHint + 1, 4096), maxBytes + 1);
  for (;;) {
    const buffer = Buffer.allocUnsafe(chunkSize);
    const { bytesRead } = await handle.read(buffer, 0, chunkSize, total);
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) return 'too-large';
    // A regular file reads short only at its end (libuv retries interrupted
    // reads): no read is spent to be told so, one of the six calls that a
    // note's read cost the main thread at a cold start (issue 17).
    if (bytesRead < chunkSize) break;
    chunkSize = Math.min(64 * 1024, maxBytes + 1 - total);
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
}

/**
 * Open a regular file and read it through the same handle, so that the
 * identity and the content belong to one and the same file even if it is
 * replaced meanwhile. Symbolic links, folders, FIFOs and devices are "not a
 * file"; a file over `maxBytes` is "too large" and is not read.
 */
export async function openRegularFile(absolute: string, maxBytes: number): Promise<OpenOutcome> {
  let handle: FileHandle;
  try {
    handle = await open(absolute, READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    if (code === 'ELOOP' || code === 'EISDIR' || code === 'ENXIO' || code === 'EMLINK') return { kind: 'not-a-file' };
    throw error;
  }
  try {
    // The open descriptor's inode is in memory: fstat answers in microseconds,
    // while a round trip through the thread pool cost the main thread some
    // 30 µs a call at a cold start of 100,000 notes (issue 17, BENCHMARKS.md).
    const stats = fstatSync(handle.fd, { bigint: true });
    if (!stats.isFile()) {
      await handle.close();
      return { kind: 'not-a-file' };
    }
    if (stats.size > BigInt(maxBytes)) {
      await handle.close();
      return { kind: 'too-large', size: Number(stats.size) };
    }
    const bytes = await readWhole(handle, Number(stats.size), maxBytes);
    if (bytes === 'too-large') {
      const size = Number(fstatSync(handle.fd, { bigint: true }).size);
      await handle.close();
      return { kind: 'too-large', size };
    }
    return { kind: 'file', file: { handle, stats, bytes } };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

function sameState(a: BigIntStats, b: BigIntStats): boolean {
  return a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

export type GuardedOutcome =
  /** The new content is in place, and nobody wrote the old file meanwhile; `stats` are the new file's. */
  | { outcome: 'replaced'; stats: Stats }
  /** The file changed, moved or went before the rename: nothing was written. */
  | { outcome: 'changed' }
  /**
   * The new content is in place, but someone wrote into the old file just
   * as it was replaced: `bytes` is what the old file holds now, which is no
   * longer in the vault. The caller puts it back and redoes its edit on it.
   */
  | { outcome: 'displaced'; bytes: Buffer; written: FileIdentity; stats: Stats };

/** Which file a path names: device and inode. */
export interface FileIdentity {
  dev: bigint;
  ino: bigint;
}

export function isSameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

export interface GuardedOptions {
  /** Where the temporary file is written (default: beside the target). */
  tempDir?: string;
  /** The file's mode, kept on the new file. */
  mode?: number;
  maxBytes: number;
  /**
   * Test seam: runs after the new content is written to its temporary file
   * and before the checks. This is the window in which another program's
   * write would be lost if it were not detected; tests put an editor's save
   * here to show that it is. The server itself never sets it.
   */
  beforeCheck?: () => Promise<void>;
  /**
   * Whether the old file may still be being written by another program (it
   * changed moments ago, and not by this server): then it is looked at once
   * more, shortly after the rename. Default true.
   */
  mayBeBusy?: boolean;
  /** Test seam: runs right after the rename, before the old file is looked at again. */
  afterRename?: () => Promise<void>;
}

/** How long after its last write a file counts as possibly still being written. */
const BUSY_MS = 250;
const SECOND_LOOK_MS = 25;

/**
 * Replace `target`, which was read as `base`, with `data`, unless the file
 * changed since it was read. The checks, just before the rename:
 *
 * - the content, read again through the handle that read it first, is the
 *   same bytes (so an in-place write, even one that keeps size and times, is
 *   seen);
 * - the path still names the same file (device and inode: an editor that
 *   saves by renaming a new file over the note replaces the inode), and the
 *   file's size and change times are as they were after that second read.
 *
 * The last check and the rename are synchronous calls, back to back, so the
 * window in which another program's rename could still slip in is a few
 * microseconds rather than an event-loop turn. Without an atomic
 * compare-and-rename in POSIX it cannot be closed entirely; SECURITY.md says so.
 *
 * After the rename, the old file is read once more through the handle (and
 * once again shortly after if it was being written to): a program that had
 * it open and wrote into it as it was replaced has written into a file that
 * is no longer in the vault, and the caller is told so ("displaced").
 */
export async function replaceGuarded(target: string, data: string | Uint8Array, base: OpenedFile, options: GuardedOptions): Promise<GuardedOutcome> {
  const temp = tempPathFor(target, options.tempDir);
  const written = await writeTemp(temp, data, options.mode === undefined ? {} : { mode: options.mode });
  let renamed = false;
  try {
    await options.beforeCheck?.();
    const before = await base.handle.stat({ bigint: true });
    const now = await readWhole(base.handle, base.bytes.length, options.maxBytes);
    if (now === 'too-large' || !now.equals(base.bytes)) return { outcome: 'changed' };
    // Security: from here to the rename, no await: nothing else of this process runs in between.
    let atPath: BigIntStats;
    try {
      atPath = lstatSync(target, { bigint: true });
    } catch {
      return { outcome: 'changed' };
    }
    const held = fstatSync(base.handle.fd, { bigint: true });
    if (!atPath.isFile() || !isSameFile(atPath, base.stats) || !sameState(held, before)) return { outcome: 'changed' };
    renameSync(temp, target);
    renamed = true;
  } finally {
    if (!renamed) await unlink(temp).catch(() => undefined);
  }
  await options.afterRename?.();

  // No size limit here: whatever the old file holds now exists nowhere else.
  let after = (await readWhole(base.handle, base.bytes.length, Number.MAX_SAFE_INTEGER)) as Buffer;
  const lastWrite = (await base.handle.stat({ bigint: true })).mtimeMs;
  if (after.equals(base.bytes) && options.mayBeBusy !== false && Date.now() - Number(lastWrite) < BUSY_MS) {
    await new Promise((resolve) => setTimeout(resolve, SECOND_LOOK_MS));
    after = (await readWhole(base.handle, base.bytes.length, Number.MAX_SAFE_INTEGER)) as Buffer;
  }
  const stats = written.stats;
  return after.equals(base.bytes) ? { outcome: 'replaced', stats } : { outcome: 'displaced', bytes: after, written: { dev: written.exact.dev, ino: written.exact.ino }, stats };
}
