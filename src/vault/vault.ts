import { EventEmitter } from 'node:events';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { WriteJournal } from './record/activity.js';
import { Catalog } from './catalog.js';
import { cacheDir } from '../storage/dexi-dir.js';
import { setFrontmatterKeys } from '../format/frontmatter-edit.js';
import { createNote, type CreateRequest } from './create.js';
import { readNote } from './current-note.js';
import { deleteNote, type AdmitAttachment, type Deleted } from './delete.js';
import { MAX_NOTE_BYTES } from './ignore.js';
import { readDailySettings, readSmallFile } from './daily-files.js';
import type { DailySettings } from '../format/daily-notes.js';
import type { Clock } from './clock.js';
import { editedNoteBody, type BodyEditRequest } from './body-edits.js';
import { asksForNothing, editedContent, guardedContent } from './edits.js';
import { DexiError, NothingToUpdateError } from './errors.js';
import { GitDates } from './git/git-dates.js';
import { Ingest } from './ingest.js';
import { readEveryNote, reconcile, type LoaderParts, type LoadProgress } from './loader.js';
import { tableOf, type RecordTable } from './record-table.js';
import type { EarlyScan } from './workers/scan-pool.js';
import type { Visible } from './link-index.js';
import { KeyedLock } from './lock.js';
import { moveNote } from './move-note.js';
import type { Destination } from './move-target.js';
import { NoteFiles, type VaultTestHooks } from './note-files.js';
import { completeTaskChange, type CompleteTaskRequest } from './tasks.js';
import type { Admit, NoteRecord, NoteWithBody } from './note.js';
import { editNote } from './note-writes.js';
import { propertiesChange, type PropertiesRequest } from './properties.js';
import type { VaultParts } from './vault-parts.js';
import { forgetFolder, forgetPath, refreshPath } from './watched-changes.js';
import { readOnlyVaultError } from './write-refusals.js';
import { tagRenameChange, type TagRenameRequest } from './rename-tag.js';
import type { PropertyIndex } from './property-index.js';
import type { Logger } from './logger.js';

export type { LoadProgress } from './loader.js';
export type { VaultTestHooks } from './note-files.js';
export type { Logger, LogDetail } from './logger.js';

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
export type { TagRenameRequest } from './rename-tag.js';
export type { AdmitAttachment, Deleted } from './delete.js';
/** How long the first read waits for dates from the git history before it calls the vault ready without them. */
const GIT_READY_WAIT_MS = 5000;

export class VaultUnavailableError extends DexiError {}


/**
 * The vault model's face: which notes exist, where, and what their
 * frontmatter says, kept in step with the files, and the commands that
 * change a note. It writes a file only when a tool asks it to change that
 * note: one writer per file at a time, atomically, re-reading the file first
 * and never while another program is writing it.
 *
 * The parts: `Catalog` (what is known), `NoteFiles` (the files themselves),
 * `Ingest` (file → record, identity), the loader (first read, reconcile);
 * the jobs, each handed the parts (`VaultParts`): current-note.ts (reads, and
 * the current version every write starts from), note-writes.ts (an edit's
 * write), move-note.ts, delete.ts, create.ts, watched-changes.ts.
 */
