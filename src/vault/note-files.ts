import { fstatSync, lstatSync, unlinkSync, type BigIntStats, type Stats } from 'node:fs';
import { lstat, rename } from 'node:fs/promises';
import path from 'node:path';
import {
  createFileExclusive,
  isSameFile,
  openRegularFile,
  readWhole,
  replaceGuarded,
  type FileIdentity,
  type GuardedOptions,
} from '../storage/atomic.js';
import { ensureTempDir } from '../storage/dexi-dir.js';
import { numberedName } from '../storage/filenames.js';
import { inLinkedFolder } from '../storage/paths.js';
import type { Clock } from './clock.js';
import { DexiError, NoteBusyError, ReadOnlyNoteError } from './errors.js';
import { MAX_NOTE_BYTES } from './ignore.js';
import { CompleteShapes, followOldFile, HALF_WRITTEN_QUIET_MS, MAX_BUSY_WAIT_MS, whenComplete, type LateWrite } from './late-writes.js';
import { readNoteFile, type NoteFile } from './note-file-read.js';
import { hashContent } from './parse.js';
import { formatIso } from '../format/time.js';
import { WARNING, type Logger } from './logger.js';

export type { LateWrite } from './late-writes.js';

/**
 * Test seam, kept to one function: called at two points of every guarded
 * write of a note, so that a test can put another program's write exactly
 * where a careless server would lose it. `before-check`: the new content is
 * in its temporary file, the checks and the rename are next. `after-rename`:
 * the new content is in place, the old file has not been looked at again yet.
 */
export interface VaultTestHooks {
  duringWrite?: (phase: 'before-check' | 'after-rename', vaultPath: string) => Promise<void>;
}

/**
 * A note another program changed less than this long ago may still be being
 * written (a script that truncates, writes half, pauses and writes the rest):
 * the server waits until it has been quiet this long before replacing it
 * (HALF_WRITTEN_QUIET_MS while it looks half-written, see late-writes.ts).
 */
export const QUIET_MS = 300;
/** A note another program wrote less than this long ago is watched after the server replaces or removes it (see watchDisplaced). */
const RECENT_WRITE_MS = 5000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The note files themselves: opened without following links, replaced only
 * when unchanged and quiet, late writes into a replaced file brought back,
 * conflict copies beside a note. Knows nothing of what a note means.
 */
export class NoteFiles {
  /**
   * `filesRead`: note files read from disk (a warm start on an unchanged vault
   * reads none). The others count writes of the server that met another
   * program's write: `writesRedone` found the note changed just before the
   * rename and redid the edit, `writesPutBack` found a write into the file it
   * had just replaced and put it back, `writesRecovered` found such a write
   * moments later and redid the edit on it, `conflictCopies` saved a version
   * beside the note because it changed twice at once.
   */
  readonly stats = { filesRead: 0, writesRedone: 0, writesPutBack: 0, writesRecovered: 0, conflictCopies: 0 };
  /** Files skipped for their size, with the size that was logged: one log line per file and size. */
  private readonly oversized = new Map<string, number>();
  /**
   * During the first read only: whether each folder is reached through a
   * link, asked once per folder. The scan has just walked these folders
   * without following links; every write checks afresh.
   */
  private linkedFolders: Map<string, Promise<boolean>> | undefined;
  /** The hash of what the server itself last wrote at each path: a file still holding it is not being written by anyone else. */
  private readonly ownWrites = new Map<string, string>();
  /** The last complete version of each note changed while the server runs (not during the first read: the catalog's size stands in). */
  private readonly shapes = new CompleteShapes();
  /** Old files being watched for late writes after a replace (see watchDisplaced). */
  private readonly tails = new Set<Promise<void>>();
  private closing = false;

  constructor(
    readonly root: string,
    private readonly options: { clock: Clock; log: Logger; hooks?: VaultTestHooks | undefined },
  ) {}

  absolute(vaultPath: string): string {
    return path.join(this.root, ...vaultPath.split('/'));
  }

  /** Remember, for the first read, which folders are reached through links. */
  beginFirstRead(): void {
    this.linkedFolders = new Map();
  }

  endFirstRead(): void {
    this.linkedFolders = undefined;
  }

  logOversize(vaultPath: string, size: number): void {
    if (this.oversized.get(vaultPath) === size) return;
    this.oversized.set(vaultPath, size);
    this.options.log(`Skipping ${vaultPath}: ${size} bytes is over the 4 MiB note limit.`, WARNING);
  }

