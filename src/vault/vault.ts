import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { type Stats } from 'node:fs';
import { lstat, mkdir, realpath, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { createFileExclusive, isSameFile, openRegularFile, replaceGuarded, type FileIdentity, type GuardedOptions, type OpenedFile } from '../files/atomic.js';
import { fileNameForTitle, numberedName } from '../files/filenames.js';
import { parseFrontmatter, setFrontmatterKeys, splitFrontmatter } from '../files/frontmatter.js';
import { folderPathProblem, inLinkedFolder, isWithin, PathOutsideVaultError, resolveInside, samePath } from '../files/paths.js';
import { toReviewFrontmatter, type ReviewState } from '../review/sm2.js';
import type { Clock } from './clock.js';
import {
  ConcurrentEditError,
  DexiError,
  NoteCapError,
  InvalidInputError,
  NoteNotFoundError,
  NoteTooLargeError,
  NothingToUpdateError,
  ReadOnlyNoteError,
} from './errors.js';
import { isIgnoredPath, isNoteFileName, MAX_NOTE_BYTES } from './ignore.js';
import { KeyedLock } from './lock.js';
import { extractTags } from './markdown.js';
import { frontmatterTags, mergeTags } from './tags.js';
import type { NoteRecord, NoteWithBody } from './note.js';
import { derivedId, folderOf, hashContent, parseNoteFile, type FileFacts, type ParsedNote } from './parse.js';
import { ParsePool } from './parse-pool.js';
import { scanVault, type FileStat } from './scan.js';
import { formatIso } from './time.js';

export type Logger = (line: string) => void;

export interface VaultOptions {
  root: string;
  clock: Clock;
  log: Logger;
  /** A teammate's vault: never written, ids derived from paths where missing. */
  readOnly?: boolean;
  /** Names a read-only teammate vault's owner, and namespaces its derived ids. */
  owner?: string;
  /** A first read with at least this many notes to parse parses them on a worker thread (default 1,000). */
  parseWorkerMinNotes?: number;
  /** Test seams; see VaultTestHooks. Never set by the server. */
  hooks?: VaultTestHooks;
}

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

/** A note file read through an open handle; the holder closes `file.handle`. */
interface NoteFile {
  file: OpenedFile;
  content: string;
  /** False when the bytes are not UTF-8 (`content` is then a lossy decoding). */
  valid: boolean;
  size: number;
  mtimeMs: number;
  atimeMs: number;
  birthtimeMs: number;
}

export interface VaultEvents {
  /** A note was added or changed; `body` is its Markdown body, `plain` that body as plain text when it is already made. */
  note: [record: NoteRecord, body: string, plain?: string];
  removed: [record: NoteRecord];
  ready: [];
}

export interface LoadProgress {
  phase: 'starting' | 'scanning' | 'reading' | 'ready';
  done: number;
  total: number;
}

export interface UpdateRequest {
  title?: string;
  text?: string;
  mode: 'replace' | 'append';
  /** Sees the tags the note would have after the edit; throws to refuse it before anything is written. */
  guard?: (tagsAfter: string[]) => void;
}

// The BOM is kept in the text, so that the text is the file's bytes exactly
// (its hash theirs, and a write keeps the BOM); the frontmatter reader allows it.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const LOSSY = new TextDecoder('utf-8', { ignoreBOM: true });
const MAX_WRITE_ATTEMPTS = 8;
const READ_CONCURRENCY = 32;
/**
 * A first read with this many notes to parse uses a parsing worker; below
 * it, starting the worker (0.12–0.15 s to its first answer, measured here)
 * costs more than it saves.
 */
const PARSE_WORKER_MIN_NOTES = 1000;
const MOVE_GRACE_MS = 400;

export class VaultUnavailableError extends Error {}

/**
 * The vault model: which notes exist, where, and what their frontmatter says,
 * kept in memory and in step with the files. Every write goes through here,
 * one writer per file at a time, atomically, re-reading the file first.
 */
export class Vault extends EventEmitter<VaultEvents> {
  private readonly records = new Map<string, NoteRecord>();
  private readonly idByPath = new Map<string, string>();
  private readonly folderSet = new Set<string>();
  private readonly lock = new KeyedLock();
  private loadProgress: LoadProgress = { phase: 'starting', done: 0, total: 0 };
  /**
   * `filesRead`: note files read from disk (a warm start on an unchanged vault
   * reads none). The others count writes of the server that met another
   * program's write: `writesRedone` found the note changed just before the
   * rename and redid the edit, `writesPutBack` found a write into the file it
   * had just replaced and put it back, `conflictCopies` saved a version beside
   * the note because it changed twice at once.
   */
  readonly stats = { filesRead: 0, writesRedone: 0, writesPutBack: 0, conflictCopies: 0 };
  private stopped = false;
  /** Files skipped for their size, with the size that was logged: one log line per file and size. */
  private readonly oversized = new Map<string, number>();
  /**
   * During the first read only: whether each folder is reached through a
   * link, asked once per folder. The scan has just walked these folders
   * without following links; every write checks afresh.
   */
  private linkedFolders: Map<string, Promise<boolean>> | undefined;
  /** During a first read with many notes to parse only. */
  private parsePool: ParsePool | undefined;
  /** The hash of what the server itself last wrote at each path: a file still holding it is not being written by anyone else. */
  private readonly ownWrites = new Map<string, string>();

  private constructor(
    readonly root: string,
    private readonly options: VaultOptions,
  ) {
    super();
  }

  /** Check the folder and resolve its real path; reading the notes is `load`. */
  static async open(options: VaultOptions): Promise<Vault> {
    let real: string;
    try {
      real = await realpath(options.root);
      const info = await stat(real);
      if (!info.isDirectory()) throw new VaultUnavailableError(`The vault ${options.root} is not a folder.`);
    } catch (error) {
      if (error instanceof VaultUnavailableError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'cannot be read (permission denied)' : 'cannot be opened';
      throw new VaultUnavailableError(`The vault ${path.resolve(options.root)} ${why}.`);
    }
    return new Vault(real, options);
  }

  get readOnly(): boolean {
    return this.options.readOnly === true;
  }

  get owner(): string | undefined {
    return this.options.owner;
  }

  get progress(): LoadProgress {
    return { ...this.loadProgress };
  }

  get ready(): boolean {
    return this.loadProgress.phase === 'ready';
  }

  /** Resolves true once the vault has been read, or false after `timeoutMs`. */
  whenReady(timeoutMs: number): Promise<boolean> {
    if (this.ready) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (value: boolean): void => {
        clearTimeout(timer);
        this.off('ready', onReady);
        resolve(value);
      };
      const onReady = (): void => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.once('ready', onReady);
    });
  }

  /** Stop a first read that is still running (the server is shutting down). */
  stopLoading(): void {
    this.stopped = true;
  }

  get size(): number {
    return this.records.size;
  }

  all(): IterableIterator<NoteRecord> {
    return this.records.values();
  }

  get(id: string): NoteRecord | undefined {
    return this.records.get(id);
  }

  atPath(vaultPath: string): NoteRecord | undefined {
    const id = this.idByPath.get(vaultPath);
    return id === undefined ? undefined : this.records.get(id);
  }

  /** Every folder, empty ones too, vault-relative. */
  folders(): string[] {
    return [...this.folderSet].sort();
  }

  /** The canonical spelling of a folder given in any case, if it exists. */
  findFolder(name: string): string | undefined {
    const wanted = name.replace(/^\/+|\/+$/g, '').toLowerCase();
    for (const folder of this.folderSet) if (folder.toLowerCase() === wanted) return folder;
    return undefined;
  }

  /**
   * Read every note. With `previous` (records from the cache), files whose
   * size and modification time are unchanged are not read again, and a file
   * whose content changed while the server was down counts as an outside edit.
   */
  async load(previous: readonly NoteRecord[] = []): Promise<void> {
    this.loadProgress = { phase: 'scanning', done: 0, total: 0 };
    const scan = await scanVault(this.root, this.options.log, (vaultPath, size) => this.logOversize(vaultPath, size));
    for (const folder of scan.folders) this.folderSet.add(folder);
    const before = new Map(previous.map((record) => [record.path, record]));
    this.loadProgress = { phase: 'reading', done: 0, total: scan.files.length };
    this.linkedFolders = new Map();

    const unchanged = (file: FileStat, cached: NoteRecord | undefined): cached is NoteRecord =>
      cached !== undefined && cached.size === file.size && cached.mtimeMs === file.mtimeMs;
    const toParse = scan.files.filter((file) => !unchanged(file, before.get(file.path))).length;
    if (toParse >= (this.options.parseWorkerMinNotes ?? PARSE_WORKER_MIN_NOTES)) this.parsePool = new ParsePool(this.options.log);

    // Notes that carry their id are placed first, so that a copy of a note
    // (same id, second path) is the one that gets a new id, not the original.
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < scan.files.length && !this.stopped) {
        const file = scan.files[next++] as FileStat;
        const cached = before.get(file.path);
        try {
          if (unchanged(file, cached) && !this.records.has(cached.id)) {
            this.place(cached);
          } else {
            await this.lock.run(file.path, () => this.ingest(file.path, cached));
          }
        } catch (error) {
          this.options.log(`Skipping ${file.path}: ${(error as Error).message}`);
        }
        this.loadProgress.done++;
      }
    };
    await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker)).finally(async () => {
      this.linkedFolders = undefined;
      const pool = this.parsePool;
      this.parsePool = undefined;
      await pool?.close();
    });
    if (this.stopped) return;

    const seen = new Set(scan.files.map((file) => file.path));
    for (const record of previous) {
      if (!seen.has(record.path) && this.records.get(record.id)?.path !== record.path) this.emit('removed', record);
    }
    this.loadProgress = { phase: 'ready', done: scan.files.length, total: scan.files.length };
    this.emit('ready');
  }

  private place(record: NoteRecord): void {
    const old = this.records.get(record.id);
    if (old && old.path !== record.path) this.idByPath.delete(old.path);
    this.records.set(record.id, record);
    this.idByPath.set(record.path, record.id);
    let folder = record.folder;
    while (folder !== null) {
      this.folderSet.add(folder);
      folder = folderOf(folder);
    }
  }

  private unplace(record: NoteRecord): void {
    if (this.records.get(record.id)?.path === record.path) this.records.delete(record.id);
    if (this.idByPath.get(record.path) === record.id) this.idByPath.delete(record.path);
  }

  private absolute(vaultPath: string): string {
    return path.join(this.root, ...vaultPath.split('/'));
  }

  private logOversize(vaultPath: string, size: number): void {
    if (this.oversized.get(vaultPath) === size) return;
    this.oversized.set(vaultPath, size);
    this.options.log(`Skipping ${vaultPath}: ${size} bytes is over the 4 MiB note limit.`);
  }

  /**
   * Open a note file and read it through the open handle, or undefined when
   * there is no note there: missing, a symbolic link (never followed, read or
   * written), inside a folder reached through a link, not a regular file, or
   * over the size limit. The caller must close `file.handle`.
   */
  private async openNote(vaultPath: string): Promise<NoteFile | undefined> {
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
      // Plain (not bigint) times, exactly as the scan reports them, so the cache's comparison holds.
      const info = await file.handle.stat();
      let content: string;
      let valid = true;
      try {
        content = UTF8.decode(file.bytes);
      } catch {
        content = LOSSY.decode(file.bytes);
        valid = false;
      }
      return { file, content, valid, size: file.bytes.length, mtimeMs: info.mtimeMs, atimeMs: info.atimeMs, birthtimeMs: info.birthtimeMs };
    } catch (error) {
      await file.handle.close();
      throw error;
    }
  }

  private inLinkedFolder(absolute: string, fresh = false): Promise<boolean> {
    const memo = fresh ? undefined : this.linkedFolders;
    if (!memo) return inLinkedFolder(this.root, absolute);
    const dir = path.dirname(absolute);
    let answer = memo.get(dir);
    if (!answer) memo.set(dir, (answer = inLinkedFolder(this.root, absolute)));
    return answer;
  }

  /** Whether a note file is there (see openNote for what counts). */
  private async exists(vaultPath: string): Promise<boolean> {
    const note = await this.openNote(vaultPath);
    await note?.file.handle.close();
    return note !== undefined;
  }

  private assertFits(content: string): void {
    const bytes = Buffer.byteLength(content);
    if (bytes > MAX_NOTE_BYTES) throw new NoteTooLargeError(bytes, MAX_NOTE_BYTES);
  }

  /**
   * Replace a note that was read as `base` with `next`, unless it changed
   * since (see replaceGuarded). When another program wrote into the old file
   * just as it was replaced, its text is put back and the caller is told the
   * note changed, so that it redoes its edit on that text: neither change is
   * lost. Should the note have changed yet again meanwhile, the other
   * version is saved beside it as a conflict copy.
   */
  private async replaceNote(vaultPath: string, base: NoteFile, next: string, times?: { atime: Date; mtime: Date }): Promise<Stats | 'changed'> {
    // Security: the temporary file and the rename go where the folder really is; never through a link.
    if (vaultPath.includes('/') && (await this.inLinkedFolder(this.absolute(vaultPath), true))) return 'changed';
    const result = await replaceGuarded(this.absolute(vaultPath), next, base.file, this.guardedOptions(vaultPath, base.file, times));
    if (result.outcome === 'changed') this.stats.writesRedone++;
    if (result.outcome === 'changed') return 'changed';
    if (result.outcome === 'replaced') {
      this.ownWrites.set(vaultPath, hashContent(next));
      return result.stats;
    }
    this.stats.writesPutBack++;
    this.options.log(`${vaultPath} was written by another program just as the server replaced it; its text is put back and the edit redone on it.`);
    return (await this.putBack(vaultPath, Buffer.from(next), result.written, result.bytes)) === 'changed' ? 'changed' : result.stats;
  }

  private guardedOptions(vaultPath: string, file: OpenedFile, times?: { atime: Date; mtime: Date }): GuardedOptions {
    // The note's permissions stay as they were: a private note stays private.
    const options: GuardedOptions = {
      maxBytes: MAX_NOTE_BYTES,
      mode: Number(file.stats.mode & 0o777n),
      mayBeBusy: this.ownWrites.get(vaultPath) !== hashContent(file.bytes),
    };
    if (times) options.times = times;
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
      const current = await this.openNote(vaultPath);
      try {
        if (!current?.file.bytes.equals(ours)) {
          await this.saveConflictCopy(vaultPath, theirs);
          return current && isSameFile(current.file.stats, written) ? 'replaced' : 'changed';
        }
        const result = await replaceGuarded(this.absolute(vaultPath), theirs, current.file, this.guardedOptions(vaultPath, current.file));
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

  private async saveConflictCopy(vaultPath: string, bytes: Buffer): Promise<void> {
    const dir = path.dirname(this.absolute(vaultPath));
    const name = path.basename(vaultPath).replace(/\.md$/i, '');
    const stamp = formatIso(this.options.clock.now()).slice(0, 19).replace('T', ' ').replace(/:/g, '');
    for (let attempt = 1; attempt < 100; attempt++) {
      const copy = path.join(dir, `${numberedName(`${name} (conflict ${stamp})`, attempt)}.md`);
      try {
        await createFileExclusive(copy, bytes);
        this.stats.conflictCopies++;
        this.options.log(`${vaultPath} changed twice while the server wrote it; one version is saved as ${path.basename(copy)}.`);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }

  /**
   * Read one file and bring the model in step with it: a new note, a changed
   * one, a moved one (same id, new path), or a copy (same id as a note that
   * still exists elsewhere, which then gets an id of its own). Must run under
   * the file's lock.
   */
  private async ingest(vaultPath: string, cached?: NoteRecord, depth = 0): Promise<NoteRecord | undefined> {
    const file = await this.openNote(vaultPath);
    const atPath = this.atPath(vaultPath);
    if (!file) {
      if (atPath) {
        this.unplace(atPath);
        this.emit('removed', atPath);
      }
      return undefined;
    }
    let result: NoteRecord | 'again';
    try {
      result = await this.ingestFile(vaultPath, file, atPath, cached);
    } finally {
      await file.file.handle.close();
    }
    if (result !== 'again') return result;
    // The file changed while its id was being written: read it again, a bounded number of times.
    if (depth >= MAX_WRITE_ATTEMPTS) throw new ConcurrentEditError();
    return this.ingest(vaultPath, cached, depth + 1);
  }

  private async ingestFile(vaultPath: string, file: NoteFile, atPath: NoteRecord | undefined, cached: NoteRecord | undefined): Promise<NoteRecord | 'again'> {
    const hash = hashContent(file.file.bytes);
    const known = atPath ?? cached;
    if (known && known.hash === hash) {
      const same: NoteRecord = { ...known, path: vaultPath, folder: folderOf(vaultPath), size: file.size, mtimeMs: file.mtimeMs };
      this.place(same);
      if (!atPath) this.emit('note', same, this.bodyOf(file.content, same));
      return same;
    }

    // Content changed since the server last saw it: an outside edit, unless
    // this is the first time the server meets the file.
    const outsideEditMs = known ? file.mtimeMs : undefined;
    const facts: FileFacts = { path: vaultPath, content: file.content, size: file.size, mtimeMs: file.mtimeMs, birthtimeMs: file.birthtimeMs };
    if (outsideEditMs !== undefined) facts.outsideEditMs = outsideEditMs;
    let plain: string | undefined;
    let parsed: ParsedNote;
    if (this.parsePool) ({ parsed, plain } = await this.parsePool.parse(facts));
    else parsed = parseNoteFile(facts);
    if (!file.valid) {
      parsed.record.broken = true;
      // Not UTF-8: the text is a lossy decoding, so the hash must be of the bytes themselves.
      parsed.record.hash = hash;
    }

    let id = parsed.id;
    const holder = id === undefined ? undefined : this.records.get(id);
    const isCopy = holder !== undefined && holder.path !== vaultPath && (await this.exists(holder.path));
    if (id === undefined || isCopy) {
      if (this.readOnly || parsed.record.broken) {
        id = derivedId(this.options.owner ?? '', vaultPath);
      } else {
        // A known note whose id went missing (its frontmatter deleted, or the
        // file caught half-written by a program that truncates and rewrites
        // it) keeps its id rather than becoming another note.
        const keep = id === undefined && known !== undefined && [undefined, vaultPath].includes(this.records.get(known.id)?.path) ? known.id : undefined;
        const stamped = await this.stampId(vaultPath, file, parsed, keep);
        if (!stamped) return 'again';
        // Only frontmatter lines were written; the plain text stays good if the body did not move.
        if (stamped.parsed.body !== parsed.body) plain = undefined;
        parsed = stamped.parsed;
        id = stamped.id;
      }
    }
    const record: NoteRecord = { ...parsed.record, id, hash: parsed.record.hash };
    if (atPath && atPath.id !== id) {
      this.unplace(atPath);
      this.emit('removed', atPath);
    }
    this.place(record);
    this.emit('note', record, parsed.body, plain);
    return record;
  }

  private bodyOf(content: string, record: NoteRecord): string {
    return record.broken ? content : splitFrontmatter(content).body;
  }

  /**
   * Write an id (and `created`, when missing) into a file's frontmatter,
   * changing no other byte and keeping its modification time, so that its
   * `updated` does not move. Returns undefined if the file changed meanwhile.
   */
  private async stampId(
    vaultPath: string,
    file: NoteFile,
    parsed: ParsedNote,
    keepId?: string,
  ): Promise<{ id: string; parsed: ParsedNote } | undefined> {
    const id = keepId ?? randomUUID();
    const updates: Record<string, unknown> = { id };
    if (parsed.data.created === undefined) updates.created = formatIso(new Date(parsed.record.createdMs));
    const next = setFrontmatterKeys(file.content, updates);
    // A note just under the size limit that the stamp would push over it
    // keeps a derived id instead: stamped, it would be skipped, and vanish.
    if (Buffer.byteLength(next) > MAX_NOTE_BYTES) return { id: derivedId('', vaultPath), parsed };
    const times = { atime: new Date(file.atimeMs), mtime: new Date(file.mtimeMs) };
    const after = await this.replaceNote(vaultPath, file, next, times);
    if (after === 'changed') return undefined;
    const reparsed = parseNoteFile({
      path: vaultPath,
      content: next,
      size: Buffer.byteLength(next),
      mtimeMs: after.mtimeMs,
      birthtimeMs: file.birthtimeMs,
      outsideEditMs: parsed.record.outsideEditMs,
    });
    return { id, parsed: reparsed };
  }

  /**
   * Bring the model in step with the disk after a period nobody watched
   * (the first read runs before the watcher starts, so that the two do not
   * compete): files whose size or modification time differ are read again,
   * new ones added, vanished ones dropped.
   */
  async reconcile(): Promise<void> {
    const scan = await scanVault(this.root, this.options.log, (vaultPath, size) => this.logOversize(vaultPath, size));
    this.folderSet.clear();
    for (const folder of scan.folders) this.folderSet.add(folder);
    const seen = new Set<string>();
    for (const file of scan.files) {
      seen.add(file.path);
      const known = this.atPath(file.path);
      if (!known || known.size !== file.size || known.mtimeMs !== file.mtimeMs) await this.refresh(file.path);
    }
    for (const record of [...this.records.values()]) if (!seen.has(record.path)) await this.forget(record.path);
  }

  /** The watcher saw this file added or changed. */
  async refresh(vaultPath: string): Promise<void> {
    if (isIgnoredPath(vaultPath) || !isNoteFileName(vaultPath.slice(vaultPath.lastIndexOf('/') + 1))) return;
    await this.lock.run(vaultPath, () => this.ingest(vaultPath));
  }

  /** The watcher saw this file disappear; it is dropped only if it is really gone. */
  async forget(vaultPath: string): Promise<void> {
    await this.lock.run(vaultPath, async () => {
      const record = this.atPath(vaultPath);
      if (!record) return;
      if (await this.exists(vaultPath)) return;
      this.unplace(record);
      this.emit('removed', record);
    });
  }

  folderAdded(folder: string): void {
    if (!isIgnoredPath(folder)) this.folderSet.add(folder);
  }

  /** The watcher saw a folder disappear: it and everything below it go. */
  folderRemoved(folder: string): void {
    const prefix = `${folder}/`;
    for (const name of [...this.folderSet]) if (name === folder || name.startsWith(prefix)) this.folderSet.delete(name);
  }

  /** Read a note's current body from disk, bringing the model in step if the file changed. */
  async read(id: string): Promise<NoteWithBody> {
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const record = this.records.get(id);
      if (!record) throw new NoteNotFoundError();
      const file = await this.openNote(record.path);
      await file?.file.handle.close();
      if (file && hashContent(file.file.bytes) === record.hash) return { record, body: this.bodyOf(file.content, record) };
      if (!file) await this.awaitMove(id, record.path);
      // The file changed, moved or went since the model last saw it: catch up first.
      if (this.records.get(id)?.path === record.path) await this.lock.run(record.path, () => this.ingest(record.path));
    }
    throw new ConcurrentEditError();
  }

  private assertWritable(record: NoteRecord): void {
    if (this.readOnly) throw new ReadOnlyNoteError("This is a teammate's shared note; it can be read but not changed.");
    if (record.broken) {
      throw new ReadOnlyNoteError(
        `The server leaves ${record.path} alone because its frontmatter is not valid YAML (or the file is not UTF-8); fix it in an editor first.`,
      );
    }
  }

  /**
   * Run an edit of one note under its file's lock: read the file, compute the
   * new content, and replace the file only if nobody changed it meanwhile;
   * otherwise redo the edit on the new content, so that neither change is lost.
   */
  private async edit(
    id: string,
    change: (content: string, record: NoteRecord) => string | undefined,
    movesUpdated: boolean,
  ): Promise<NoteWithBody> {
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const record = this.records.get(id);
      if (!record) throw new NoteNotFoundError();
      this.assertWritable(record);
      const result = await this.lock.run(record.path, async (): Promise<NoteWithBody | 'retry' | 'missing'> => {
        const file = await this.openNote(record.path);
        if (!file) return 'missing';
        let current: NoteRecord | undefined;
        let next: string | undefined;
        let info: Stats;
        try {
          if (this.records.get(id)?.path !== record.path) return 'retry';
          const hash = hashContent(file.file.bytes);
          current = hash === record.hash ? record : await this.ingest(record.path);
          if (!current || current.id !== id) return 'retry';
          this.assertWritable(current);
          next = change(file.content, current);
          if (next === undefined) return { record: current, body: this.bodyOf(file.content, current) };
          this.assertFits(next);
          // The file was read through `file`; it is replaced only if that is still what the path holds, unchanged.
          const written = await this.replaceNote(record.path, file, next);
          if (written === 'changed') return 'retry';
          // The new file's own stats: the path may already have been moved on by another program.
          info = written;
        } finally {
          await file.file.handle.close();
        }
        const parsed = parseNoteFile({
          path: record.path,
          content: next,
          size: info.size,
          mtimeMs: info.mtimeMs,
          birthtimeMs: info.birthtimeMs,
          // A server edit sets `updated` itself, so an earlier outside edit no longer decides it.
          outsideEditMs: movesUpdated ? undefined : current.outsideEditMs,
        });
        const updated: NoteRecord = { ...parsed.record, id };
        this.place(updated);
        this.emit('note', updated, parsed.body);
        return { record: updated, body: parsed.body };
      });
      if (result === 'missing') {
        await this.awaitMove(id, record.path);
        // Still at a path with no file: it was deleted, and the model learns so now.
        if (this.records.get(id)?.path === record.path) await this.lock.run(record.path, () => this.ingest(record.path));
        continue;
      }
      if (result !== 'retry') return result;
    }
    throw new ConcurrentEditError();
  }

  /**
   * A note's file is gone from where the model last saw it. If it was moved,
   * the watcher will report the new place within moments: wait for that
   * briefly rather than call a moved note deleted.
   */
  private async awaitMove(id: string, oldPath: string): Promise<void> {
    for (let waited = 0; waited < MOVE_GRACE_MS; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (this.records.get(id)?.path !== oldPath) return;
    }
  }

  async update(id: string, request: UpdateRequest): Promise<NoteWithBody> {
    if (request.mode === 'replace' && request.title === undefined && request.text === undefined) {
      throw new NothingToUpdateError();
    }
    const now = formatIso(this.options.clock.now());
    return this.edit(id, (content) => {
      const split = splitFrontmatter(content);
      let body = split.body;
      if (request.text !== undefined) {
        if (request.mode === 'replace') body = request.text;
        else if (body === '' || /\n$/.test(body)) body = body + request.text;
        else body = `${body}${split.eol}${request.text}`;
      }
      if (request.guard) {
        const data = parseFrontmatter(split.yaml);
        request.guard(mergeTags(data.ok ? frontmatterTags(data.data.tags) : [], extractTags(body)));
      }
      const updates: Record<string, unknown> = { updated: now };
      if (request.title !== undefined) updates.title = request.title;
      return setFrontmatterKeys(content.slice(0, split.bodyStart) + body, updates);
    }, true);
  }

  /**
   * Write a card's review state. Grading is not an edit, so `updated` must not
   * move: where it comes from the file's modification time (no `updated` key),
   * the current value is written down before the write changes that time.
   */
  async writeReview(id: string, review: ReviewState): Promise<NoteRecord> {
    const result = await this.edit(
      id,
      (content, record) => {
        const updates: Record<string, unknown> = { review: toReviewFrontmatter(review) };
        const data = parseFrontmatter(splitFrontmatter(content).yaml);
        if (data.ok && data.data.updated === undefined) updates.updated = formatIso(new Date(record.updatedMs));
        return setFrontmatterKeys(content, updates);
      },
      false,
    );
    return result.record;
  }

  /** Create a note in `folder` (vault-relative, created if needed) or at the root. */
  async create(request: { title: string; text: string; folder?: string | null; noteCap?: number | null }): Promise<NoteWithBody> {
    if (this.readOnly) throw new ReadOnlyNoteError("A teammate's shared vault cannot be written.");
    // Creates are serialised so that two at once cannot both slip under the note cap.
    return this.lock.run('\0create', async () => {
      if (request.noteCap !== undefined && request.noteCap !== null && this.records.size >= request.noteCap) {
        throw new NoteCapError(request.noteCap);
      }
      const folder = request.folder ?? null;
      const realDir = folder === null ? this.root : await this.folderForCreate(folder);

      const name = fileNameForTitle(request.title);
      const now = formatIso(this.options.clock.now());
      for (let attempt = 1; attempt < 10_000; attempt++) {
        const base = numberedName(name.base, attempt);
        const vaultPath = folder === null ? `${base}.md` : `${folder}/${base}.md`;
        // Case-insensitive file systems (macOS, Windows) would see these as one file.
        if (this.pathTakenIgnoringCase(vaultPath)) continue;
        const frontmatter: Record<string, unknown> = { id: randomUUID() };
        // The title goes into the frontmatter only where the file name cannot hold it.
        if (request.title !== '' && base !== request.title) frontmatter.title = request.title;
        frontmatter.created = now;
        frontmatter.updated = now;
        // A fresh block, so that text which itself begins with `---` stays body.
        const content = setFrontmatterKeys('', frontmatter) + request.text;
        this.assertFits(content);
        try {
          await createFileExclusive(path.join(realDir, `${base}.md`), content);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
          throw error;
        }
        let record: NoteRecord | undefined = await this.lock.run(vaultPath, () => this.ingest(vaultPath));
        if (record === undefined || record.id !== frontmatter.id) {
          // Another program moved or removed the new file at once (the watcher
          // will report where it went). It was created: say so, with what was written.
          const nowMs = this.options.clock.now().getTime();
          const parsed = parseNoteFile({ path: vaultPath, content, size: Buffer.byteLength(content), mtimeMs: nowMs, birthtimeMs: nowMs });
          record = { ...parsed.record, id: frontmatter.id as string };
        }
        return { record, body: request.text };
      }
      throw new DexiError('Could not find a free file name for this title; choose another title.');
    });
  }

  /**
   * The real path of a folder to create a note in, made if missing. Security:
   * the folder must be a plain path inside the vault with no symbolic link
   * anywhere along it (links are never followed, so a note written through
   * one would be invisible at best and outside the vault at worst).
   */
  private async folderForCreate(folder: string): Promise<string> {
    const problem = folderPathProblem(folder);
    if (problem) throw new InvalidInputError(`Cannot create a note in the folder "${folder}": ${problem}.`);
    const linked = new InvalidInputError(`Cannot create a note in the folder "${folder}": it is reached through a symbolic link, and the server does not follow links.`);
    let dirAbs: string;
    try {
      dirAbs = await resolveInside(this.root, folder);
    } catch (error) {
      if (error instanceof PathOutsideVaultError) throw linked;
      throw error;
    }
    const lexical = this.absolute(folder);
    // Before creating anything: an existing part of the path that is a link is refused.
    if (!samePath(dirAbs, lexical)) throw linked;
    await mkdir(dirAbs, { recursive: true });
    // And after: a link that raced in while the folders were made.
    const realDir = await realpath(dirAbs);
    if (!isWithin(this.root, realDir) || (await inLinkedFolder(this.root, path.join(dirAbs, 'x.md')))) throw linked;
    return dirAbs;
  }

  /** Case- and normalisation-insensitive, as macOS and Windows file systems (and sync between them) compare names. */
  private pathTakenIgnoringCase(vaultPath: string): boolean {
    const key = (name: string): string => name.normalize('NFC').toLowerCase();
    const wanted = key(vaultPath);
    for (const taken of this.idByPath.keys()) if (key(taken) === wanted) return true;
    return false;
  }

  /**
   * Delete a note's file and its attachment, if the attachment is a file
   * inside the vault. A note moved meanwhile is followed to its new place.
   */
  async delete(id: string): Promise<NoteRecord> {
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const record = this.records.get(id);
      if (!record) throw new NoteNotFoundError();
      if (this.readOnly) throw new ReadOnlyNoteError("This is a teammate's shared note; it can be read but not deleted.");
      const result = await this.lock.run(record.path, async (): Promise<NoteRecord | 'retry' | 'missing'> => {
        const current = this.records.get(id);
        if (!current) throw new NoteNotFoundError();
        if (current.path !== record.path) return 'retry';
        const abs = this.absolute(current.path);
        // Security: never unlink through a linked folder (that would delete a file outside the vault), nor a link itself.
        const info = await lstat(abs).catch(() => undefined);
        if (!info?.isFile() || (await inLinkedFolder(this.root, abs))) return 'missing';
        try {
          await unlink(abs);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
          return 'missing';
        }
        if (current.attachment) await this.deleteAttachment(current);
        this.unplace(current);
        this.emit('removed', current);
        return current;
      });
      if (result === 'retry') continue;
      if (result !== 'missing') return result;
      await this.awaitMove(id, record.path);
      if (this.records.get(id)?.path !== record.path) continue;
      // Gone already (deleted by another program): what was asked for is done.
      return this.lock.run(record.path, async () => {
        const current = this.records.get(id);
        if (current?.path === record.path) {
          this.unplace(current);
          this.emit('removed', current);
        }
        return record;
      });
    }
    throw new ConcurrentEditError();
  }

  private async deleteAttachment(record: NoteRecord): Promise<void> {
    const attachment = record.attachment as string;
    try {
      const abs = await resolveInside(this.root, attachment);
      const info = await lstat(abs);
      // Another note is never deleted as an attachment, nor is anything that is not a plain file.
      if (!info.isFile() || isNoteFileName(path.basename(abs))) return;
      await unlink(abs);
    } catch (error) {
      this.options.log(`Kept attachment ${attachment} of ${record.path}: ${(error as Error).message}`);
    }
  }
}