export class Vault extends EventEmitter<VaultEvents> {
  private readonly parts: VaultParts;
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
    const catalog = new Catalog(options.owner ?? '');
    const files = new NoteFiles(root, { clock: options.clock, log: options.log, hooks: options.hooks });
    const announce: VaultParts['announce'] = {
      note: (record, body, plain) => this.emit('note', record, body, plain),
      removed: (record) => this.emit('removed', record),
      dates: () => this.emit('dates'),
    };
    const ingest = new Ingest(catalog, files, announce, (vaultPath) =>
      void this.refresh(vaultPath).catch((error: Error) => options.log(`Reading ${vaultPath} again: ${error.message}`)),
    );
    const { clock, log, owner } = options;
    this.parts = { root, catalog, files, ingest, lock: new KeyedLock(), clock, log, readOnly: options.readOnly === true, owner, announce };
    this.gitDates = new GitDates(root, catalog, { log, cacheDir: options.gitCacheDir ?? options.cacheDir, onDates: () => this.emit('dates') });
    catalog.onMoved = (record, from) => this.movedUnderId(record, from);
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
    return this.parts.readOnly;
  }

  /** The folder of this vault's disposable caches (records, full-text index, git dates, vectors). */
  get cacheDir(): string {
    return this.options.cacheDir ?? cacheDir(this.root);
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
    return this.parts.files.stats;
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
    await this.parts.files.close();
  }

  /** Resolves once every replaced file being watched for late writes has been brought back or let go (tests, shutdown). */
  writesSettled(): Promise<void> {
    return this.parts.files.writesSettled();
  }

  get size(): number {
    return this.parts.catalog.size;
  }

  all(): IterableIterator<NoteRecord> {
    return this.parts.catalog.all();
  }

  get(id: string): NoteRecord | undefined {
    return this.parts.catalog.get(id);
  }

  /** See Catalog.tagged. */
  tagged(candidates: readonly string[]): Iterable<NoteRecord> {
    return this.parts.catalog.tagged(candidates);
  }

  /** See Catalog.properties. */
  get properties(): PropertyIndex {
    return this.parts.catalog.properties;
  }

  atPath(vaultPath: string): NoteRecord | undefined {
    return this.parts.catalog.atPath(vaultPath);
  }

  /**
   * What a note's links stand for now: the notes they resolve to (each once,
   * in order of first appearance; the note itself too when it links to
   * itself, as Obsidian lists it) and the link paths that name no note. See links.ts for the rules. With `visible`,
   * the notes it does not admit are as if they did not exist.
   */
  linksOf(record: NoteRecord, visible?: Visible): { notes: NoteRecord[]; unresolved: string[] } {
    const index = this.parts.catalog.links;
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
    return this.parts.catalog.links.backlinks(record, visible);
  }

  /** See Catalog.folderChanges. */
  get folderChanges(): number {
    return this.parts.catalog.folderChanges;
  }

  /** Every folder, empty ones too, vault-relative. */
  folders(): string[] {
    return this.parts.catalog.folders();
  }

  /** The canonical spelling of a folder given in any case, if it exists. */
  findFolder(name: string): string | undefined {
    return this.parts.catalog.findFolder(name);
  }

  /** Obsidian's daily notes settings for this vault, read now (daily-files.ts). */
  dailySettings(): Promise<DailySettings> {
    return readDailySettings(this.root);
  }

  /** The whole file of the note a link path names from the top of the vault (as Obsidian finds a template), or undefined; `visible` as for `linksOf`. */
  async linkedFileText(linkPath: string, visible?: Visible): Promise<string | undefined> {
    const record = this.parts.catalog.links.resolve(linkPath, '', visible);
    return record === undefined ? undefined : readSmallFile(this.root, record.path, MAX_NOTE_BYTES);
  }

  /** Whether the git history has been read (or there is none to read). */
  get gitSettled(): Promise<void> {
    return this.gitDates.settled;
  }

  private get loaderParts(): LoaderParts {
    return {
      ...this.parts,
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
  async load(cached: Promise<RecordTable> | RecordTable = tableOf([]), earlyScan?: EarlyScan): Promise<void> {
    if (this.options.git !== false) this.gitDates.start();
    const read = await readEveryNote({ ...this.loaderParts, earlyScan }, Promise.resolve(cached));
    if (read === undefined || this.stopped) return;
    // Dates from git are part of a first answer (a fresh clone's notes were not all made today), so the
    // first read waits for them a little; a history that takes longer fills them in when it is done.
    // The wait's timer must not keep a short command (`index`, `import`) alive for its full length once git has answered.
    if (this.gitDates.started) {
      await Promise.race([this.gitDates.settled, this.stopping, new Promise((resolve) => setTimeout(resolve, GIT_READY_WAIT_MS).unref())]);
    }
    if (this.stopped) return;
    // Made now rather than note by note during the read (a tag filter meanwhile makes it at once).
    void this.parts.catalog.indexTagsInSteps();
    const { previous, gone } = read;
    for (const row of gone) if (this.parts.catalog.get(previous.id(row))?.path !== previous.path(row)) this.emit('removed', previous.record(row));
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
  refresh(vaultPath: string): Promise<void> {
    return refreshPath(this.parts, vaultPath);
  }

  /** The watcher saw this file disappear; it is dropped only if it is really gone. */
  forget(vaultPath: string): Promise<void> {
    return forgetPath(this.parts, vaultPath);
  }

  folderAdded(folder: string): void {
    this.parts.catalog.addFolder(folder);
  }

  /** The watcher saw a folder (or a file that is not a note) disappear: see forgetFolder. */
  folderGone(folder: string): Promise<void> {
    return forgetFolder(this.parts, folder);
  }

  /** Read a note's current body from disk, bringing the model in step if the file changed. */
  read(id: string, withProperties = true): Promise<NoteWithBody> {
    return readNote(this.parts, id, withProperties);
  }

  async update(id: string, request: UpdateRequest, journal?: WriteJournal): Promise<NoteWithBody> {
    if (asksForNothing(request)) throw new NothingToUpdateError();
    const now = this.options.clock.now();
    const replacesBody = request.mode === 'replace' && request.text !== undefined;
    const change = (content: string): string | undefined => guardedContent(editedContent(content, request, now), request.guard);
    return editNote(this.parts, id, change, request.admit, journal, replacesBody ? 'copy' : 'merge');
  }

  /** Edit inside a note's body (`edit_note`, see body-edits.ts); a body the edit leaves as it was is not written. */
  async editBody(id: string, request: BodyEditRequest, journal?: WriteJournal): Promise<NoteWithBody> {
    const now = this.options.clock.now();
    return editNote(this.parts, id, (content) => guardedContent(editedNoteBody(content, request.operation, now), request.guard), request.admit, journal);
  }

  /**
   * Write these top-level frontmatter keys and nothing else (a card's
   * `review` block): no `updated`, no body change, comments kept.
   */
  async setFrontmatter(id: string, updates: Record<string, unknown>, admit?: Admit, journal?: WriteJournal): Promise<NoteRecord> {
    const result = await editNote(this.parts, id, (content) => setFrontmatterKeys(content, updates), admit, journal);
    return result.record;
  }

  /** `set_properties`: see properties.ts, `propertiesChange`. */
  setProperties(id: string, request: PropertiesRequest, journal?: WriteJournal): Promise<NoteWithBody> {
    return editNote(this.parts, id, propertiesChange(request, this.options.clock.now()), request.admit, journal);
  }

  /** `complete_task`: see tasks.ts, `completeTaskChange`. */
  completeTask(id: string, request: CompleteTaskRequest, journal?: WriteJournal): Promise<NoteWithBody> {
    return editNote(this.parts, id, completeTaskChange(request, this.options.clock.now()), request.admit, journal);
  }

  /** `rename_tag` in one note (rename-tag.ts): true when the note was written, false when it carried the tag nowhere. */
  async renameTag(id: string, request: TagRenameRequest, journal?: WriteJournal): Promise<boolean> {
    let written = false;
    await editNote(this.parts, id, tagRenameChange(request, (changes) => (written = changes)), request.admit, journal);
    return written;
  }

  /**
   * Move a note's file into `to.folder` and/or rename it to `to.name`,
   * keeping its id, and repair the links that named it: see moveNote.
   */
  async move(id: string, to: Destination, admit?: Admit, journal?: WriteJournal, visible?: Visible): Promise<NoteWithBody> {
    await moveNote(this.parts, id, to, admit, journal, visible);
    await this.identitySaved();
    // Read again: a repair may have rewritten the note's own links.
    return this.read(id);
  }

  /** Create a note in `folder` (vault-relative, created if needed) or at the root. */
  create(request: CreateRequest): Promise<NoteWithBody> {
    if (this.readOnly) return Promise.reject(readOnlyVaultError(this.parts, 'created'));
    return createNote(this.parts, request);
  }

  /** Delete a note's file, and its attachment where allowed: see deleteNote. */
  delete(id: string, admit?: Admit, admitAttachment?: AdmitAttachment, journal?: WriteJournal): Promise<Deleted> {
    return deleteNote(this.parts, id, admit, admitAttachment, journal);
  }
}