  /**
   * Open a note file and read it through the open handle, or undefined when
   * there is no note there: missing, a symbolic link (never followed, read or
   * written), inside a folder reached through a link, not a regular file, or
   * over the size limit. The caller must close `file.handle`. `known`: the
   * note as the catalog has it, the last complete version when none is
   * remembered.
   */
  async open(vaultPath: string, known?: { size: number }): Promise<NoteFile | undefined> {
    const abs = this.absolute(vaultPath);
    // Security: a folder of the vault replaced by a link to elsewhere must not
    // let its old notes be read or written through it.
    if (vaultPath.includes('/') && (await this.inLinkedFolder(abs))) return undefined;
    const opened = await openRegularFile(abs, MAX_NOTE_BYTES);
    if (opened.kind === 'too-large') this.logOversize(vaultPath, opened.size);
    if (opened.kind !== 'file') return undefined;
    const { file } = opened;
    this.stats.filesRead++;
    try {
      const note = readNoteFile(file);
      this.judgeShape(vaultPath, note, known);
      return note;
    } catch (error) {
      await file.handle.close();
      throw error;
    }
  }

  /**
   * Whether `note`, just read, looks like a half-written version of the last
   * complete one (marked on it). Not during the first read, which would
   * remember every note of the vault.
   */
  private judgeShape(vaultPath: string, note: NoteFile, known: { size: number } | undefined): void {
    if (this.linkedFolders !== undefined) return;
    const own = this.isOwnWrite(vaultPath, note.hash);
    const why = this.shapes.judge(vaultPath, { bytes: note.file.bytes, content: note.content, ctimeMs: note.ctimeMs, own }, known);
    if (why !== undefined) note.halfWritten = why;
  }

  /**
   * open, once the file has been quiet for QUIET_MS (HALF_WRITTEN_QUIET_MS
   * while it looks half-written): a file another program changed moments ago
   * may still be being written, and building on it now would either tear the
   * note (the half written so far, edited, replacing it) or send the rest of
   * that program's text into a file no longer in the vault. Its change time
   * is used, which no program can set back. `known` as for open.
   */
  async openQuiet(vaultPath: string, known?: { size: number }): Promise<NoteFile | undefined> {
    const deadline = Date.now() + MAX_BUSY_WAIT_MS;
    for (;;) {
      const file = await this.open(vaultPath, known);
      if (!file) return undefined;
      const quietFor = Date.now() - file.ctimeMs;
      const needed = file.halfWritten === undefined ? QUIET_MS : HALF_WRITTEN_QUIET_MS;
      // A change time far in the future is a clock problem, not a writer.
      const quiet = quietFor >= needed || quietFor < -60_000 || this.isOwnWrite(vaultPath, file.hash);
      if (quiet) return file;
      await file.file.handle.close();
      if (Date.now() >= deadline) {
        if (file.halfWritten !== undefined) this.options.log(`${vaultPath} looks half-written by another program (${file.halfWritten}); the edit was refused rather than built on it.`, WARNING);
        throw new NoteBusyError();
      }
      await sleep(Math.max(10, Math.min(needed - quietFor, 100, deadline - Date.now())));
    }
  }

  /** Whether this read of a file may have been written by another program moments ago. */
  recentlyWrittenByOthers(vaultPath: string, file: NoteFile): boolean {
    return !this.isOwnWrite(vaultPath, file.hash) && Date.now() - file.ctimeMs < RECENT_WRITE_MS;
  }

  /** The file holds exactly what this server last wrote there (content `hash`): nobody else is writing it. */
  isOwnWrite(vaultPath: string, hash: string): boolean {
    return this.ownWrites.get(vaultPath) === hash;
  }

  private inLinkedFolder(absolute: string, fresh = false): Promise<boolean> {
    const memo = fresh ? undefined : this.linkedFolders;
    if (!memo) return inLinkedFolder(this.root, absolute);
    const dir = path.dirname(absolute);
    let answer = memo.get(dir);
    if (!answer) memo.set(dir, (answer = inLinkedFolder(this.root, absolute)));
    return answer;
  }

  /** Whether a real folder (not a link to one) is at `vaultPath`. */
  async isFolder(vaultPath: string): Promise<boolean> {
    const info = await lstat(this.absolute(vaultPath)).catch(() => undefined);
    return info?.isDirectory() === true;
  }

  /** Whether a note file is there (see open for what counts). */
  async exists(vaultPath: string): Promise<boolean> {
    const note = await this.open(vaultPath);
    await note?.file.handle.close();
    return note !== undefined;
  }

