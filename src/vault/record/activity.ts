import { randomBytes, randomUUID } from 'node:crypto';
import { appendFile, readdir, readFile, stat, unlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import { createFileExclusive } from '../../storage/atomic.js';
import { dexiDir, ensureIgnoredDir, ensureTempDir } from '../../storage/dexi-dir.js';
import type { Clock } from '../clock.js';
import { DexiError } from '../errors.js';
import { hashContent } from '../parse.js';
import { ERROR, type Logger } from '../logger.js';

/**
 * The record of what the server wrote for the assistant, and the versions
 * those writes replaced, so that the person can see every change and take
 * any of them back (`dexi-vault activity`, `dexi-vault undo`).
 *
 * - `.dexi/activity.jsonl`: one JSON line per file written (time, tool,
 *   connection, note id and path, content hashes), never note text;
 *   git-ignored by `.dexi/.gitignore`, as it is this machine's record.
 * - `.dexi/history/<hash>`: the bytes a write replaced or removed, named by
 *   their git blob id (hashContent), so a version kept twice is stored once.
 *   Kept before the write is made, so that a crash between the two cannot
 *   lose the person's version. Git-ignored by its own `.gitignore`: these are
 *   copies of notes, and committing them would put old text back into the repo.
 *
 * Each write is recorded ahead of itself: its line, with `pending` (an id)
 * and the writing process's `pid`, is appended before the file is touched,
 * and a short line `{"settles": id, "done": …}` after. A kill in between
 * leaves a pending line; the next start settles it from the disk
 * (activity-settle.ts), so no change the server made is ever off the record.
 */

/**
 * One write of one file, as recorded. Hashes are hashContent of the whole file.
 * `late`: text another program wrote late into the file this call had
 * replaced or removed, taken in; the entry stands for the call's earlier one
 * of the same path (its `before` is that program's full version).
 */
export type Write =
  /** `madeFolder`: the first of the note's folders that the write made, for an undo to remove once empty. */
  | { action: 'created'; id: string; path: string; after: string; madeFolder?: string }
  | { action: 'changed'; id: string; path: string; before: string; after: string; late?: true }
  | { action: 'moved'; id: string; from: string; path: string; after: string; madeFolder?: string }
  /** `mode`: the deleted file's permission bits, which an undo gives the file it makes again (a `0600` note comes back `0600`). */
  | { action: 'deleted'; id: string; path: string; before: string; attachment?: { path: string; before: string }; late?: true; mode?: number };

export interface ActivityEntry {
  time: string;
  /** One id per tool call (or undo): the writes of one call are undone together. */
  call: string;
  /** The tool, or "undo". */
  tool: string;
  /** The connection: "stdio", or "token NAME" over HTTP; "command line" for an undo. */
  by: string;
  /** Set on the writes a call made to other notes than its own: the links rewritten after a move. */
  because?: 'links';
  /** On an undo's writes: the call it undid. */
  undoes?: string;
  /** Recorded ahead of the write: the id its settling line names, and the writer's process id. */
  pending?: string;
  pid?: number;
}

export type ActivityRecord = ActivityEntry & Write;

/** Who asks for a call's writes. */
export interface Caller {
  tool: string;
  by: string;
}

/**
 * What a Vault write is given to record itself: `keep` the bytes it is
 * about to replace or remove (before touching the file; it throws, and the
 * write is then not made, when they cannot be kept), then `record` the write.
 */
export interface WriteJournal {
  keep(bytes: Buffer): Promise<string>;
  /**
   * Record `write` ahead of it (a pending line; it throws, and nothing is
   * written, when that line cannot be added), run `make`, then settle the
   * line: done when `made(result)`, not done otherwise or when `make` throws.
   */
  around<T>(write: Write, make: () => Promise<T>, made: (result: T) => boolean): Promise<T>;
  /** Record a write that changes no file of its own (late text taken into a delete's kept version). */
  record(write: Write): Promise<void>;
  /** The same call's journal for the writes it makes in other notes. */
  forLinks(): WriteJournal;
}

/** Whether an entry takes in late text (see Write's `late`). */
export function isLate(entry: ActivityRecord): boolean {
  return 'late' in entry && entry.late === true;
}

/** `journal.around` when there is a journal; `make` alone when writes are not recorded. */
export function recorded<T>(journal: WriteJournal | undefined, write: Write | undefined, make: () => Promise<T>, made: (result: T) => boolean): Promise<T> {
  return journal && write ? journal.around(write, make, made) : make();
}

/** A line that settles a pending entry. */
interface Settling {
  time: string;
  settles: string;
  done: boolean;
}

/** How long, and how much, of the replaced versions is kept. */
export const HISTORY_LIMITS = {
  /** Versions older than this are removed. */
  maxAgeMs: 30 * 24 * 60 * 60 * 1000,
  /** Past this total, the oldest versions are removed first. */
  maxBytes: 256 * 1024 * 1024,
  /** Pruned at start and after every this many versions kept. */
  pruneEvery: 50,
} as const;

/** HISTORY_LIMITS in words, for the sentences that name them. */
export const HISTORY_KEPT = `${HISTORY_LIMITS.maxAgeMs / 86_400_000} days, ${HISTORY_LIMITS.maxBytes / 2 ** 20} MB at most`;

/** The mode of a kept version, in a folder of PRIVATE_DIR_MODE. */
const HISTORY_FILE_MODE = 0o600;

/** A kept version's file name: its git blob id. */
const VERSION_NAME = /^[0-9a-f]{40}$/;

export class HistoryError extends DexiError {}

const LOG_GITIGNORE = [
  "# Written by dexi-vault: the record of what the assistant changed is this machine's own.",
  '.gitignore',
  'activity.jsonl',
  '',
].join('\n');

export function activityFile(vaultRoot: string): string {
  return path.join(dexiDir(vaultRoot), 'activity.jsonl');
}

export function historyDir(vaultRoot: string): string {
  return path.join(dexiDir(vaultRoot), 'history');
}

/** The path of a kept version; hashes are hex, so nothing else can be named. */
export function historyPath(vaultRoot: string, hash: string): string {
  if (!VERSION_NAME.test(hash)) throw new HistoryError(`"${hash}" is not the name of a kept version.`);
  return path.join(historyDir(vaultRoot), hash);
}

/**
 * Parse activity.jsonl's text; lines that are not entries (a torn last line,
 * a hand edit) are skipped. A pending entry settled as done becomes a plain
 * entry and one settled as not done is left out (a settling line saying done
 * wins over one saying not: another process may have judged a write still
 * under way); one not settled keeps its `pending` id. Pure.
 */
export function parseActivity(text: string): ActivityRecord[] {
  const entries: ActivityRecord[] = [];
  const settled = new Map<string, boolean>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (isRecord(value)) entries.push(value);
    else if (isSettling(value)) settled.set(value.settles, settled.get(value.settles) === true || value.done);
  }
  const kept: ActivityRecord[] = [];
  for (const entry of entries) {
    if (entry.pending === undefined) kept.push(entry);
    else if (!settled.has(entry.pending)) kept.push(entry);
    else if (settled.get(entry.pending) === true) {
      const { pending: _pending, pid: _pid, ...plain } = entry;
      kept.push(plain as ActivityRecord);
    }
  }
  return kept;
}

