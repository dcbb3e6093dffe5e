import { openRegularFile, processIsAlive } from '../../storage/atomic.js';
import { folderPathProblem, inLinkedFolder, resolveInside } from '../../storage/paths.js';
import type { ActivityLog, ActivityRecord } from './activity.js';
import { hashContent } from '../parse.js';

/**
 * Pending entries of activity.jsonl (a write recorded ahead of itself, see
 * activity.ts) that no settling line names: the process was killed between
 * the two, or is writing right now. Which of them reached the disk is read
 * from the files themselves.
 */

/** Notes are at most 4 MiB; an imported attachment may be larger. */
const MAX_FILE_BYTES = 256 * 1024 * 1024;

/** The content hash of the file at a vault path; null when there is none; undefined when it cannot be told. */
async function hashAt(root: string, vaultPath: string): Promise<string | null | undefined> {
  if (folderPathProblem(vaultPath) !== undefined) return undefined;
  try {
    const absolute = await resolveInside(root, vaultPath);
    if (await inLinkedFolder(root, absolute)) return undefined;
    const opened = await openRegularFile(absolute, MAX_FILE_BYTES);
    if (opened.kind === 'missing') return null;
    if (opened.kind !== 'file') return undefined;
    await opened.file.handle.close();
    return hashContent(opened.file.bytes);
  } catch {
    return undefined;
  }
}

/**
 * Whether a pending write reached the disk. It did not only when the files
 * show plainly that it was never made: a change whose file still holds its
 * `before`, a create with no such file, a move whose note is still at its
 * old place and not at its new one, a delete whose file is still there.
 * Anything else (made, or changed again since) counts as made, so that no
 * change the server may have made is left off the record.
 */
export async function reachedDisk(root: string, entry: ActivityRecord): Promise<boolean> {
  switch (entry.action) {
    case 'changed':
      return entry.before === entry.after || (await hashAt(root, entry.path)) !== entry.before;
    case 'created':
      return (await hashAt(root, entry.path)) === entry.after;
    case 'moved':
      return !((await hashAt(root, entry.from)) === entry.after && (await hashAt(root, entry.path)) !== entry.after);
    case 'deleted':
      return (await hashAt(root, entry.path)) !== entry.before;
  }
}

/**
 * A pending entry's writer is still running: another server on this vault,
 * mid-write. This process's own id on a pending line found here is a killed
 * process's whose id was reused (this process settles its own writes).
 */
function stillWriting(entry: ActivityRecord): boolean {
  return entry.pid !== undefined && entry.pid !== process.pid && processIsAlive(entry.pid);
}

/**
 * The entries on record with every pending one decided: left out when its
 * write never reached the disk, a plain entry when it did. With `persist`,
 * the decision is written as the settling line the killed process never
 * wrote (only for writers that are gone: a running one settles its own).
 */
export async function settledEntries(log: ActivityLog, options: { persist: boolean }): Promise<ActivityRecord[]> {
  const entries = await log.entries();
  const result: ActivityRecord[] = [];
  for (const entry of entries) {
    if (entry.pending === undefined) {
      result.push(entry);
      continue;
    }
    const made = await reachedDisk(log.root, entry);
    if (options.persist && !stillWriting(entry)) await log.settle(entry.pending, made);
    if (!made) continue;
    const { pending: _pending, pid: _pid, ...plain } = entry;
    result.push(plain as ActivityRecord);
  }
  return result;
}

/** At start: settle what a killed server left pending. Returns how many entries it settled. */
export async function settlePending(log: ActivityLog): Promise<number> {
  const entries = await log.entries();
  const left = entries.filter((entry) => entry.pending !== undefined && !stillWriting(entry));
  if (left.length === 0) return 0;
  await settledEntries(log, { persist: true });
  return left.length;
}