  /**
   * Replace a note that was read as `base` with `next`, unless it changed
   * since (see replaceGuarded). When another program wrote into the old file
   * just as it was replaced, its text is put back and the caller is told the
   * note changed, so that it redoes its edit on that text: neither change is
   * lost. Should the note have changed yet again meanwhile, the other
   * version is saved beside it as a conflict copy.
   */
  async replace(vaultPath: string, base: NoteFile, next: string | Buffer): Promise<Stats | 'changed'> {
    // Security: the temporary file and the rename go where the folder really is; never through a link.
    if (vaultPath.includes('/') && (await this.inLinkedFolder(this.absolute(vaultPath), true))) return 'changed';
    const options = await this.guardedOptions(vaultPath, base);
    const result = await replaceGuarded(this.absolute(vaultPath), next, base.file, options).catch((error: unknown) => {
      throw writeError(vaultPath, error);
    });
    if (result.outcome === 'changed') this.stats.writesRedone++;
    if (result.outcome === 'changed') return 'changed';
    if (result.outcome === 'replaced') {
      this.ownWrites.set(vaultPath, hashContent(next));
      this.shapes.written(vaultPath, typeof next === 'string' ? Buffer.from(next) : next);
      return result.stats;
    }
    this.stats.writesPutBack++;
    this.options.log(`${vaultPath} was written by another program just as the server replaced it; its text is put back and the edit redone on it.`);
    const ours = typeof next === 'string' ? Buffer.from(next) : next;
    const theirs = await whenComplete(base.file, result.bytes);
    return (await this.putBack(vaultPath, ours, result.written, theirs)) === 'changed' ? 'changed' : result.stats;
  }

  private async guardedOptions(vaultPath: string, base: NoteFile): Promise<GuardedOptions> {
    // The note's permissions stay as they were: a private note stays private.
    const options: GuardedOptions = {
      maxBytes: MAX_NOTE_BYTES,
      mode: Number(base.file.stats.mode & 0o777n),
      mayBeBusy: !this.isOwnWrite(vaultPath, base.hash),
      tempDir: await ensureTempDir(this.root),
    };
    const hook = this.options.hooks?.duringWrite;
    if (hook) {
      options.beforeCheck = () => hook('before-check', vaultPath);
      options.afterRename = () => hook('after-rename', vaultPath);
    }
    return options;
  }

