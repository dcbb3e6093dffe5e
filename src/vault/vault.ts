import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { lstat, mkdir, readFile, realpath, stat, unlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import { createFileExclusive, replaceFileAtomic } from '../files/atomic.js';
import { fileNameForTitle, numberedName } from '../files/filenames.js';
import { parseFrontmatter, setFrontmatterKeys, splitFrontmatter } from '../files/frontmatter.js';
import { isWithin, resolveInside } from '../files/paths.js';
import { toReviewFrontmatter, type ReviewState } from '../review/sm2.js';
import type { Clock } from './clock.js';
import {
  ConcurrentEditError,
  DexiError,
  FolderNotFoundError,
  NoteCapError,
  NoteNotFoundError,
  NothingToUpdateError,
  ReadOnlyNoteError,
} from './errors.js';
import { isIgnoredPath, isNoteFileName, MAX_NOTE_BYTES } from './ignore.js';
import { KeyedLock } from './lock.js';
import { extractTags } from './markdown.js';
import { frontmatterTags, mergeTags } from './tags.js';
import type { NoteRecord, NoteWithBody } from './note.js';
import { derivedId, folderOf, hashContent, parseNoteFile, type ParsedNote } from './parse.js';
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
}

export interface VaultEvents {
  /** A note was added or changed; `body` is its Markdown body. */
  note: [record: NoteRecord, body: string];
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

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const LOSSY = new TextDecoder('utf-8');
const MAX_WRITE_ATTEMPTS = 5;
const READ_CONCURRENCY = 32;
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
  /** How many note files were read from disk: a warm start on an unchanged vault reads none. */
  readonly stats = { filesRead: 0 };
  private stopped = false;

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
    const scan = await scanVault(this.root, this.options.log);
    for (const folder of scan.folders) this.folderSet.add(folder);
    const before = new Map(previous.map((record) => [record.path, record]));
    this.loadProgress = { phase: 'reading', done: 0, total: scan.files.length };