function isSettling(value: unknown): value is Settling {
  if (typeof value !== 'object' || value === null) return false;
  const line = value as Record<string, unknown>;
  return typeof line.settles === 'string' && typeof line.done === 'boolean';
}

const ACTIONS = new Set(['created', 'changed', 'moved', 'deleted']);

function isRecord(value: unknown): value is ActivityRecord {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.time === 'string' &&
    typeof entry.call === 'string' &&
    typeof entry.tool === 'string' &&
    typeof entry.by === 'string' &&
    typeof entry.id === 'string' &&
    typeof entry.path === 'string' &&
    typeof entry.action === 'string' &&
    ACTIONS.has(entry.action)
  );
}

/**
 * The activity log and history of one vault. Appends are serialised within
 * the process; between processes (a server and `dexi-vault undo`) each line
 * is one small O_APPEND write, which the file system keeps whole.
 */
export class ActivityLog {
  private appending: Promise<void> = Promise.resolve();
  /**
   * `.dexi/`, with a `.gitignore` for the record: it names versions kept in
   * this machine's history, so on another machine (or in a merge of two
   * machines' appends) it would be wrong. A `.gitignore` the person has
   * there already is theirs, and left as it is.
   */
  private readonly logFolder = onceUntilFailed(() => ensureIgnoredDir(dexiDir(this.root), LOG_GITIGNORE));
  private readonly historyFolder = onceUntilFailed(() => ensureIgnoredDir(historyDir(this.root), '*\n', { private: true }));
  private keptSincePrune = 0;
  private pruning: Promise<number> | undefined;