  /**
   * Put `theirs` back where the server's `ours` (the file `written`) now is,
   * and say whether the edit must be redone ('changed') or stands
   * ('replaced'). When the path no longer holds exactly `ours`, `theirs` is
   * saved beside the note as a conflict copy instead, and the edit is redone
   * only if the path holds another file than the one written (a program
   * saved over it); if it is the written file, changed in place, the edit is
   * in it already and is not applied twice.
   */
  private async putBack(vaultPath: string, ours: Buffer, written: FileIdentity, theirs: Buffer): Promise<'replaced' | 'changed'> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const current = await this.open(vaultPath);
      try {
        if (!current?.file.bytes.equals(ours)) {
          await this.saveConflictCopy(vaultPath, theirs);
          return current && isSameFile(current.file.stats, written) ? 'replaced' : 'changed';
        }
        const result = await replaceGuarded(this.absolute(vaultPath), theirs, current.file, await this.guardedOptions(vaultPath, current));
        if (result.outcome === 'changed') continue;
        // A write into `ours` as it was replaced in turn: that version goes beside the note.
        if (result.outcome === 'displaced') await this.saveConflictCopy(vaultPath, result.bytes);
        return 'changed';
      } finally {
        await current?.file.handle.close();
      }
    }
    await this.saveConflictCopy(vaultPath, theirs);
    return 'replaced';
  }

  /**
   * Move the note file `base` (read at `fromPath`, the caller holding both
   * paths' locks) to `toPath`, never over a file there: 'taken' when one is,
   * 'changed' when the file is no longer the one read. Neither path may be
   * reached through a link. Returns the moved file's stats.
   */
  async move(fromPath: string, toPath: string, base: NoteFile): Promise<Stats | 'taken' | 'changed'> {
    const from = this.absolute(fromPath);
    const to = this.absolute(toPath);
    if ((await this.inLinkedFolder(from, true)) || (await this.inLinkedFolder(to, true))) return 'changed';
    const there = await lstat(to).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw writeError(toPath, error);
    });
    // On a case-insensitive file system the note's own file answers for its name in another case (a rename of the case alone).
    if (there && !(there.ino === Number(base.file.stats.ino) && fromPath.toLowerCase() === toPath.toLowerCase())) return 'taken';
    const now = await lstat(from).catch(() => undefined);
    if (!now?.isFile() || now.ino !== Number(base.file.stats.ino) || now.mtimeMs !== base.mtimeMs || now.size !== base.size) return 'changed';
    try {
      await rename(from, to);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'changed';
      throw writeError(toPath, error);
    }
    this.ownWrites.delete(fromPath);
    this.ownWrites.set(toPath, base.hash);
    this.shapes.moved(fromPath, toPath);
    return lstat(to);
  }

  /** Create a file that must not exist yet, through a temporary file under `.dexi/`. */
  async createExclusive(absolute: string, content: string | Buffer, mode?: number): Promise<void> {
    await createFileExclusive(absolute, content, await ensureTempDir(this.root), mode);
  }

  /**
   * Keep `bytes` beside the note as a conflict copy. Security: the copy has
   * the note's permission bits (`mode`, else those of the file at the path
   * now), so a `0600` note's text is not left readable by others beside it.
   */
  async saveConflictCopy(vaultPath: string, bytes: Buffer, mode?: number): Promise<void> {
    const dir = path.dirname(this.absolute(vaultPath));
    const copyMode = mode ?? (await lstat(this.absolute(vaultPath)).then((stats) => (stats.isFile() ? stats.mode : undefined), () => undefined));
    const name = path.basename(vaultPath).replace(/\.md$/i, '');
    const stamp = formatIso(this.options.clock.now()).slice(0, 19).replace('T', ' ').replace(/:/g, '');
    for (let attempt = 1; attempt < 100; attempt++) {
      const copy = path.join(dir, `${numberedName(`${name} (conflict ${stamp})`, attempt)}.md`);
      try {
        await this.createExclusive(copy, bytes, copyMode === undefined ? undefined : copyMode & 0o666);
        this.stats.conflictCopies++;
        this.options.log(`${vaultPath} changed twice while the server wrote it; one version is saved as ${path.basename(copy)}.`, WARNING);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }

  /**
   * Remove a note file that was read as `base`, unless it changed since: the
   * same checks as replaceGuarded (content read again through the handle;
   * the path still that file, its size and times unchanged, checked back to
   * back with the unlink). 'missing' when no file is there (or it is reached
   * through a link). The caller keeps `base` open, to watch it for late writes.
   */
  async remove(vaultPath: string, base: NoteFile): Promise<'removed' | 'changed' | 'missing'> {
    const abs = this.absolute(vaultPath);
    if (vaultPath.includes('/') && (await this.inLinkedFolder(abs, true))) return 'missing';
    const before = await base.file.handle.stat({ bigint: true });
    const now = await readWhole(base.file.handle, base.file.bytes.length, MAX_NOTE_BYTES);
    if (now === 'too-large' || !now.equals(base.file.bytes)) return 'changed';
    // Security: from here to the unlink, no await: nothing else of this process runs in between.
    let atPath: BigIntStats;
    try {
      atPath = lstatSync(abs, { bigint: true });
    } catch {
      return 'missing';
    }
    const held = fstatSync(base.file.handle.fd, { bigint: true });
    if (!atPath.isFile() || !isSameFile(atPath, base.file.stats)) return 'changed';
    if (held.size !== before.size || held.mtimeNs !== before.mtimeNs || held.ctimeNs !== before.ctimeNs) return 'changed';
    try {
      unlinkSync(abs);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      throw writeError(vaultPath, error);
    }
    this.ownWrites.delete(vaultPath);
    this.shapes.forget(vaultPath);
    return 'removed';
  }

  /**
   * After replacing or removing a note that another program wrote moments
   * before, keep the old file open and watch it (followOldFile): what that
   * program still writes into it is brought back by `late`. The caller hands
   * over `base` and must not close it.
   */
  watchDisplaced(vaultPath: string, base: NoteFile, late: LateWrite): void {
    const tail = followOldFile(base.file, late, () => this.closing)
      .catch((error: unknown) => this.options.log(`Watching the replaced version of ${vaultPath}: ${(error as Error).message}`))
      .finally(() => base.file.handle.close().catch(() => undefined));
    this.tails.add(tail);
    void tail.finally(() => this.tails.delete(tail));
  }

  /** Count a late write brought back by redoing the edit on it. */
  recovered(vaultPath: string): void {
    this.stats.writesRecovered++;
    this.options.log(`${vaultPath} was still being written by another program after the server replaced it; the edit is redone on its text.`);
  }

  /** Resolves once every replaced file being watched for late writes has been brought back or let go. */
  async writesSettled(): Promise<void> {
    while (this.tails.size > 0) await Promise.all([...this.tails]);
  }

  /** Finish every watch at once, with one last look, so that text still arriving is brought back before the process ends. */
  async close(): Promise<void> {
    this.closing = true;
    await this.writesSettled();
  }
}

/** A file system's refusal, as a sentence for the person; anything else as it is. */
function writeError(vaultPath: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new ReadOnlyNoteError(`The file system does not allow writing ${vaultPath} (${code === 'EROFS' ? 'it is mounted read-only' : 'permission denied'}); nothing was changed.`);
  }
  if (code === 'EXDEV') {
    return new DexiError(`${vaultPath} is on another file system than the vault's .dexi folder, so it cannot be replaced atomically; nothing was changed.`);
  }
  return error;
}
