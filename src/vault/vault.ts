import { EventEmitter } from 'node:events';
import type { Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { recorded, type WriteJournal } from './record/activity.js';
import { Catalog, foldPath } from './catalog.js';
import { cacheDir } from '../storage/dexi-dir.js';
import { numberedName } from '../storage/filenames.js';
import { assertFits, createNote, ensureNoteFolder, type CreateRequest } from './create.js';
import { assertFileWritable, deleteNoteFile, type AdmitAttachment, type Deleted } from './delete.js';
import { readDailySettings, readSmallFile } from './daily-files.js';
import type { DailySettings } from '../format/daily-notes.js';
import type { Clock } from './clock.js';
import { editedNoteBody, type BodyEditRequest } from './body-edits.js';
import { asksForNothing, editedContent, withFrontmatterKeys } from './edits.js';
import { ConcurrentEditError, DexiError, NoteNotFoundError, NothingToUpdateError, ReadOnlyNoteError } from './errors.js';
import { GitDates } from './git/git-dates.js';
import { isIgnoredPath, isNoteFileName, MAX_NOTE_BYTES } from './ignore.js';
import { bodyOf, Ingest } from './ingest.js';
import { readEveryNote, reconcile, type LoaderParts, type LoadProgress } from './loader.js';
import type { Visible } from './link-index.js';
import { KeyedLock } from './lock.js';
import { linkMeanings, repairLinks, type LinkMeanings } from './move-links.js';
import { fileNameParts, NameTakenError, nameTaken, pathHeld, type Destination } from './move-target.js';
import { extractTags } from '../format/markdown.js';
import { bringBackLate, type Change, type LateText } from './late-edits.js';
import { NoteFiles, type NoteFile, type VaultTestHooks } from './note-files.js';
import type { Admit, NoteRecord, NoteWithBody } from './note.js';
import { hashContent, parseNoteFile } from './parse.js';
import { propertiesChange, propertiesOf, withPropertiesOf, type PropertiesRequest } from './properties.js';
import { frontmatterTags, mergeTags } from '../format/tags.js';

export type { LoadProgress } from './loader.js';
export type { VaultTestHooks } from './note-files.js';

export type Logger = (line: string) => void;

export interface VaultOptions {
  root: string;
  clock: Clock;
  log: Logger;
  /** Never written: a teammate's vault (with `owner`), or the person's own when its folder cannot be written. */
  readOnly?: boolean;
  /** Names a read-only teammate vault's owner, and namespaces its path ids. */
  owner?: string;
  /** A first read with at least this many notes to parse parses them on a worker thread (default 1,000). */
  parseWorkerMinNotes?: number;
  /**
   * Dates from git history where the vault is in a git work tree (default
   * true), cached in `gitCacheDir` (default `cacheDir`).
   */
  git?: boolean;
  gitCacheDir?: string;
  /** Where this vault's disposable caches go (default its `.dexi/cache/`; outside it for a vault that cannot be written). */
  cacheDir?: string;
  /** Test seams; see VaultTestHooks. Never set by the server. */
  hooks?: VaultTestHooks;
}

export interface VaultEvents {
  /** A note was added or changed; `body` is its Markdown body, `plain` its search text (toSearchText) when it is already made. */
  note: [record: NoteRecord, body: string, plain?: string];
  removed: [record: NoteRecord];
  /** Dates of notes changed without their files changing (git history arrived or moved on). */
  dates: [];
  ready: [];
}

export interface UpdateRequest {
  title?: string;
  text?: string;
  mode: 'replace' | 'append';
  /** Sees the tags the note would have after the edit; throws to refuse it before anything is written. */
  guard?: (tagsAfter: string[]) => void;
  admit?: Admit;
}

export type { Admit } from './note.js';
export type { PropertiesRequest } from './properties.js';
export type { AdmitAttachment, Deleted } from './delete.js';


/** What a step on the current version of a note asks next: try again, or the note's file was not where the catalog said. */
type Step<T> = T | 'retry' | 'missing';

const MAX_WRITE_ATTEMPTS = 8;
const MOVE_GRACE_MS = 400;
/** How long the first read waits for dates from the git history before it calls the vault ready without them. */
const GIT_READY_WAIT_MS = 5000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class VaultUnavailableError extends DexiError {}

/**
 * The vault model's face: which notes exist, where, and what their
 * frontmatter says, kept in step with the files, and the commands that
 * change a note. It writes a file only when a tool asks it to change that
 * note: one writer per file at a time, atomically, re-reading the file first
 * and never while another program is writing it.
 *
 * The parts: `Catalog` (what is known), `NoteFiles` (the files themselves),
 * `Ingest` (file → record, identity), the loader (first read, reconcile).
 */
export class Vault extends EventEmitter<VaultEvents> {
  private readonly catalog: Catalog;
  private readonly files: NoteFiles;
  private readonly ingester: Ingest;
  private readonly lock = new KeyedLock();
  private readonly loadProgress: LoadProgress = { phase: 'starting', done: 0, total: 0 };
  private stopped = false;
  private stoppedLoading: () => void = () => undefined;
  /** Resolves once `stopLoading` is called: a first read's wait for git ends at once. */
  private readonly stopping = new Promise<void>((resolve) => {
    this.stoppedLoading = resolve;
  });
  private readonly gitDates: GitDates;
  private keepIdentity: ((record: NoteRecord, from: string) => Promise<void>) | undefined;
  private identityWrites: Promise<void> = Promise.resolve();

  private constructor(
    readonly root: string,
    private readonly options: VaultOptions,
  ) {
    super();
    this.catalog = new Catalog(options.owner ?? '');
    this.files = new NoteFiles(root, { clock: options.clock, log: options.log, hooks: options.hooks });
    this.ingester = new Ingest(
      this.catalog,
      this.files,
      { note: (record, body, plain) => this.emit('note', record, body, plain), removed: (record) => this.emit('removed', record) },
      (vaultPath) => void this.refresh(vaultPath).catch((error: Error) => options.log(`Reading ${vaultPath} again: ${error.message}`)),
    );
    this.gitDates = new GitDates(root, this.catalog, { log: options.log, cacheDir: options.gitCacheDir ?? options.cacheDir, onDates: () => this.emit('dates') });
    this.catalog.onMoved = (record, from) => this.movedUnderId(record, from);
  }

  /**
   * How what the server learns of identity (a note moved or renamed under
   * its id) is saved: the index cache's journal. A move is answered only
   * once it is saved, so the id the assistant was given lasts a restart.
   */
  keepIdentityWith(keep: (record: NoteRecord, from: string) => Promise<void>): void {
    this.keepIdentity = keep;
  }

  private movedUnderId(record: NoteRecord, from: string): void {
    const saving = this.keepIdentity?.(record, from).catch((error: Error) => this.options.log(`Could not save that ${from} moved to ${record.path}: ${error.message}`));
    if (saving) this.identityWrites = Promise.all([this.identityWrites, saving]).then(() => undefined);
  }

  /** Resolves once what was learned of identity so far is saved. */
  identitySaved(): Promise<void> {
    return this.identityWrites;
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

  /** The folder of this vault's disposable caches (records, full-text index, git dates, vectors). */
  get cacheDir(): string {
    return this.options.cacheDir ?? cacheDir(this.root);
  }

  /** Why nothing of this vault may be changed: a teammate's, or one whose folder cannot be written. */
  private readOnlyError(what: 'changed' | 'moved' | 'deleted' | 'created'): ReadOnlyNoteError {
    if (this.owner !== undefined) {
      return new ReadOnlyNoteError(what === 'created' ? "A teammate's shared vault cannot be written." : `This is a teammate's shared note; it can be read but not ${what}.`);
    }
    return new ReadOnlyNoteError(`The vault folder cannot be written, so the server serves it read-only: nothing can be ${what} in it.`);
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

  /** See NoteFiles.stats. */
  get stats(): NoteFiles['stats'] {
    return this.files.stats;
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
    this.stoppedLoading();
  }

  /**
   * Shut down: stop asking git, and finish watching replaced files at once,
   * so that text still arriving in one is brought back before the process ends.
   */
  async close(): Promise<void> {
    this.stopped = true;
    await this.gitDates.close();
    await this.files.close();
  }

  /** Resolves once every replaced file being watched for late writes has been brought back or let go (tests, shutdown). */
  writesSettled(): Promise<void> {
    return this.files.writesSettled();
  }

  get size(): number {
    return this.catalog.size;
  }

  all(): IterableIterator<NoteRecord> {
    return this.catalog.all();
  }

  get(id: string): NoteRecord | undefined {
    return this.catalog.get(id);
  }

  /** See Catalog.tagged. */
  tagged(candidates: readonly string[]): Iterable<NoteRecord> {
    return this.catalog.tagged(candidates);
  }

  atPath(vaultPath: string): NoteRecord | undefined {
    return this.catalog.atPath(vaultPath);
  }

  /**
   * What a note's links stand for now: the notes they resolve to (each once,
   * in order of first appearance; the note itself too when it links to
   * itself, as Obsidian lists it) and the link paths that name no note. See links.ts for the rules. With `visible`,
   * the notes it does not admit are as if they did not exist.
   */
  linksOf(record: NoteRecord, visible?: Visible): { notes: NoteRecord[]; unresolved: string[] } {
    const index = this.catalog.links;
    const notes: NoteRecord[] = [];
    const seen = new Set<string>();
    const unresolved: string[] = [];
    for (const link of record.links ?? []) {
      const target = index.resolve(link, record.path, visible);
      if (!target) unresolved.push(link);
      else if (!seen.has(target.id)) {
        seen.add(target.id);
        notes.push(target);
      }
    }
    return { notes, unresolved };
  }

  /** The notes with a link that resolves to this one, in no particular order; `visible` as for `linksOf`. */
  backlinksOf(record: NoteRecord, visible?: Visible): Iterable<NoteRecord> {
    return this.catalog.links.backlinks(record, visible);
  }

  /** Every folder, empty ones too, vault-relative. */
  /** See Catalog.folderChanges. */
  get folderChanges(): number {
    return this.catalog.folderChanges;
  }

  folders(): string[] {
    return this.catalog.folders();
  }

  /** The canonical spelling of a folder given in any case, if it exists. */
  findFolder(name: string): string | undefined {
    return this.catalog.findFolder(name);
  }

  /** Obsidian's daily notes settings for this vault, read now (daily-files.ts). */
  dailySettings(): Promise<DailySettings> {
    return readDailySettings(this.root);
  }

  /** The whole file of the note a link path names from the top of the vault (as Obsidian finds a template), or undefined; `visible` as for `linksOf`. */
  async linkedFileText(linkPath: string, visible?: Visible): Promise<string | undefined> {
    const record = this.catalog.links.resolve(linkPath, '', visible);
    return record === undefined ? undefined : readSmallFile(this.root, record.path, MAX_NOTE_BYTES);
  }

  /** Whether the git history has been read (or there is none to read). */
  get gitSettled(): Promise<void> {
    return this.gitDates.settled;
  }

  private get loaderParts(): LoaderParts {
    return {
      root: this.root,
      catalog: this.catalog,
      files: this.files,
      ingest: this.ingester,
      lock: this.lock,
      log: this.options.log,
      readOnly: this.readOnly,
      // A read-only vault's caches are cleaned only where they are kept outside it.
      cacheDir: this.readOnly ? (this.owner === undefined ? this.options.cacheDir : undefined) : this.cacheDir,
      parseWorkerMinNotes: this.options.parseWorkerMinNotes,
      progress: this.loadProgress,
      stopped: () => this.stopped,
    };
  }

  /**
   * Read every note (see readEveryNote), with the git dates beside it.
   * Reading writes nothing into the vault.
   */
  async load(cached: Promise<readonly NoteRecord[]> | readonly NoteRecord[] = []): Promise<void> {
    if (this.options.git !== false) this.gitDates.start();
    const read = await readEveryNote(this.loaderParts, Promise.resolve(cached));
    if (read === undefined || this.stopped) return;
    // Dates from git are part of a first answer (a fresh clone's notes were not all made today), so the
    // first read waits for them a little; a history that takes longer fills them in when it is done.
    // The wait's timer must not keep a short command (`index`, `import`) alive for its full length once git has answered.
    if (this.gitDates.started) {
      await Promise.race([this.gitDates.settled, this.stopping, new Promise((resolve) => setTimeout(resolve, GIT_READY_WAIT_MS).unref())]);
    }
    if (this.stopped) return;
    // Made now rather than note by note during the read (a tag filter meanwhile makes it at once).
    void this.catalog.indexTagsInSteps();
    const { present, previous } = read;
    for (const record of previous) {
      if (!present.has(record.path) && this.catalog.get(record.id)?.path !== record.path) this.emit('removed', record);
    }
    Object.assign(this.loadProgress, { phase: 'ready', done: this.loadProgress.total });
    this.emit('ready');
  }

  /** Ask git whether HEAD moved (a commit, a pull, a checkout) and take the new dates if it did. */
  refreshGit(): Promise<void> {
    return this.gitDates.refresh();
  }

  /** Bring the model in step with the disk after a period nobody watched. */
  reconcile(): Promise<void> {
    return reconcile(this.loaderParts, (vaultPath) => this.refresh(vaultPath), (vaultPath) => this.forget(vaultPath));
  }

  /** The watcher saw this file added or changed. */
  async refresh(vaultPath: string): Promise<void> {
    if (isIgnoredPath(vaultPath) || !isNoteFileName(vaultPath.slice(vaultPath.lastIndexOf('/') + 1))) return;
    await this.lock.run(vaultPath, () => this.ingester.ingest(vaultPath));
  }

  /** The watcher saw this file disappear; it is dropped only if it is really gone. */
  async forget(vaultPath: string): Promise<void> {
    await this.lock.run(vaultPath, async () => {
      const record = this.catalog.atPath(vaultPath);
      if (!record) return;
      if (await this.files.exists(vaultPath)) return;
      this.catalog.unplace(record);
      this.catalog.rememberGone(record);
      this.emit('removed', record);
    });
  }

  folderAdded(folder: string): void {
    this.catalog.addFolder(folder);
  }

  /**
   * The watcher saw a folder (or a file that is not a note) disappear: if no
   * folder is there now, it, the folders below it and the notes in them go,
   * each note only if its file is really gone.
   */
  async folderGone(folder: string): Promise<void> {
    // Most such events are other files (an image saved): only a folder the model holds can take notes with it.
    if (!this.catalog.hasFolder(folder) || (await this.files.isFolder(folder))) return;
    this.catalog.removeFolder(folder);
    const prefix = `${folder}/`;
    const inside = [...this.catalog.all()].filter((record) => record.path.startsWith(prefix));
    await Promise.all(inside.map((record) => this.forget(record.path)));
  }

  /**
   * Do `step` with the current version of a note: the one helper behind
   * read, edit and delete. A step that finds the file changed asks to
   * 'retry' (the model catches up first); one that finds no file there asks
   * 'missing': a moved note is followed (the watcher reports its new place
   * within moments), a deleted one is `gone` (by default: not found).
   */
  private async withCurrent<T>(
    id: string,
    step: (record: NoteRecord) => Promise<Step<T>>,
    gone: (record: NoteRecord) => Promise<T | undefined> = async () => undefined,
  ): Promise<T> {
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const record = this.catalog.get(id);
      if (!record) throw new NoteNotFoundError();
      const result = await step(record);
      if (result === 'retry') {
        // The file changed or moved since the model last saw it: catch up first.
        if (this.catalog.get(id)?.path === record.path) await this.lock.run(record.path, () => this.ingester.ingest(record.path));
        continue;
      }
      if (result !== 'missing') return result;
      await this.awaitMove(id, record.path);
      if (this.catalog.get(id)?.path !== record.path) continue;
      const answer = await gone(record);
      if (answer !== undefined) return answer;
      // Still at a path with no file: it was deleted, and the model learns so now.
      await this.lock.run(record.path, () => this.ingester.ingest(record.path));
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
      if (this.catalog.get(id)?.path !== oldPath) return;
    }
  }

  /** Read a note's current body from disk, bringing the model in step if the file changed. */
  read(id: string, withProperties = true): Promise<NoteWithBody> {
    return this.withCurrent(id, async (record) => {
      const file = await this.files.open(record.path);
      await file?.file.handle.close();
      if (!file) return 'missing';
      if (file.hash !== record.hash) return 'retry';
      const note = { record, body: bodyOf(file.content, record) };
      // A phrase search reads many notes for their text alone: their frontmatter, 180 µs a note to parse, is left unread.
      return withProperties ? withPropertiesOf(file.content, note) : note;
    });
  }

  private assertWritable(record: NoteRecord): void {
    if (this.readOnly) throw this.readOnlyError('changed');
    if (record.broken) {
      throw new ReadOnlyNoteError(
        `The server leaves ${record.path} alone because its frontmatter is not valid YAML (or the file is not UTF-8); fix it in an editor first.`,
      );
    }
  }

  /**
   * Run an edit of one note under its file's lock: read the file once it is
   * quiet, compute the new content, and replace the file only if nobody
   * changed it meanwhile; otherwise redo the edit on the new content, so that
   * neither change is lost.
   */
  private edit(id: string, change: Change, admit?: Admit, journal?: WriteJournal, late: LateText = 'merge'): Promise<NoteWithBody> {
    return this.withCurrent(id, (record) => {
      this.assertWritable(record);
      return this.lock.run(record.path, () => this.editLocked(id, record, change, admit, journal, late));
    });
  }

  private async editLocked(
    id: string,
    record: NoteRecord,
    change: Change,
    admit: Admit | undefined,
    journal: WriteJournal | undefined,
    late: LateText,
  ): Promise<Step<NoteWithBody>> {
    const file = await this.files.openQuiet(record.path, record);
    if (!file) return 'missing';
    let handedOver = false;
    let next: string | undefined;
    let info: Stats;
    try {
      const current = await this.currentToWrite(id, record, file, admit, 'changed');
      if (current === 'retry') return 'retry';
      next = change(file.content, current);
      if (next === undefined) return withPropertiesOf(file.content, { record: current, body: bodyOf(file.content, current) });
      assertFits(next);
      const writtenByOthers = this.files.recentlyWrittenByOthers(record.path, file);
      // Kept before the file is touched: a crash after the write must not lose the version it replaced.
      const before = await journal?.keep(file.file.bytes);
      const write = before === undefined ? undefined : ({ action: 'changed', id, path: record.path, before, after: hashContent(next) } as const);
      const content = next;
      // Recorded ahead; the file was read through `file`, and is replaced only if that is still what the path holds, unchanged.
      const written = await recorded(journal, write, () => this.files.replace(record.path, file, content), (result) => result !== 'changed');
      if (written === 'changed') return 'retry';
      if (writtenByOthers) {
        let ours: Buffer = Buffer.from(next);
        const parts = { lock: this.lock, files: this.files, catalog: this.catalog, ingest: this.ingester, log: this.options.log };
        this.files.watchDisplaced(record.path, file, async (theirs, plausible) => {
          ours = (await bringBackLate(parts, { id, vaultPath: record.path, theirs, plausible, ours, change, journal, late })) ?? ours;
        });
        handedOver = true;
      }
      // The new file's own stats: the path may already have been moved on by another program.
      info = written;
    } finally {
      if (!handedOver) await file.file.handle.close();
    }
    return this.placeWritten(id, record.path, next, info);
  }

  /**
   * The note as `file` (opened at `record.path` under its lock) holds it, once
   * it is checked that the server may write it for this connection: 'retry'
   * when the note moved or the file is another note's now.
   */
  private async currentToWrite(id: string, record: NoteRecord, file: NoteFile, admit: Admit | undefined, doing: 'changed' | 'moved'): Promise<NoteRecord | 'retry'> {
    if (this.catalog.get(id)?.path !== record.path) return 'retry';
    const current = file.hash === record.hash ? record : await this.ingester.ingest(record.path);
    if (!current || current.id !== id) return 'retry';
    this.assertWritable(current);
    admit?.(current);
    assertFileWritable(current, file.file.stats, doing);
    return current;
  }

  /** Take what the server itself just wrote at `vaultPath` (`info`: the file's stats after the write) as the note `id`, and announce it. */
  private placeWritten(id: string, vaultPath: string, content: string, info: Stats): NoteWithBody {
    const parsed = parseNoteFile({
      path: vaultPath,
      content,
      size: info.size,
      mtimeMs: info.mtimeMs,
      ctimeMs: info.ctimeMs,
      ino: info.ino,
      birthtimeMs: info.birthtimeMs,
    });
    const updated: NoteRecord = { ...parsed.record, id };
    this.catalog.placeOwnWrite(updated);
    this.emit('note', updated, parsed.body, parsed.searchText);
    return { record: this.catalog.get(id) ?? updated, body: parsed.body, ...(updated.broken ? {} : { properties: propertiesOf(parsed.data) }) };
  }

  async update(id: string, request: UpdateRequest, journal?: WriteJournal): Promise<NoteWithBody> {
    if (asksForNothing(request)) throw new NothingToUpdateError();
    const now = this.options.clock.now();
    const replacesBody = request.mode === 'replace' && request.text !== undefined;
    return this.edit(id, (content) => {
      const edited = editedContent(content, request, now);
      request.guard?.(mergeTags(frontmatterTags(edited.data.tags), extractTags(edited.body)));
      return edited.content;
    }, request.admit, journal, replacesBody ? 'copy' : 'merge');
  }

  /** Edit inside a note's body (`edit_note`, see body-edits.ts); a body the edit leaves as it was is not written. */
  async editBody(id: string, request: BodyEditRequest, journal?: WriteJournal): Promise<NoteWithBody> {
    const now = this.options.clock.now();
    return this.edit(id, (content) => {
      const edited = editedNoteBody(content, request.operation, now);
      if (edited) request.guard?.(mergeTags(frontmatterTags(edited.data.tags), extractTags(edited.body)));
      return edited?.content;
    }, request.admit, journal);
  }

  /**
   * Write these top-level frontmatter keys and nothing else (a card's
   * `review` block): no `updated`, no body change, comments kept.
   */
  async setFrontmatter(id: string, updates: Record<string, unknown>, admit?: Admit, journal?: WriteJournal): Promise<NoteRecord> {
    const result = await this.edit(id, (content) => withFrontmatterKeys(content, updates), admit, journal);
    return result.record;
  }

  /** `set_properties`: see properties.ts, `propertiesChange`. */
  setProperties(id: string, request: PropertiesRequest, journal?: WriteJournal): Promise<NoteWithBody> {
    return this.edit(id, propertiesChange(request, this.options.clock.now()), request.admit, journal);
  }

  /**
   * Move a note's file into `to.folder` (vault-relative, made if missing;
   * null: the vault's root; left out: where it is) and/or rename it to
   * `to.name`, keeping its id and every byte of it, under its file name or
   * `to.name` (numbered ` 2`, ` 3`, … when taken there; a `to.name` a note
   * `visible` admits holds is refused, see move-target.ts). Then every link
   * in the vault that named it, or that the move would make name another
   * note, is rewritten to name what it named before (`repairLinks`), in the
   * notes the connection sees or not. Its own links too, where its new place
   * changes what they name. With `visible` (the moving connection's view),
   * the links of the notes it sees (the moved one's own among them) mean
   * what they mean among those notes only, before and after: a link whose
   * target it cannot see is as an unresolved one, never rewritten to name
   * it. The note's title stays (a move) or becomes `to.name` (a rename):
   * where the file name does not give it (numbered, or a `title` key), it
   * is written into the frontmatter. Refused, with nothing written, for a
   * read-only or unparsable note; `admit` as for edits.
   */
  async move(id: string, to: Destination, admit?: Admit, journal?: WriteJournal, visible?: Visible): Promise<NoteWithBody> {
    if (this.readOnly) throw this.readOnlyError('moved');
    const moved = await this.withCurrent(id, (record) => {
      this.assertWritable(record);
      return this.lock.run(record.path, () => this.moveLocked(id, record, to, admit, journal, visible));
    });
    // The title: kept where the name had to be numbered (` 2`), as a move never renames a note; a rename's name over a `title` key.
    if (moved.title !== undefined) {
      // Security: the title's write is part of the move, not an edit, so the
      // note's dates stay as the move left them; else a renumbered move
      // (beside a hidden note of that name) would answer with a new `updated`.
      const dates = this.catalog.get(id);
      try {
        await this.edit(id, (content) => withFrontmatterKeys(content, { title: moved.title }), undefined, journal);
        if (dates && this.catalog.keepDates(id, dates)) this.emit('dates');
      } catch (error) {
        if (!(error instanceof DexiError)) throw error;
        this.options.log(`The title of the moved note ${id} could not be kept in its frontmatter: ${error.message}`);
      }
    }
    if (moved.before) {
      const links = journal?.forLinks();
      await repairLinks(this.catalog, moved.before, (sourceId, change) => this.edit(sourceId, change, undefined, links), (line) => this.options.log(line));
    }
    await this.identitySaved();
    // Read again: a repair may have rewritten the note's own links.
    return this.read(id);
  }

  private async moveLocked(
    id: string,
    record: NoteRecord,
    to: Destination,
    admit: Admit | undefined,
    journal: WriteJournal | undefined,
    visible: Visible | undefined,
  ): Promise<Step<{ before?: LinkMeanings; title?: string }>> {
    const file = await this.files.openQuiet(record.path);
    if (!file) return 'missing';
    let closed = false;
    const close = async (): Promise<void> => {
      if (!closed) await file.file.handle.close();
      closed = true;
    };
    try {
      const current = await this.currentToWrite(id, record, file, admit, 'moved');
      if (current === 'retry') return 'retry';
      const folder = to.folder === undefined ? current.folder : to.folder;
      const { base, extension } = fileNameParts(current.path, to.name);
      const renamed = to.name !== undefined && `${base}${extension}` !== current.path.slice(current.path.lastIndexOf('/') + 1);
      if (current.folder === folder && !renamed) return {};
      // Before any folder is made: a refused rename leaves nothing behind.
      const asked = `${folder === null ? '' : `${folder}/`}${base}${extension}`;
      if (to.name !== undefined && nameTaken(to.name, asked, id, this.catalog.all(), visible)) throw new NameTakenError(to.name);
      const into = folder === null ? undefined : await ensureNoteFolder(this.root, this.files, folder, 'move the note into');
      const made = into?.made;
      // An existing folder given in another case is the one moved into (no look-alike is made).
      const spelt = into?.folder ?? null;
      if (current.folder === spelt && !renamed) return {};
      const title = to.name ?? current.title;
      for (let attempt = 1; attempt < 10_000; attempt++) {
        const fileName = `${numberedName(base, attempt)}${extension}`;
        const toPath = spelt === null ? fileName : `${spelt}/${fileName}`;
        // The note's own path in another case is free: a rename that changes only the case.
        if (pathHeld(toPath, id, this.catalog.links.named(toPath)) || (foldPath(toPath) !== foldPath(current.path) && this.catalog.pathTakenIgnoringCase(toPath))) continue;
        const before = linkMeanings(this.catalog.links, current, toPath, visible);
        const write = { action: 'moved', id, from: current.path, path: toPath, after: file.hash, ...(made ? { madeFolder: made } : {}) } as const;
        // Recorded ahead of the rename, settled once it is made (or not).
        const moved = await recorded(journal, write, () => this.lock.run(toPath, async () => {
          await close();
          const result = await this.files.move(current.path, toPath, file);
          // Placed before the new path's lock is let go: the watcher reads a path under its lock, so it then finds
          // the note there already, never a file it does not know to give an id of its own (a second record).
          return typeof result === 'string' ? result : this.placeWritten(id, toPath, file.content, result).record;
        }), (result) => typeof result !== 'string');
        if (moved === 'taken') continue;
        if (moved === 'changed') return 'retry';
        return moved.title === title ? { before } : { before, title };
      }
      throw new DexiError('Could not find a free file name for this note in that folder; rename it first.');
    } finally {
      await close();
    }
  }

  /** Create a note in `folder` (vault-relative, created if needed) or at the root. */
  create(request: CreateRequest): Promise<NoteWithBody> {
    if (this.readOnly) return Promise.reject(this.readOnlyError('created'));
    return createNote({ root: this.root, catalog: this.catalog, files: this.files, ingest: this.ingester, lock: this.lock, clock: this.options.clock }, request);
  }

  /**
   * Delete a note's file, and its attachment where `deleteNoteFile` allows
   * (and `admitAttachment`, the connection's boundary). A note moved
   * meanwhile is followed to its new place; one deleted by another program
   * meanwhile is done already.
   */
  delete(id: string, admit?: Admit, admitAttachment?: AdmitAttachment, journal?: WriteJournal): Promise<Deleted> {
    return this.withCurrent(
      id,
      (record) => {
        if (this.readOnly) throw this.readOnlyError('deleted');
        return this.lock.run(record.path, async () => {
          const deleted = await deleteNoteFile(
            { root: this.root, catalog: this.catalog, files: this.files, log: this.options.log, journal },
            id,
            record,
            admit,
            admitAttachment,
          );
          if (typeof deleted !== 'string') this.emit('removed', deleted.record);
          return deleted;
        });
      },
      (record) =>
        this.lock.run(record.path, async () => {
          const current = this.catalog.get(id);
          if (current?.path === record.path) {
            this.catalog.unplace(current);
            this.emit('removed', current);
          }
          return { record };
        }),
    );
  }
}