    // Notes that carry their id are placed first, so that a copy of a note
    // (same id, second path) is the one that gets a new id, not the original.
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < scan.files.length && !this.stopped) {
        const file = scan.files[next++] as FileStat;
        const cached = before.get(file.path);
        try {
          if (cached && cached.size === file.size && cached.mtimeMs === file.mtimeMs && !this.records.has(cached.id)) {
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
    await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));
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

  private async readBytes(vaultPath: string): Promise<{ bytes: Buffer; content: string; valid: boolean } | undefined> {
    const abs = this.absolute(vaultPath);
    let info;
    try {
      info = await lstat(abs);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    // Symbolic links are never followed, read or written.
    if (!info.isFile()) return undefined;
    if (info.size > MAX_NOTE_BYTES) {
      this.options.log(`Skipping ${vaultPath}: ${info.size} bytes is over the 4 MiB note limit.`);
      return undefined;
    }
    const bytes = await readFile(abs);
    this.stats.filesRead++;
    try {
      return { bytes, content: UTF8.decode(bytes), valid: true };
    } catch {
      return { bytes, content: LOSSY.decode(bytes), valid: false };
    }
  }

  /**
   * Read one file and bring the model in step with it: a new note, a changed
   * one, a moved one (same id, new path), or a copy (same id as a note that
   * still exists elsewhere, which then gets an id of its own). Must run under
   * the file's lock.
   */
  private async ingest(vaultPath: string, cached?: NoteRecord): Promise<NoteRecord | undefined> {
    const file = await this.readBytes(vaultPath);
    const atPath = this.atPath(vaultPath);
    if (!file) {
      if (atPath) {
        this.unplace(atPath);
        this.emit('removed', atPath);
      }
      return undefined;
    }
    const info = await lstat(this.absolute(vaultPath));
    const hash = hashContent(file.bytes);
    const known = atPath ?? cached;
    if (known && known.hash === hash) {
      const same: NoteRecord = { ...known, path: vaultPath, folder: folderOf(vaultPath), size: info.size, mtimeMs: info.mtimeMs };
      this.place(same);
      if (!atPath) this.emit('note', same, this.bodyOf(file.content, same));
      return same;
    }

    // Content changed since the server last saw it: an outside edit, unless
    // this is the first time the server meets the file.
    const outsideEditMs = known ? info.mtimeMs : undefined;
    let parsed = parseNoteFile({
      path: vaultPath,
      content: file.content,
      size: info.size,
      mtimeMs: info.mtimeMs,
      birthtimeMs: info.birthtimeMs,
      outsideEditMs,
    });
    if (!file.valid) parsed.record.broken = true;

    let id = parsed.id;
    const holder = id === undefined ? undefined : this.records.get(id);
    const isCopy = holder !== undefined && holder.path !== vaultPath && (await this.readBytes(holder.path)) !== undefined;
    if (id === undefined || isCopy) {
      if (this.readOnly || parsed.record.broken) {
        id = derivedId(this.options.owner ?? '', vaultPath);
      } else {
        const stamped = await this.stampId(vaultPath, file.content, parsed, info);
        if (!stamped) return this.ingest(vaultPath, cached);
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
    this.emit('note', record, parsed.body);
    return record;
  }

  private bodyOf(content: string, record: NoteRecord): string {
    return record.broken ? content : splitFrontmatter(content).body;
  }

  /**
   * Write a new id (and `created`, when missing) into a file's frontmatter,
   * changing no other byte and keeping its modification time, so that its
   * `updated` does not move. Returns undefined if the file changed meanwhile.
   */
  private async stampId(
    vaultPath: string,
    content: string,
    parsed: ParsedNote,
    info: { mtimeMs: number; atimeMs: number; birthtimeMs: number },
  ): Promise<{ id: string; parsed: ParsedNote } | undefined> {
    const id = randomUUID();
    const updates: Record<string, unknown> = { id };
    if (parsed.data.created === undefined) updates.created = formatIso(new Date(parsed.record.createdMs));
    const next = setFrontmatterKeys(content, updates);
    const abs = this.absolute(vaultPath);
    try {
      await replaceFileAtomic(abs, next, { beforeRename: () => this.assertUnchanged(vaultPath, parsed.record.hash) });
    } catch (error) {
      if (error instanceof ConcurrentEditError) return undefined;
      throw error;
    }
    await utimes(abs, new Date(info.atimeMs), new Date(info.mtimeMs));
    const after = await lstat(abs);
    const reparsed = parseNoteFile({
      path: vaultPath,
      content: next,
      size: after.size,
      mtimeMs: after.mtimeMs,
      birthtimeMs: info.birthtimeMs,
      outsideEditMs: parsed.record.outsideEditMs,
    });
    return { id, parsed: reparsed };
  }

  private async assertUnchanged(vaultPath: string, hash: string): Promise<void> {
    const current = await this.readBytes(vaultPath);
    if (!current || hashContent(current.bytes) !== hash) throw new ConcurrentEditError();
  }

  /**
   * Bring the model in step with the disk after a period nobody watched
   * (the first read runs before the watcher starts, so that the two do not
   * compete): files whose size or modification time differ are read again,
   * new ones added, vanished ones dropped.
   */
  async reconcile(): Promise<void> {
    const scan = await scanVault(this.root, this.options.log);
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
      if (await this.readBytes(vaultPath)) return;
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
      const file = await this.readBytes(record.path);
      if (file && hashContent(file.bytes) === record.hash) return { record, body: this.bodyOf(file.content, record) };
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
        const file = await this.readBytes(record.path);
        if (!file) return 'missing';
        if (this.records.get(id)?.path !== record.path) return 'retry';
        const hash = hashContent(file.bytes);
        const current = hash === record.hash ? record : await this.ingest(record.path);
        if (!current || current.id !== id) return 'retry';
        this.assertWritable(current);
        const next = change(file.content, current);
        if (next === undefined) return { record: current, body: this.bodyOf(file.content, current) };
        const abs = this.absolute(record.path);
        try {
          await replaceFileAtomic(abs, next, { beforeRename: () => this.assertUnchanged(record.path, hash) });
        } catch (error) {
          if (error instanceof ConcurrentEditError) return 'retry';
          throw error;
        }
        const info = await lstat(abs);
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
      const dirAbs = folder === null ? this.root : await resolveInside(this.root, folder);
      if (folder !== null) await mkdir(dirAbs, { recursive: true });
      // The folder must still be inside after creating it (a link raced in).
      const realDir = await realpath(dirAbs);
      if (!isWithin(this.root, realDir)) throw new FolderNotFoundError(folder ?? '');

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
        try {
          // A fresh block, so that text which itself begins with `---` stays body.
          const content = setFrontmatterKeys('', frontmatter) + request.text;
          await createFileExclusive(path.join(realDir, `${base}.md`), content);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
          throw error;
        }
        const record = await this.lock.run(vaultPath, () => this.ingest(vaultPath));
        if (!record) throw new DexiError('The note was created but vanished at once; another program removed it.');
        return { record, body: request.text };
      }
      throw new DexiError('Could not find a free file name for this title; choose another title.');
    });
  }

  private pathTakenIgnoringCase(vaultPath: string): boolean {
    const lower = vaultPath.toLowerCase();
    for (const taken of this.idByPath.keys()) if (taken.toLowerCase() === lower) return true;
    return false;
  }

  /** Delete a note's file and its attachment, if the attachment is a file inside the vault. */
  async delete(id: string): Promise<NoteRecord> {
    const record = this.records.get(id);
    if (!record) throw new NoteNotFoundError();
    if (this.readOnly) throw new ReadOnlyNoteError("This is a teammate's shared note; it can be read but not deleted.");
    return this.lock.run(record.path, async () => {
      const current = this.records.get(id);
      if (!current) throw new NoteNotFoundError();
      try {
        await unlink(this.absolute(current.path));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      if (current.attachment) await this.deleteAttachment(current);
      this.unplace(current);
      this.emit('removed', current);
      return current;
    });
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
