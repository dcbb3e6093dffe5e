import { lstat, mkdir, link, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { createFileExclusive, openRegularFile, replaceGuarded, type OpenedFile } from '../../storage/atomic.js';
import { ensureTempDir } from '../../storage/dexi-dir.js';
import { folderPathProblem, inLinkedFolder, resolveInside } from '../../storage/paths.js';
import { HISTORY_KEPT, HistoryError, isLate, type ActivityLog, type ActivityRecord, type Write } from './activity.js';
import { settledEntries } from './activity-settle.js';
import { DexiError } from '../errors.js';
import { hashContent } from '../parse.js';
import { formatLocal } from '../../format/time.js';

/**
 * `dexi-vault undo`: put back what one tool call changed, as it was before,
 * byte for byte; refused, with nothing written, when anything it wrote has
 * been changed since (by the person, another program or a later call).
 */

export class UndoError extends DexiError {}

/** Notes are at most MAX_NOTE_BYTES; an imported attachment (a saved page, an e-mail) may be larger. */
const MAX_FILE_BYTES = 256 * 1024 * 1024;

/** What to undo: the latest call on one note (by id or path), or the latest call of all. */
export type UndoTarget = { note: string } | { last: true };

/** One tool call's writes, in the order they were made; the first is the call's own note. */
export interface RecordedCall {
  call: string;
  entries: ActivityRecord[];
}

/**
 * The calls on record, in order, and which of them an undo has taken back.
 * A `late` entry (text another program wrote late into the file the call
 * had replaced or removed, taken in) stands in for the call's earlier entry
 * of the same path, so that an undo puts back that program's full version. Pure.
 */
export function recordedCalls(entries: readonly ActivityRecord[]): { calls: RecordedCall[]; undone: Set<string> } {
  const byCall = new Map<string, RecordedCall>();
  const undone = new Set<string>();
  for (const entry of entries) {
    if (entry.undoes !== undefined) undone.add(entry.undoes);
    let call = byCall.get(entry.call);
    if (!call) {
      call = { call: entry.call, entries: [] };
      byCall.set(entry.call, call);
    }
    const earlier = isLate(entry) ? call.entries.findIndex((other) => other.path === entry.path && other.action === entry.action) : -1;
    if (earlier === -1) call.entries.push(entry);
    else call.entries[earlier] = { ...(call.entries[earlier] as ActivityRecord), ...entry } as ActivityRecord;
  }
  return { calls: [...byCall.values()], undone };
}

/** The entry that names a call's own note: its first that is not a link repair. */
export function ownEntry(call: RecordedCall): ActivityRecord {
  return call.entries.find((entry) => entry.because === undefined) ?? (call.entries[0] as ActivityRecord);
}

/** The calls an undo may still take back: not undone, and not undos themselves. */
function openCalls({ calls, undone }: ReturnType<typeof recordedCalls>): RecordedCall[] {
  return calls.filter((call) => !undone.has(call.call) && ownEntry(call).tool !== 'undo');
}

/**
 * The record in brief, as `dexi-vault status` says it: how many tool calls
 * (undos included) it holds; of those an undo may still take back, how many
 * have every version they would put back still in `kept` (undoable) and how
 * many do not (unkept: .dexi/history pruned it); and the latest call's own
 * write. Pure.
 */
export function recordSummary(
  entries: readonly ActivityRecord[],
  kept: ReadonlySet<string>,
): { calls: number; undoable: number; unkept: number; last: ActivityRecord | undefined } {
  const recorded = recordedCalls(entries);
  const last = recorded.calls.at(-1);
  const open = openCalls(recorded);
  const undoable = open.filter((call) => [...versionHashes(call)].every((hash) => kept.has(hash))).length;
  return { calls: recorded.calls.length, undoable, unkept: open.length - undoable, last: last === undefined ? undefined : ownEntry(last) };
}

function namesNote(entry: ActivityRecord, note: string): boolean {
  const asPath = note.replace(/\\/g, '/').replace(/^\.\//, '');
  return entry.id === note || entry.path === asPath || (entry.action === 'moved' && entry.from === asPath);
}

/**
 * The call an undo of `target` takes back: the newest tool call not undone
 * yet whose own note it names (or, for `--last`, the newest of all). Undos
 * themselves are not undone again: `--last` walks back through the
 * assistant's changes one call at a time. Pure.
 */
export function callToUndo(entries: readonly ActivityRecord[], target: UndoTarget): RecordedCall | { problem: string } {
  const recorded = recordedCalls(entries);
  const { calls } = recorded;
  const open = openCalls(recorded);
  for (let i = open.length - 1; i >= 0; i--) {
    const call = open[i] as RecordedCall;
    if ('last' in target || namesNote(ownEntry(call), target.note)) return call;
  }
  if ('last' in target) {
    return { problem: calls.length === 0 ? 'The assistant has changed nothing in this vault that is on record.' : 'Every change the assistant made that is on record has been undone already.' };
  }
  const repaired = open.find((call) => call.entries.some((entry) => entry.because !== undefined && namesNote(entry, target.note)));
  if (repaired) {
    const own = ownEntry(repaired);
    return {
      problem: `The assistant changed ${target.note} only to keep its links working when it moved another note (${describeCall(repaired)}); to put that back, undo the move: dexi-vault undo ${own.path}`,
    };
  }
  const any = calls.some((call) => call.entries.some((entry) => namesNote(entry, target.note)));
  return {
    problem: any
      ? `Every change the assistant made to ${target.note} that is on record has been undone already.`
      : `No change by the assistant to ${target.note} is on record; give a note id or its path as "dexi-vault activity" shows it.`,
  };
}

/** A file the undo will find at a path: its content hash, or null for no file there. */
type Expected = Map<string, string | null>;

/** A vault path from the record, resolved inside the vault, never through a link. */
async function safeFile(root: string, vaultPath: string): Promise<string> {
  const problem = folderPathProblem(vaultPath);
  if (problem !== undefined) throw new UndoError(`The record names "${vaultPath}", which cannot be a file of the vault (${problem}); nothing was changed.`);
  const absolute = await resolveInside(root, vaultPath).catch(() => undefined);
  if (absolute === undefined || (await inLinkedFolder(root, absolute))) {
    throw new UndoError(`${vaultPath} is reached through a link now, so it is not put back; nothing was changed.`);
  }
  return absolute;
}

interface FileNow {
  hash: string | null;
  readOnly: boolean;
}

async function fileNow(absolute: string): Promise<FileNow> {
  const opened = await openRegularFile(absolute, MAX_FILE_BYTES);
  if (opened.kind === 'missing') return { hash: null, readOnly: false };
  if (opened.kind !== 'file') return { hash: 'not a plain file', readOnly: false };
  await opened.file.handle.close();
  return { hash: hashContent(opened.file.bytes), readOnly: (Number(opened.file.stats.mode) & 0o222) === 0 };
}

/** The call's writes as a sentence's subject: "update_note of Notes/Plan.md on 2026-12-02 04:10". */
export function describeCall(call: RecordedCall): string {
  const own = ownEntry(call);
  const where = own.action === 'moved' ? `${own.from} → ${own.path}` : own.path;
  return `${own.tool} of ${where} on ${formatLocal(new Date(own.time), 'minute')}`;
}

/**
 * Check, in the order the undo will go (newest write first), that every
 * file is as the call left it; `expected` carries what the undo's earlier
 * steps will have made of a path. Throws the sentence that refuses.
 */
async function checkUndoable(root: string, call: RecordedCall, laterCalls: readonly RecordedCall[]): Promise<void> {
  const expected: Expected = new Map();
  const now = async (vaultPath: string): Promise<FileNow> => {
    if (expected.has(vaultPath)) return { hash: expected.get(vaultPath) ?? null, readOnly: false };
    return fileNow(await safeFile(root, vaultPath));
  };
  const changedSince = (vaultPath: string): string => {
    const later = laterCalls.find((other) => other.entries.some((entry) => entry.path === vaultPath || (entry.action === 'moved' && entry.from === vaultPath)));
    const by = later ? `the assistant's ${describeCall(later)}; undo that first` : 'you or another program; undoing would lose that change';
    return `Cannot undo the assistant's ${describeCall(call)}: ${vaultPath} has been changed since, by ${by}. Nothing was changed.`;
  };
  /** The file at `vaultPath` is what the call wrote there (content `after`). */
  const asLeft = async (vaultPath: string, after: string): Promise<FileNow> => {
    const file = await now(vaultPath);
    if (file.hash === after) return file;
    throw new UndoError(file.hash === null ? `Cannot undo the assistant's ${describeCall(call)}: ${vaultPath} is no longer there (moved or deleted since). Nothing was changed.` : changedSince(vaultPath));
  };
  for (const entry of [...call.entries].reverse()) {
    switch (entry.action) {
      case 'changed':
      case 'created': {
        const file = await asLeft(entry.path, entry.after);
        if (file.readOnly) throw new UndoError(`Cannot undo the assistant's ${describeCall(call)}: ${entry.path} is read-only now; make it writable first. Nothing was changed.`);
        expected.set(entry.path, entry.action === 'changed' ? entry.before : null);
        break;
      }
      case 'moved': {
        await asLeft(entry.path, entry.after);
        if ((await now(entry.from)).hash !== null) throw new UndoError(`Cannot undo the assistant's ${describeCall(call)}: there is a file at ${entry.from} again. Nothing was changed.`);
        expected.set(entry.from, entry.after);
        expected.set(entry.path, null);
        break;
      }
      case 'deleted': {
        if ((await now(entry.path)).hash !== null) throw new UndoError(`Cannot undo the assistant's ${describeCall(call)}: there is a file at ${entry.path} again. Nothing was changed.`);
        expected.set(entry.path, entry.before);
        if (entry.attachment) {
          const there = (await now(entry.attachment.path)).hash;
          if (there !== null && there !== entry.attachment.before) throw new UndoError(`Cannot undo the assistant's ${describeCall(call)}: there is another file at ${entry.attachment.path}, its attachment's place. Nothing was changed.`);
          expected.set(entry.attachment.path, entry.attachment.before);
        }
        break;
      }
    }
  }
}

/** The kept versions an undo of `call` puts back: what its changes replaced and its deletes removed. */
function versionHashes(call: RecordedCall): Set<string> {
  const hashes = new Set<string>();
  for (const entry of call.entries) {
    if (entry.action === 'changed' || entry.action === 'deleted') hashes.add(entry.before);
    if (entry.action === 'deleted' && entry.attachment) hashes.add(entry.attachment.before);
  }
  return hashes;
}

/** The bytes of every version the undo puts back, read before anything is written. */
async function versionsNeeded(log: ActivityLog, call: RecordedCall): Promise<Map<string, Buffer>> {
  const versions = new Map<string, Buffer>();
  for (const hash of versionHashes(call)) {
    const bytes = await log.version(hash);
    if (!bytes) {
      throw new UndoError(
        `Cannot undo the assistant's ${describeCall(call)}: the version it replaced is no longer kept (.dexi/history keeps them ${HISTORY_KEPT}). Nothing was changed.`,
      );
    }
    versions.set(hash, bytes);
  }
  return versions;
}

async function openedAt(absolute: string, vaultPath: string, hash: string): Promise<OpenedFile> {
  const opened = await openRegularFile(absolute, MAX_FILE_BYTES);
  if (opened.kind === 'file' && hashContent(opened.file.bytes) === hash) return opened.file;
  if (opened.kind === 'file') await opened.file.handle.close();
  throw new UndoError(`${vaultPath} changed while it was being put back; run the undo again.`);
}

async function createAt(root: string, absolute: string, bytes: Buffer, mode?: number): Promise<void> {
  await mkdir(path.dirname(absolute), { recursive: true });
  await createFileExclusive(absolute, bytes, await ensureTempDir(root), mode);
}

/**
 * Undo `target`: every write of its call, newest first, each kept in the
 * history and recorded as the undo's own write. Returns the call undone.
 */
export async function undo(log: ActivityLog, target: UndoTarget): Promise<RecordedCall> {
  const entries = await settledEntries(log, { persist: true });
  const call = callToUndo(entries, target);
  if ('problem' in call) throw new UndoError(call.problem);
  const open = openCalls(recordedCalls(entries));
  // callToUndo made its own list: the call is found in this one by its id.
  const laterCalls = open.slice(open.findIndex((other) => other.call === call.call) + 1);
  const root = log.root;
  await checkUndoable(root, call, laterCalls);
  const versions = await versionsNeeded(log, call);
  const journal = log.journal({ tool: 'undo', by: 'command line' }, { undoes: call.call });
  const version = (hash: string): Buffer => versions.get(hash) as Buffer;
  for (const entry of [...call.entries].reverse()) {
    const absolute = await safeFile(root, entry.path);
    try {
      await journal.around(inverse(entry), () => putBack(log, entry, absolute, version), () => true);
    } catch (error) {
      if (error instanceof UndoError || error instanceof HistoryError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      throw new UndoError(`Putting back ${entry.path} failed (${code ?? (error as Error).message}); run "dexi-vault activity" to see what was undone.`);
    }
    if ((entry.action === 'created' || entry.action === 'moved') && entry.madeFolder !== undefined) await removeMadeFolders(root, entry.path, entry.madeFolder);
  }
  return call;
}

/** The write that undoes `entry`, as the undo records it. */
function inverse(entry: ActivityRecord): Write {
  switch (entry.action) {
    case 'changed':
      return { action: 'changed', id: entry.id, path: entry.path, before: entry.after, after: entry.before };
    case 'created':
      return { action: 'deleted', id: entry.id, path: entry.path, before: entry.after };
    case 'moved':
      return { action: 'moved', id: entry.id, from: entry.path, path: entry.from, after: entry.after };
    case 'deleted':
      return { action: 'created', id: entry.id, path: entry.path, after: entry.before };
  }
}

/** Put back what one write of the call changed (checked beforehand by checkUndoable), keeping what it replaces. */
async function putBack(log: ActivityLog, entry: ActivityRecord, absolute: string, version: (hash: string) => Buffer): Promise<void> {
  const root = log.root;
  switch (entry.action) {
    case 'changed': {
      const base = await openedAt(absolute, entry.path, entry.after);
      try {
        await log.keep(base.bytes);
        const result = await replaceGuarded(absolute, version(entry.before), base, { tempDir: await ensureTempDir(root), mode: Number(base.stats.mode) & 0o7777, maxBytes: MAX_FILE_BYTES });
        if (result.outcome !== 'replaced') throw new UndoError(`${entry.path} changed while it was being put back; run "dexi-vault activity" to see where things stand.`);
      } finally {
        await base.handle.close();
      }
      return;
    }
    case 'created': {
      const base = await openedAt(absolute, entry.path, entry.after);
      await base.handle.close();
      await log.keep(base.bytes);
      await unlink(absolute);
      return;
    }
    case 'moved': {
      const from = await safeFile(root, entry.from);
      const base = await openedAt(absolute, entry.path, entry.after);
      await base.handle.close();
      await mkdir(path.dirname(from), { recursive: true });
      // A hard link never replaces a file that appeared at the old place meanwhile; then the new place goes.
      await link(absolute, from);
      await unlink(absolute);
      return;
    }
    case 'deleted': {
      // A record from before modes were kept gives none: the file is then made with the usual mode.
      await createAt(root, absolute, version(entry.before), typeof entry.mode === 'number' ? entry.mode & 0o777 : undefined);
      if (entry.attachment) {
        const attachment = await safeFile(root, entry.attachment.path);
        const there = await lstat(attachment).catch(() => undefined);
        if (!there) await createAt(root, attachment, version(entry.attachment.before));
      }
      return;
    }
  }
}

/**
 * The folders a create or move made for its note, from the note's own up to
 * `made`, removed where the undo left them empty (rmdir removes none that
 * holds anything, the person's files included).
 */
async function removeMadeFolders(root: string, notePath: string, made: string): Promise<void> {
  if (folderPathProblem(made) !== undefined || !notePath.startsWith(`${made}/`)) return;
  for (let folder = path.posix.dirname(notePath); folder === made || folder.startsWith(`${made}/`); folder = path.posix.dirname(folder)) {
    try {
      await rmdir(await safeFile(root, folder));
    } catch {
      return;
    }
  }
}