  constructor(
    readonly root: string,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** The journal of one call: its writes share a call id. */
  journal(caller: Caller, extra: { undoes?: string } = {}): WriteJournal {
    const call = randomUUID();
    const make = (because: 'links' | undefined): WriteJournal => {
      const entry = (write: Write): ActivityRecord => ({ time: this.clock.now().toISOString(), call, tool: caller.tool, by: caller.by, ...(because ? { because } : {}), ...extra, ...write });
      return {
        keep: (bytes) => this.keep(bytes),
        around: (write, run, made) => this.around(entry(write), run, made),
        record: (write) => this.append(entry(write)),
        forLinks: () => make('links'),
      };
    };
    return make(undefined);
  }

  /** See WriteJournal.around. */
  private async around<T>(entry: ActivityRecord, make: () => Promise<T>, made: (result: T) => boolean): Promise<T> {
    const pending = randomBytes(8).toString('hex');
    await this.append({ ...entry, pending, pid: process.pid }, { ahead: true });
    let done = false;
    try {
      const result = await make();
      done = made(result);
      return result;
    } finally {
      await this.append({ time: this.clock.now().toISOString(), settles: pending, done });
    }
  }

  /** Settle a pending entry another process left (activity-settle.ts). */
  settle(pending: string, done: boolean): Promise<void> {
    return this.append({ time: this.clock.now().toISOString(), settles: pending, done });
  }

  /**
   * Keep `bytes` in the history and return their hash. A version already
   * kept is only touched, so that it counts as recent.
   */
  async keep(bytes: Buffer): Promise<string> {
    const hash = hashContent(bytes);
    const target = historyPath(this.root, hash);
    try {
      await this.historyFolder();
      try {
        // Security: owner-only, never more readable than the note it copies (a version kept once may be two notes').
        await createFileExclusive(target, bytes, await ensureTempDir(this.root), HISTORY_FILE_MODE);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const now = this.clock.now();
        await utimes(target, now, now);
      }
    } catch (error) {
      throw new HistoryError(
        `The version this would replace could not be kept in .dexi/history (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}), so nothing was changed; check that the vault's .dexi folder can be written.`,
      );
    }
    if (++this.keptSincePrune >= HISTORY_LIMITS.pruneEvery) {
      this.keptSincePrune = 0;
      void this.prune();
    }
    return hash;
  }

  /**
   * The names (content hashes) of the versions .dexi/history holds, from its
   * listing alone: what `dexi-vault status` counts undos by, reading nothing else.
   */
  async keptVersions(): Promise<Set<string>> {
    const names = await readdir(historyDir(this.root)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    return new Set(names.filter((name) => VERSION_NAME.test(name)));
  }

  /** The bytes of a kept version, or undefined when it is no longer kept. */
  async version(hash: string): Promise<Buffer | undefined> {
    try {
      const bytes = await readFile(historyPath(this.root, hash));
      // A kept version is named by its content: one that does not match it is not that version.
      return hashContent(bytes) === hash ? bytes : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Append one line. A line written `ahead` of its write must be there
   * before the write is made: failing to add it throws (and the write is not
   * made). Any other line that cannot be added is logged: its write is made
   * and its version kept, and a pending line is settled at the next start.
   */
  private append(entry: ActivityRecord | Settling, options: { ahead?: boolean } = {}): Promise<void> {
    const line = `${JSON.stringify(entry)}\n`;
    const next = this.appending.then(async () => {
      try {
        await this.logFolder();
        await appendFile(activityFile(this.root), line);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (options.ahead) throw new HistoryError(`The change could not be recorded in .dexi/activity.jsonl (${code ?? (error as Error).message}), so nothing was changed; check that the vault's .dexi folder can be written.`);
        this.log(`Could not add to .dexi/activity.jsonl: ${(error as Error).message}`, ERROR);
      }
    });
    this.appending = next.catch(() => undefined);
    return next;
  }

  /** Every entry on record, oldest first. */
  async entries(): Promise<ActivityRecord[]> {
    await this.appending;
    try {
      return parseActivity(await readFile(activityFile(this.root), 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new HistoryError(`.dexi/activity.jsonl cannot be read: ${(error as Error).message}`);
    }
  }

  /**
   * Remove the kept versions older than HISTORY_LIMITS.maxAgeMs, then the
   * oldest until the rest fit in maxBytes. Returns how many were removed;
   * a prune asked for while one runs is that one.
   */
  prune(): Promise<number> {
    this.pruning ??= pruneHistory(historyDir(this.root), this.clock.now().getTime())
      .catch((error: unknown) => {
        this.log(`Could not prune .dexi/history: ${(error as Error).message}`, ERROR);
        return 0;
      })
      .finally(() => {
        this.pruning = undefined;
      });
    return this.pruning;
  }
}

/** `make`, run once and its promise kept; run again on the next call if it failed (the folder may be fixable). */
function onceUntilFailed(make: () => Promise<unknown>): () => Promise<void> {
  let made: Promise<void> | undefined;
  return () => {
    made ??= make().then(
      () => undefined,
      (error: unknown) => {
        made = undefined;
        throw error;
      },
    );
    return made;
  };
}

/** Which kept versions to remove, given each one's size and last use. Pure. */
export function versionsToRemove(versions: readonly { name: string; size: number; mtimeMs: number }[], nowMs: number, limits: { maxAgeMs: number; maxBytes: number } = HISTORY_LIMITS): string[] {
  const newestFirst = [...versions].sort((a, b) => b.mtimeMs - a.mtimeMs || (a.name < b.name ? -1 : 1));
  const remove: string[] = [];
  let total = 0;
  for (const version of newestFirst) {
    total += version.size;
    if (nowMs - version.mtimeMs > limits.maxAgeMs || total > limits.maxBytes) remove.push(version.name);
  }
  return remove;
}

async function pruneHistory(dir: string, nowMs: number): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  const versions: { name: string; size: number; mtimeMs: number }[] = [];
  for (const name of names) {
    if (!VERSION_NAME.test(name)) continue;
    const info = await stat(path.join(dir, name)).catch(() => undefined);
    if (info?.isFile()) versions.push({ name, size: info.size, mtimeMs: info.mtimeMs });
  }
  const remove = versionsToRemove(versions, nowMs);
  for (const name of remove) await unlink(path.join(dir, name)).catch(() => undefined);
  return remove.length;
}
