import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { type BigIntStats, type Stats } from 'node:fs';
import { lstat, mkdir, realpath, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import {
  createFileExclusive,
  isSameFile,
  openRegularFile,
  readWhole,
  removeLeftoverTemps,
  replaceGuarded,
  type FileIdentity,
  type GuardedOptions,
  type OpenedFile,
} from '../files/atomic.js';
import { cacheDir, ensureCacheDir, ensureTempDir, tempDir } from '../files/dexi-dir.js';
import { fileNameForTitle, numberedName } from '../files/filenames.js';
import { setFrontmatterKeys, splitFrontmatter } from '../files/frontmatter.js';
import { folderPathProblem, inLinkedFolder, isWithin, PathOutsideVaultError, resolveInside, samePath } from '../files/paths.js';
import type { Clock } from './clock.js';
import { noteDates } from './dates.js';
import { editedContent } from './edits.js';
import {
  ConcurrentEditError,
  DexiError,
  NoteBusyError,
  NoteCapError,
  InvalidInputError,
  NoteNotFoundError,
  NoteTooLargeError,
  NothingToUpdateError,
  ReadOnlyNoteError,
} from './errors.js';
import { readGitHistory, type GitHistory } from './git-history.js';
import { challengerKeepsId, pathId } from './identity.js';
import { isIgnoredPath, isNoteFileName, MAX_NOTE_BYTES } from './ignore.js';
import { KeyedLock } from './lock.js';
import { extractTags } from './markdown.js';
import { frontmatterTags, mergeTags } from './tags.js';
import type { NoteRecord, NoteWithBody } from './note.js';
import { folderOf, hashContent, parseNoteFile, type FileFacts, type ParsedNote } from './parse.js';
import { ParsePool } from './parse-pool.js';
import { scanVault, type FileStat } from './scan.js';
import { formatIso } from './time.js';

export type Logger = (line: string) => void;

export interface VaultOptions {
  root: string;
  clock: Clock;
  log: Logger;
  /** A teammate's vault: never written. */
  readOnly?: boolean;
  /** Names a read-only teammate vault's owner, and namespaces its path ids. */
  owner?: string;
  /** A first read with at least this many notes to parse parses them on a worker thread (default 1,000). */
  parseWorkerMinNotes?: number;
  /**
   * Dates from git history where the vault is in a git work tree (default
   * true), cached in `gitCacheDir` (default the vault's `.dexi/cache/`).
   */
  git?: boolean;
  gitCacheDir?: string;
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
  ctimeMs: number;
  ino: number;
  birthtimeMs: number;
}

export interface VaultEvents {
  /** A note was added or changed; `body` is its Markdown body, `plain` its search text (toSearchText) when it is already made. */
  note: [record: NoteRecord, body: string, plain?: string];
  removed: [record: NoteRecord];
  /** Dates of notes changed without their files changing (git history arrived or moved on). */
  dates: [];
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

/** How an edit turns a note's current content into its new content; undefined: nothing to write. */
type Change = (content: string, record: NoteRecord) => string | undefined;

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
/**
 * A note another program changed less than this long ago may still be being
 * written (a script that truncates, writes half, pauses and writes the rest):
 * the server waits until it has been quiet this long before replacing it,
 * and gives up after MAX_BUSY_WAIT_MS with a plain "being written" error.
 */
const QUIET_MS = 300;
const MAX_BUSY_WAIT_MS = 3000;
/**
 * After replacing a note that another program wrote less than this long ago,
 * the old file is watched for a while (TAIL_MS after its last change, at most
 * TAIL_MAX_MS): a program still holding it open writes into a file that is no
 * longer in the vault, and that text is brought back.
 */
const RECENT_WRITE_MS = 5000;
const TAIL_POLL_MS = 50;
const TAIL_MS = 2000;
const TAIL_MAX_MS = 30_000;
/** How long a vanished note's id waits for its content to turn up at another path (a move the watcher reports as unlink + add). */
const MOVE_MEMORY_MS = 30_000;
/** How long the first read waits for dates from the git history before it calls the vault ready without them. */
const GIT_READY_WAIT_MS = 5000;
/** How often a git work tree is asked whether HEAD moved (a commit, a pull), so that dates follow. */
const GIT_RECHECK_MS = 30_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class VaultUnavailableError extends Error {}

/**
 * The vault model: which notes exist, where, and what their frontmatter says,
 * kept in memory and in step with the files. It writes a file only when a
 * tool asks it to change that note: one writer per file at a time,
 * atomically, re-reading the file first and never while another program is
 * writing it.
 */
export class Vault extends EventEmitter<VaultEvents> {
  private readonly records = new Map<string, NoteRecord>();
  private readonly idByPath = new Map<string, string>();
  /** One id per content hash: finds the note a new path was moved from. */
  private readonly idByHash = new Map<string, string>();
  /** Notes whose file went, by content hash, oldest first: a new path with the same content is the same note, moved. */
  private readonly recentlyGone = new Map<string, { id: string; at: number }>();
  private readonly folderSet = new Set<string>();
  private readonly lock = new KeyedLock();
  private loadProgress: LoadProgress = { phase: 'starting', done: 0, total: 0 };
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
  private stopped = false;
  private closing = false;
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
  /**
   * During the first read only: paths whose frontmatter id was placed without
   * the cache vouching for it. Two files claiming one id are settled by
   * identity.ts's rule, which needs to know who held the id before.
   */
  private provisional: Set<string> | undefined;
  /** Paths to read again once the first read is done (they lost an id to another file). */
  private readonly reingestLater: string[] = [];
  /** The hash of what the server itself last wrote at each path: a file still holding it is not being written by anyone else. */
  private readonly ownWrites = new Map<string, string>();
  /** Old files being watched for late writes after a replace (see watchDisplaced). */
  private readonly tails = new Set<Promise<void>>();
  private git: GitHistory | undefined;
  private gitTimer: NodeJS.Timeout | undefined;
  private gitReading: Promise<void> | undefined;

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

  /**
   * Shut down: stop asking git, and finish watching replaced files at once,
   * so that text still arriving in one is brought back before the process ends.
   */
  async close(): Promise<void> {
    this.stopped = true;
    this.closing = true;
    clearInterval(this.gitTimer);
    await this.gitReading?.catch(() => undefined);
    await this.writesSettled();
  }

  /** Resolves once every replaced file being watched for late writes has been brought back or let go (tests, shutdown). */
  async writesSettled(): Promise<void> {
    while (this.tails.size > 0) await Promise.all([...this.tails]);
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

  /** Whether the git history has been read (or there is none to read). */
  get gitSettled(): Promise<void> {
    return this.gitReading ?? Promise.resolve();
  }

  /**
   * Read every note. With `previous` (records from the cache), files whose
   * size, times and inode are unchanged are not read again; a note whose path
   * vanished and whose content turns up at a new path keeps its id. Reading
   * writes nothing into the vault.
   */
  async load(previous: readonly NoteRecord[] = []): Promise<void> {
    this.loadProgress = { phase: 'scanning', done: 0, total: 0 };
    if (this.options.git !== false) this.startGit();
    const scan = await scanVault(this.root, this.options.log, (vaultPath, size) => this.logOversize(vaultPath, size));
    if (!this.readOnly) await this.removeLeftovers(scan.leftovers);
    for (const folder of scan.folders) this.folderSet.add(folder);
    const before = new Map(previous.map((record) => [record.path, record]));
    const present = new Set(scan.files.map((file) => file.path));
    for (const record of previous) if (!present.has(record.path)) this.rememberGone(record);
    this.loadProgress = { phase: 'reading', done: 0, total: scan.files.length };
    this.linkedFolders = new Map();
    this.provisional = new Set();

    const toParse = scan.files.filter((file) => !unchangedFile(file, before.get(file.path))).length;
    if (toParse >= (this.options.parseWorkerMinNotes ?? PARSE_WORKER_MIN_NOTES)) this.parsePool = new ParsePool(this.options.log);

    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < scan.files.length && !this.stopped) {
        const file = scan.files[next++] as FileStat;
        const cached = before.get(file.path);
        try {
          if (unchangedFile(file, cached) && !this.records.has(cached.id)) {
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
    for (const vaultPath of this.reingestLater.splice(0)) {
      if (this.stopped) break;
      await this.lock.run(vaultPath, () => this.ingest(vaultPath)).catch((error: Error) => this.options.log(`Skipping ${vaultPath}: ${error.message}`));
    }
    this.provisional = undefined;
    // Dates from git are part of a first answer (a fresh clone's notes were not all made today), so the
    // first read waits for them a little; a history that takes longer fills them in when it is done.
    if (this.gitReading) await Promise.race([this.gitReading, sleep(GIT_READY_WAIT_MS)]);
    if (this.stopped) return;

    for (const record of previous) {
      if (!present.has(record.path) && this.records.get(record.id)?.path !== record.path) this.emit('removed', record);
    }
    this.loadProgress = { phase: 'ready', done: scan.files.length, total: scan.files.length };
    this.emit('ready');
  }

  /** Temporary files of writes that never finished (a crash, a SIGKILL): nobody will rename them now. */
  private async removeLeftovers(oldStyle: readonly string[]): Promise<void> {
    const removed = await removeLeftoverTemps(tempDir(this.root));
    let beside = 0;
    for (const vaultPath of oldStyle) {
      const abs = this.absolute(vaultPath);
      // A minute old at least: an older server on this vault could be writing it right now.
      const info = await lstat(abs).catch(() => undefined);
      if (info?.isFile() && Date.now() - info.mtimeMs > 60_000 && (await unlink(abs).then(() => true, () => false))) beside++;
    }
    if (removed + beside > 0) this.options.log(`Removed ${removed + beside} temporary files left by writes that never finished.`);
  }

  private place(record: NoteRecord): void {
    const dated = this.dated(record);
    const old = this.records.get(dated.id);
    if (old && old.path !== dated.path) this.idByPath.delete(old.path);
    if (old && old.hash !== dated.hash && this.idByHash.get(old.hash) === old.id) this.idByHash.delete(old.hash);
    this.records.set(dated.id, dated);
    this.idByPath.set(dated.path, dated.id);
    if (dated.size > 0) this.idByHash.set(dated.hash, dated.id);
    if (this.provisional && old === undefined) this.provisional.delete(dated.path);
    let folder = dated.folder;
    while (folder !== null) {
      this.folderSet.add(folder);
      folder = folderOf(folder);
    }
  }

  private unplace(record: NoteRecord): void {
    if (this.records.get(record.id)?.path === record.path) this.records.delete(record.id);
    if (this.idByPath.get(record.path) === record.id) this.idByPath.delete(record.path);
    if (this.idByHash.get(record.hash) === record.id) this.idByHash.delete(record.hash);
  }

  /** Remember a vanished note by its content, for a while, so that its content turning up elsewhere counts as a move. */
  private rememberGone(record: NoteRecord): void {
    if (record.size === 0) return; // every empty note looks alike
    const now = Date.now();
    this.recentlyGone.delete(record.hash);
    this.recentlyGone.set(record.hash, { id: record.id, at: now });
    for (const [hash, gone] of this.recentlyGone) {
      if (now - gone.at < MOVE_MEMORY_MS) break;
      this.recentlyGone.delete(hash);
    }
  }

  /** The record with `created` and `updated` decided from everything known now, git history included. */
  private dated(record: NoteRecord): NoteRecord {
    const git = this.git;
    if (!git) return record;
    const committed = git.files.get(record.path.normalize('NFC'));
    const { createdMs, updatedMs } = noteDates({
      statedCreatedMs: record.statedCreatedMs,
      statedUpdatedMs: record.statedUpdatedMs,
      gitFirstAddedMs: committed?.firstAddedMs,
      gitLastCommitMs: committed !== undefined && committed.blob === record.hash ? committed.lastCommitMs : undefined,
      birthtimeMs: record.birthtimeMs,
      mtimeMs: record.mtimeMs,
    });
    return createdMs === record.createdMs && updatedMs === record.updatedMs ? record : { ...record, createdMs, updatedMs };
  }

  /** Read the git history in the background, and again whenever HEAD moves. */
  private startGit(): void {
    if (this.gitReading) return;
    void this.refreshGit();
    this.gitTimer = setInterval(() => void this.refreshGit(), GIT_RECHECK_MS);
    this.gitTimer.unref();
  }

  /** Ask git whether HEAD moved (a commit, a pull, a checkout) and take the new dates if it did. */
  refreshGit(): Promise<void> {
    const previous = this.gitReading ?? Promise.resolve();
    this.gitReading = previous.then(() => this.readGit());
    return this.gitReading;
  }

  private async readGit(): Promise<void> {
    if (this.closing) return;
    try {
      // The cache folder ignores itself in git before anything is cached in it.
      if (this.options.gitCacheDir === undefined) await ensureCacheDir(this.root);
      const history = await readGitHistory(this.root, {
        cacheDir: this.options.gitCacheDir ?? cacheDir(this.root),
        log: this.options.log,
        knownHead: this.git?.head,
      });
      if (history === 'unchanged') return;
      if (history === undefined) {
        // Not a work tree, no git, or a history git cannot read: file times it is, until the next start.
        if (this.git === undefined) clearInterval(this.gitTimer);
        return;
      }
      this.git = history;
      let changed = 0;
      for (const record of [...this.records.values()]) {
        const dated = this.dated(record);
        if (dated === record) continue;
        this.records.set(dated.id, dated);
        changed++;
      }
      if (changed > 0) this.emit('dates');
    } catch (error) {
      this.options.log(`Could not read the git history for dates: ${(error as Error).message}`);
    }
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
      return {
        file,
        content,
        valid,
        size: file.bytes.length,
        mtimeMs: info.mtimeMs,
        ctimeMs: info.ctimeMs,
        ino: info.ino,
        birthtimeMs: info.birthtimeMs,
      };
    } catch (error) {
      await file.handle.close();
      throw error;
    }
  }

  /**
   * openNote, once the file has been quiet for QUIET_MS: a file another
   * program changed moments ago may still be being written, and replacing it
   * now would send the rest of that program's text into a file no longer in
   * the vault. Its change time is used, which no program can set back.
   */
  private async openQuiet(vaultPath: string): Promise<NoteFile | undefined> {
    const deadline = Date.now() + MAX_BUSY_WAIT_MS;
    for (;;) {
      const file = await this.openNote(vaultPath);
      if (!file) return undefined;
      const quietFor = Date.now() - file.ctimeMs;
      // A change time far in the future is a clock problem, not a writer.
      const quiet = quietFor >= QUIET_MS || quietFor < -60_000 || this.isOwnWrite(vaultPath, file);
      if (quiet) return file;
      await file.file.handle.close();
      if (Date.now() >= deadline) throw new NoteBusyError();
      await sleep(Math.max(10, Math.min(QUIET_MS - quietFor, deadline - Date.now())));
    }
  }

  /** The file holds exactly what this server last wrote there: nobody else is writing it. */
  private isOwnWrite(vaultPath: string, file: NoteFile): boolean {
    return this.ownWrites.get(vaultPath) === hashContent(file.file.bytes);
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
  private async replaceNote(vaultPath: string, base: NoteFile | OpenedFile, next: string | Buffer): Promise<Stats | 'changed'> {
    const opened = 'file' in base ? base.file : base;
    // Security: the temporary file and the rename go where the folder really is; never through a link.
    if (vaultPath.includes('/') && (await this.inLinkedFolder(this.absolute(vaultPath), true))) return 'changed';
    const options = await this.guardedOptions(vaultPath, opened);
    const result = await replaceGuarded(this.absolute(vaultPath), next, opened, options).catch((error: unknown) => {
      throw this.writeError(vaultPath, error);
    });
    if (result.outcome === 'changed') this.stats.writesRedone++;
    if (result.outcome === 'changed') return 'changed';
    if (result.outcome === 'replaced') {
      this.ownWrites.set(vaultPath, hashContent(next));
      return result.stats;
    }
    this.stats.writesPutBack++;
    this.options.log(`${vaultPath} was written by another program just as the server replaced it; its text is put back and the edit redone on it.`);
    const ours = typeof next === 'string' ? Buffer.from(next) : next;
    return (await this.putBack(vaultPath, ours, result.written, result.bytes)) === 'changed' ? 'changed' : result.stats;
  }

  /** A file system's refusal, as a sentence for the person; anything else as it is. */
  private writeError(vaultPath: string, error: unknown): unknown {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
      return new ReadOnlyNoteError(`The file system does not allow writing ${vaultPath} (${code === 'EROFS' ? 'it is mounted read-only' : 'permission denied'}); nothing was changed.`);
    }
    if (code === 'EXDEV') {
      return new DexiError(`${vaultPath} is on another file system than the vault's .dexi folder, so it cannot be replaced atomically; nothing was changed.`);
    }
    return error;
  }

  private async guardedOptions(vaultPath: string, file: OpenedFile): Promise<GuardedOptions> {
    // The note's permissions stay as they were: a private note stays private.
    const options: GuardedOptions = {
      maxBytes: MAX_NOTE_BYTES,
      mode: Number(file.stats.mode & 0o777n),
      mayBeBusy: this.ownWrites.get(vaultPath) !== hashContent(file.bytes),
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
      const current = await this.openNote(vaultPath);
      try {
        if (!current?.file.bytes.equals(ours)) {
          await this.saveConflictCopy(vaultPath, theirs);
          return current && isSameFile(current.file.stats, written) ? 'replaced' : 'changed';
        }
        const result = await replaceGuarded(this.absolute(vaultPath), theirs, current.file, await this.guardedOptions(vaultPath, current.file));
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
    const temp = await ensureTempDir(this.root);
    for (let attempt = 1; attempt < 100; attempt++) {
      const copy = path.join(dir, `${numberedName(`${name} (conflict ${stamp})`, attempt)}.md`);
      try {
        await createFileExclusive(copy, bytes, temp);
        this.stats.conflictCopies++;
        this.options.log(`${vaultPath} changed twice while the server wrote it; one version is saved as ${path.basename(copy)}.`);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }

  /**
   * After replacing a note that another program wrote moments before, keep
   * the old file open and watch it: a program that still holds it (a script
   * writing with pauses, a `>>` loop on one descriptor) writes into a file
   * that is no longer in the vault. Each time it has written and gone quiet,
   * its version is brought back: the edit is redone on it if the note still
   * holds what the server wrote, else it is saved as a conflict copy. The
   * caller hands over `base` and must not close it.
   */
  private watchDisplaced(vaultPath: string, base: NoteFile, ours: string, change: Change): void {
    const tail = (async (): Promise<void> => {
      const handle = base.file.handle;
      let seen: Buffer = base.file.bytes;
      let current: Buffer = Buffer.from(ours);
      let last = base.file.stats;
      const started = Date.now();
      let lastChange = started;
      let pending = false;
      try {
        for (;;) {
          const done = this.closing || Date.now() - lastChange >= TAIL_MS || Date.now() - started >= TAIL_MAX_MS;
          if (!done) await sleep(TAIL_POLL_MS);
          const now = await handle.stat({ bigint: true });
          if (now.size !== last.size || now.mtimeNs !== last.mtimeNs) {
            last = now;
            lastChange = Date.now();
            pending = true;
          }
          if (pending && (done || Date.now() - lastChange >= QUIET_MS)) {
            pending = false;
            const theirs = (await readWhole(handle, Number(now.size), Number.MAX_SAFE_INTEGER)) as Buffer;
            if (!theirs.equals(seen)) {
              seen = theirs;
              current = (await this.recoverDisplaced(vaultPath, current, theirs, change)) ?? current;
            }
          }
          if (done) return;
        }
      } catch (error) {
        this.options.log(`Watching the replaced version of ${vaultPath}: ${(error as Error).message}`);
      } finally {
        await handle.close().catch(() => undefined);
      }
    })();
    this.tails.add(tail);
    void tail.finally(() => this.tails.delete(tail));
  }

  /**
   * Bring back `theirs`, text written into a replaced file: redo the edit on
   * it where the note still holds `ours` (what the server last wrote), else
   * keep it as a conflict copy. Returns what the note now holds when the
   * server wrote it.
   */
  private recoverDisplaced(vaultPath: string, ours: Buffer, theirs: Buffer, change: Change): Promise<Buffer | undefined> {
    return this.lock.run(vaultPath, async () => {
      let written: Buffer | undefined;
      const current = await this.openNote(vaultPath);
      try {
        const record = this.atPath(vaultPath);
        const text = decodeStrict(theirs);
        if (current && record && text !== undefined && current.file.bytes.equals(ours)) {
          const next = change(text, record);
          if (next !== undefined && Buffer.byteLength(next) <= MAX_NOTE_BYTES && (await this.replaceNote(vaultPath, current, next)) !== 'changed') {
            written = Buffer.from(next);
            this.stats.writesRecovered++;
            this.options.log(`${vaultPath} was still being written by another program after the server replaced it; the edit is redone on its text.`);
          }
        }
        if (!written) await this.saveConflictCopy(vaultPath, theirs);
      } finally {
        await current?.file.handle.close();
      }
      await this.ingest(vaultPath);
      return written;
    });
  }

  /**
   * Read one file and bring the model in step with it: a new note, a changed
   * one, a moved one, or a copy. Reading never writes. Must run under the
   * file's lock.
   */
  private async ingest(vaultPath: string, cached?: NoteRecord): Promise<NoteRecord | undefined> {
    const file = await this.openNote(vaultPath);
    const atPath = this.atPath(vaultPath);
    if (!file) {
      if (atPath) {
        this.unplace(atPath);
        this.rememberGone(atPath);
        this.emit('removed', atPath);
      }
      return undefined;
    }
    try {
      return await this.ingestFile(vaultPath, file, atPath, cached);
    } finally {
      await file.file.handle.close();
    }
  }

  private async ingestFile(vaultPath: string, file: NoteFile, atPath: NoteRecord | undefined, cached: NoteRecord | undefined): Promise<NoteRecord> {
    const hash = hashContent(file.file.bytes);
    const known = atPath ?? cached;
    const fileStats = { size: file.size, mtimeMs: file.mtimeMs, ctimeMs: file.ctimeMs, ino: file.ino, birthtimeMs: file.birthtimeMs };
    // Same content as last seen, and the id still free for it: only the file's stats moved.
    if (known && known.hash === hash && (atPath !== undefined || !this.records.has(known.id))) {
      const same: NoteRecord = { ...known, path: vaultPath, folder: folderOf(vaultPath), ...fileStats };
      this.place(same);
      if (!atPath) this.emit('note', same, this.bodyOf(file.content, same));
      return same;
    }

    const facts: FileFacts = { path: vaultPath, content: file.content, ...fileStats };
    let plain: string | undefined;
    let parsed: ParsedNote;
    if (this.parsePool) ({ parsed, plain } = await this.parsePool.parse(facts));
    else parsed = parseNoteFile(facts);
    if (!file.valid) {
      parsed.record.broken = true;
      // Not UTF-8: the text is a lossy decoding, so the hash must be of the bytes themselves.
      parsed.record.hash = hash;
    }

    const id = await this.decideId(vaultPath, parsed, hash, known, cached);
    const record: NoteRecord = { ...parsed.record, id };
    if (atPath && atPath.id !== id) {
      this.unplace(atPath);
      this.emit('removed', atPath);
    }
    this.place(record);
    if (this.provisional && parsed.id !== undefined && cached?.id !== parsed.id) this.provisional.add(vaultPath);
    this.emit('note', record, parsed.body, plain);
    return record;
  }

  /**
   * Which id a file read afresh has. Its frontmatter `id` if it has one (two
   * files claiming one id: identity.ts's rule); else the id it had at this
   * path; else, for a path new to the server, the id of a note whose file
   * just went with the same content (a move); else its path id.
   */
  private async decideId(vaultPath: string, parsed: ParsedNote, hash: string, known: NoteRecord | undefined, cached: NoteRecord | undefined): Promise<string> {
    const claimed = parsed.record.broken ? undefined : parsed.id;
    if (claimed !== undefined) {
      const holder = this.records.get(claimed);
      if (!holder || holder.path === vaultPath || !(await this.exists(holder.path))) return claimed;
      const challenger = { path: vaultPath, established: this.provisional !== undefined && cached?.id === claimed && cached.path === vaultPath };
      if (!challengerKeepsId(challenger, { path: holder.path, established: !this.provisional?.has(holder.path) })) return this.freePathId(vaultPath);
      // The holder is the copy: it becomes a note of its own, read again once this one is placed.
      this.unplace(holder);
      this.emit('removed', holder);
      if (this.provisional) this.reingestLater.push(holder.path);
      else void this.refresh(holder.path).catch((error: Error) => this.options.log(`Reading ${holder.path} again: ${error.message}`));
      return claimed;
    }
    if (known) {
      const holder = this.records.get(known.id);
      if (!holder || holder.path === vaultPath) return known.id;
    } else if (parsed.record.size > 0) {
      // Moved: the note that held this content is gone from its old path (the
      // watcher may report the new path before the old one's removal).
      const heldBy = this.idByHash.get(hash);
      const holder = heldBy === undefined ? undefined : this.records.get(heldBy);
      if (holder && holder.path !== vaultPath && !(await this.exists(holder.path))) return holder.id;
      const gone = this.recentlyGone.get(hash);
      if (gone && Date.now() - gone.at < MOVE_MEMORY_MS && !this.records.has(gone.id)) {
        this.recentlyGone.delete(hash);
        return gone.id;
      }
    }
    return this.freePathId(vaultPath);
  }

  /** The note's path id, or the next candidate when a note moved away from this path still holds it. */
  private freePathId(vaultPath: string): string {
    for (let attempt = 1; ; attempt++) {
      const id = pathId(vaultPath, this.options.owner ?? '', attempt);
      const holder = this.records.get(id);
      if (!holder || holder.path === vaultPath) return id;
    }
  }

  private bodyOf(content: string, record: NoteRecord): string {
    return record.broken ? content : splitFrontmatter(content).body;
  }

  /**
   * Bring the model in step with the disk after a period nobody watched
   * (the first read runs before the watcher starts, so that the two do not
   * compete): files whose size, times or inode differ are read again, new
   * ones added, vanished ones dropped.
   */
  async reconcile(): Promise<void> {
    const scan = await scanVault(this.root, this.options.log, (vaultPath, size) => this.logOversize(vaultPath, size));
    this.folderSet.clear();
    for (const folder of scan.folders) this.folderSet.add(folder);
    const seen = new Set<string>();
    for (const file of scan.files) {
      seen.add(file.path);
      if (!unchangedFile(file, this.atPath(file.path))) await this.refresh(file.path);
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
      this.rememberGone(record);
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
   * A note the person made read-only is theirs to keep as it is. Judged by
   * the mode bits, so that it holds even for a server running as root (whom
   * the file system would let write anyway).
   */
  private assertFileWritable(record: NoteRecord, stats: BigIntStats | Stats, doing: 'changed' | 'deleted'): void {
    if ((Number(stats.mode) & 0o222) !== 0) return;
    throw new ReadOnlyNoteError(
      `${record.path} is read-only (its file permissions allow no writing), so the server leaves it as it is and nothing was ${doing}. Make the file writable to let it be ${doing}.`,
    );
  }

  /**
   * Run an edit of one note under its file's lock: read the file once it is
   * quiet, compute the new content, and replace the file only if nobody
   * changed it meanwhile; otherwise redo the edit on the new content, so that
   * neither change is lost.
   */
  private async edit(id: string, change: Change): Promise<NoteWithBody> {
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const record = this.records.get(id);
      if (!record) throw new NoteNotFoundError();
      this.assertWritable(record);
      const result = await this.lock.run(record.path, async (): Promise<NoteWithBody | 'retry' | 'missing'> => {
        const file = await this.openQuiet(record.path);
        if (!file) return 'missing';
        let handedOver = false;
        let next: string | undefined;
        let info: Stats;
        try {
          if (this.records.get(id)?.path !== record.path) return 'retry';
          const hash = hashContent(file.file.bytes);
          const current = hash === record.hash ? record : await this.ingest(record.path);
          if (!current || current.id !== id) return 'retry';
          this.assertWritable(current);
          this.assertFileWritable(current, file.file.stats, 'changed');
          next = change(file.content, current);
          if (next === undefined) return { record: current, body: this.bodyOf(file.content, current) };
          this.assertFits(next);
          const writtenByOthers = !this.isOwnWrite(record.path, file) && Date.now() - file.ctimeMs < RECENT_WRITE_MS;
          // The file was read through `file`; it is replaced only if that is still what the path holds, unchanged.
          const written = await this.replaceNote(record.path, file, next);
          if (written === 'changed') return 'retry';
          if (writtenByOthers) {
            this.watchDisplaced(record.path, file, next, change);
            handedOver = true;
          }
          // The new file's own stats: the path may already have been moved on by another program.
          info = written;
        } finally {
          if (!handedOver) await file.file.handle.close();
        }
        const parsed = parseNoteFile({
          path: record.path,
          content: next,
          size: info.size,
          mtimeMs: info.mtimeMs,
          ctimeMs: info.ctimeMs,
          ino: info.ino,
          birthtimeMs: info.birthtimeMs,
        });
        const updated: NoteRecord = { ...parsed.record, id };
        this.place(updated);
        this.emit('note', updated, parsed.body);
        return { record: this.records.get(id) ?? updated, body: parsed.body };
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
      await sleep(50);
      if (this.records.get(id)?.path !== oldPath) return;
    }
  }

  async update(id: string, request: UpdateRequest): Promise<NoteWithBody> {
    if (request.mode === 'replace' && request.title === undefined && request.text === undefined) {
      throw new NothingToUpdateError();
    }
    const now = this.options.clock.now();
    return this.edit(id, (content) => {
      const edited = editedContent(content, request, now);
      request.guard?.(mergeTags(frontmatterTags(edited.data.tags), extractTags(edited.body)));
      return edited.content;
    });
  }

  /**
   * Write these top-level frontmatter keys and nothing else (a card's
   * `review` block): no `updated`, no body change, comments kept.
   */
  async setFrontmatter(id: string, updates: Record<string, unknown>): Promise<NoteRecord> {
    const result = await this.edit(id, (content) => setFrontmatterKeys(content, updates));
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
          await createFileExclusive(path.join(realDir, `${base}.md`), content, await ensureTempDir(this.root));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
          throw error;
        }
        let record: NoteRecord | undefined = await this.lock.run(vaultPath, () => this.ingest(vaultPath));
        if (record === undefined || record.id !== frontmatter.id) {
          // Another program moved or removed the new file at once (the watcher
          // will report where it went). It was created: say so, with what was written.
          const nowMs = this.options.clock.now().getTime();
          const size = Buffer.byteLength(content);
          const parsed = parseNoteFile({ path: vaultPath, content, size, mtimeMs: nowMs, ctimeMs: nowMs, ino: 0, birthtimeMs: nowMs });
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
        this.assertFileWritable(current, info, 'deleted');
        // Deleting a file another program is writing would drop what it writes next.
        if (Date.now() - info.ctimeMs < QUIET_MS && this.ownWrites.get(current.path) !== current.hash) {
          await this.openQuiet(current.path).then((file) => file?.file.handle.close());
          return 'retry';
        }
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
      // Another note is never deleted as an attachment, nor is anything that is not a plain file, nor a file the person made read-only.
      if (!info.isFile() || isNoteFileName(path.basename(abs)) || (info.mode & 0o222) === 0) return;
      await unlink(abs);
    } catch (error) {
      this.options.log(`Kept attachment ${attachment} of ${record.path}: ${(error as Error).message}`);
    }
  }
}

/** Whether a file's stats are those the cache recorded: then its content is what the cache says. */
function unchangedFile(file: FileStat, known: NoteRecord | undefined): known is NoteRecord {
  return (
    known !== undefined &&
    known.size === file.size &&
    known.mtimeMs === file.mtimeMs &&
    known.ctimeMs === file.ctimeMs &&
    known.ino === file.ino
  );
}

function decodeStrict(bytes: Buffer): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}
