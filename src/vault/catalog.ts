import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { FoldedNameSet } from '../storage/names.js';
import { keptDates, noteDates } from '../format/dates.js';
import type { GitHistory } from './git/git-history.js';
import { pathId, teammateNoteId } from '../format/identity.js';
import { isIgnoredPath } from './ignore.js';
import type { NoteRecord } from './note.js';
import type { RecordTable, RowNumbers } from './record-table.js';
import type { StagedRows } from './staged-rows.js';
import { folderOf } from './parse.js';
import { DeferredIndex } from './deferred-index.js';
import { LinkIndex } from './link-index.js';
import { PropertyIndex } from './property-index.js';
import { TagIndex } from './tag-index.js';

/** Rows made into records between two turns of the event loop, after the first read (`makeRowsInSteps`). */
const ROWS_PER_STEP = 1000;
/** How long a vanished note's id waits for its content to turn up at another path (a move the watcher reports as unlink + add). */
const MOVE_MEMORY_MS = 30_000;
/** How long a note gone since the cache was saved waits for its content at a new path: through a first read of 100,000 notes (46-125 s in BENCHMARKS.md). */
export const FIRST_READ_MEMORY_MS = 30 * 60_000;

/** A path as a case-insensitive file system compares it. */
export function foldPath(vaultPath: string): string {
  return vaultPath.normalize('NFC').toLowerCase();
}

/**
 * The notes and folders the server knows, in memory: by id, by path and by
 * content (to tell a move), with each record's dates decided from the git
 * history where there is one. Pure bookkeeping: no file is touched here.
 */
export class Catalog {
  /** By id: a record, or the row of `rows` it is still to be made from (`adoptRows`). */
  private records = new Map<string, NoteRecord | number>();
  /** The cached records a first read placed unchanged (`adoptRows`), until every row is made. */
  private rows: RecordTable | undefined;
  /** How many values of `records` are rows still to be made. */
  private unmade = 0;
  private idByPath = new Map<string, string>();
  /** Each path of idByPath folded (`foldPath`), with how many paths fold to it; made on first use. */
  private foldedPaths: Map<string, number> | undefined;
  /**
   * One id per content hash: finds the note a new path was moved from. Made
   * on first use and kept in step after: a warm start with nothing moved
   * does not pay for it (60-80 ms at 100,000 notes, BENCHMARKS.md, issue 31).
   */
  private idByHash: Map<string, string> | undefined;
  /** Notes whose file went, by content hash, oldest first: a new path with the same content is the same note, moved. */
  private readonly recentlyGone = new Map<string, { record: NoteRecord; until: number }>();
  private readonly folderSet = new FoldedNameSet();
  /**
   * `records` by tag, made after the first read (`indexTagsInSteps`) or by the
   * first tag filter before that, then kept in step wherever `records`
   * changes. Made while the first read placed each note, it put a warm
   * start's placing at 800 ms instead of 260 at 100,000 notes (issue 17).
   */
  private readonly byTag = new DeferredIndex(
    () => new TagIndex<NoteRecord>(),
    () => this.all(),
    (record) => this.records.get(record.id) === record,
  );
  /**
   * The links both ways, made when first asked for (a note's links, a move)
   * and kept in step from then on. Made in steps after the first read like
   * `byTag`, its 120-210 ms at 100,000 notes (in-process) ran beside the
   * full-text index being made searchable, and the warm starts measured
   * 2.46 and 2.99 s with it against 2.35 s without (BENCHMARKS.md, issue 18).
   */
  private readonly byLink = new DeferredIndex(
    () => new LinkIndex(),
    () => this.all(),
    (record) => this.records.get(record.id) === record,
  );
  /** The notes by frontmatter property (list_notes `where`, list_properties), made when first asked for and kept in step from then on. */
  private readonly byProperty = new DeferredIndex(
    () => new PropertyIndex(),
    () => this.all(),
    (record) => this.records.get(record.id) === record,
  );
  private git: GitHistory | undefined;
  /**
   * Told when a note is placed at a new path under the id it had at another
   * (a move by a tool, a rename seen or found at start), before anything is
   * answered: what the server learns of identity must outlast the process.
   */
  onMoved: ((record: NoteRecord, from: string) => void) | undefined;

  /** `owner` namespaces a teammate's vault's path ids. */
  constructor(private readonly owner = '') {}

  get size(): number {
    return this.records.size;
  }

  all(): IterableIterator<NoteRecord> {
    // Once every row is made, the map holds records only.
    return this.unmade === 0 ? (this.records.values() as IterableIterator<NoteRecord>) : this.makingAll();
  }

  private *makingAll(): Generator<NoteRecord, undefined> {
    for (const [id, value] of this.records) yield typeof value === 'number' ? this.make(id, value) : value;
    return undefined;
  }

  get(id: string): NoteRecord | undefined {
    const value = this.records.get(id);
    return typeof value === 'number' ? this.make(id, value) : value;
  }

  /**
   * Take the rows a first read staged and its listing confirmed
   * (staged-rows.ts) as notes, each made into a record when first read
   * (dated then, with the git history known then) or in steps after the
   * read (`makeRowsInSteps`): at once, taking over the staged maps, when the
   * catalog holds no note and no index yet; else each made and placed now.
   * `staged` is not to be used after.
   */
  adoptRows(staged: StagedRows): void {
    // An index made meanwhile (a tag filter during the read) must be told of each.
    if (this.records.size > 0 || this.byTag.live || this.byLink.live || this.byProperty.live) {
      for (const row of staged.rows()) this.place(staged.table.record(row));
      return;
    }
    [this.records, this.idByPath] = [staged.records, staged.idByPath];
    this.foldedPaths = undefined;
    this.idByHash = undefined;
    this.unmade = this.records.size;
    this.rows = this.unmade > 0 ? staged.table : undefined;
  }

  /** The record of row `row` of `rows`, made now and kept in its place. */
  private make(id: string, row: number): NoteRecord {
    const record = this.dated((this.rows as RecordTable).record(row));
    this.records.set(id, record);
    // The table is let go with its last row.
    if (--this.unmade === 0) this.rows = undefined;
    return record;
  }

  /** Make every row still to be made, a slice at a time with the event loop free in between (after the first read). */
  async makeRowsInSteps(): Promise<void> {
    const entries = this.records.entries();
    while (this.unmade > 0) {
      let made = 0;
      for (let entry = entries.next(); !entry.done; entry = entries.next()) {
        const [id, value] = entry.value;
        if (typeof value === 'number') this.make(id, value);
        if (++made === ROWS_PER_STEP) break;
      }
      if (made < ROWS_PER_STEP) break;
      await yieldToEventLoop();
    }
  }

  /**
   * The notes with a tag that one of `candidates` covers (`noteHasTag`; a
   * filter's `tagFilterCandidates`), each once, in no particular order:
   * found through the tag index, not a pass over every note.
   */
  tagged(candidates: readonly string[]): Iterable<NoteRecord> {
    return this.byTag.now().tagged(candidates);
  }

  /** The links of the vault both ways (made now when it is not yet). */
  get links(): LinkIndex {
    return this.byLink.now();
  }

  /** The notes by property (made now when it is not yet). */
  get properties(): PropertyIndex {
    return this.byProperty.now();
  }

  /** Make the records still rows, then the tag index, a slice at a time with the event loop free in between (after the first read). */
  async indexTagsInSteps(): Promise<void> {
    await this.makeRowsInSteps();
    await this.byTag.makeInSteps();
  }

  private put(record: NoteRecord, old?: NoteRecord): void {
    this.byTag.live?.put(record, old);
    this.byLink.live?.put(record, old);
    this.byProperty.live?.put(record, old);
  }

  atPath(vaultPath: string): NoteRecord | undefined {
    const id = this.idByPath.get(vaultPath);
    return id === undefined ? undefined : this.get(id);
  }

  /** Counts changes to the set of folders (a folder boundary's meaning can change only with it). */
  get folderChanges(): number {
    return this.folderSet.changes;
  }

  /** Every folder, empty ones too, vault-relative. */
  folders(): string[] {
    return [...this.folderSet].sort();
  }

  /**
   * The folder a name stands for: the folder spelt exactly so, else the only
   * one that differs from it just in case (full Unicode case folding,
   * `foldName`); undefined when there is none, or several and none spelt
   * exactly so. Never one look-alike of several (`Work/`, `WORK/`, `work/` on
   * a case-sensitive file system). Constant time: the set keeps its names
   * grouped by folded key.
   */
  findFolder(name: string): string | undefined {
    const trimmed = name.startsWith('/') || name.endsWith('/') ? name.replace(/^\/+|\/+$/g, '') : name;
    return this.folderSet.resolve(trimmed);
  }

  setFolders(folders: readonly string[]): void {
    this.folderSet.clear();
    for (const folder of folders) this.folderSet.add(folder);
  }

  addFolder(folder: string): void {
    if (!isIgnoredPath(folder)) this.folderSet.add(folder);
  }

  hasFolder(folder: string): boolean {
    return this.folderSet.has(folder);
  }

  /** A folder and everything below it went. */
  removeFolder(folder: string): void {
    const prefix = `${folder}/`;
    for (const name of [...this.folderSet]) if (name === folder || name.startsWith(prefix)) this.folderSet.delete(name);
  }

  /**
   * Put a note's record in place. `before` is the same note as the server
   * knew it (by default the record placed under its id): its dates go with
   * it across a move, and a change of content is an edit seen (`keptDates`).
   */
  place(record: NoteRecord, before: NoteRecord | undefined = this.get(record.id), seen = true): void {
    const dated = this.dated(before && before !== record ? withKeptDates(record, before, seen) : record);
    const old = this.get(dated.id);
    if (old && old.path !== dated.path) this.deletePath(old.path);
    if (old && old.hash !== dated.hash && this.idByHash?.get(old.hash) === old.id) this.idByHash.delete(old.hash);
    this.records.set(dated.id, dated);
    this.put(dated, old);
    this.setPath(dated.path, dated.id);
    if (dated.size > 0) this.idByHash?.set(dated.hash, dated.id);
    this.addFolders(dated.folder);
    if (before && before.path !== dated.path) this.onMoved?.(dated, before.path);
  }

  /** A note's folder and every folder above it. */
  private addFolders(folder: string | null): void {
    // A folder already known has its parents known too.
    for (let at = folder; at !== null && !this.folderSet.has(at); at = folderOf(at)) this.folderSet.add(at);
  }

  /** Place what the server itself just wrote (an edit at a tool's request, a move): no edit seen, see `keptDates`. */
  placeOwnWrite(record: NoteRecord): void {
    this.place(record, this.get(record.id), false);
  }

  /**
   * Give the note `id` the dates `dates` had, as a move does: for a write
   * that is part of a move (the title a numbered file name could not hold),
   * no edit. False when there is no such note or nothing changed.
   */
  keepDates(id: string, dates: Pick<NoteRecord, 'createdMs' | 'updatedMs'>): boolean {
    const record = this.get(id);
    if (!record || (record.createdMs === dates.createdMs && record.updatedMs === dates.updatedMs)) return false;
    const kept: NoteRecord = { ...record, keptCreatedMs: dates.createdMs, keptUpdatedMs: dates.updatedMs };
    // Placed as its own `before`: nothing is handed on, the dates are decided from `kept` alone.
    this.place(kept, kept);
    return true;
  }

  unplace(record: NoteRecord): void {
    const current = this.get(record.id);
    if (current?.path === record.path) {
      this.records.delete(record.id);
      this.byTag.live?.remove(current);
      this.byLink.live?.remove(current);
      this.byProperty.live?.remove(current);
    }
    if (this.idByPath.get(record.path) === record.id) this.deletePath(record.path);
    if (this.idByHash?.get(record.hash) === record.id) this.idByHash.delete(record.hash);
  }

  /**
   * Remember a vanished note by its content, for a while (`keepMs`), so that
   * its content turning up elsewhere counts as a move. The first read
   * remembers the notes gone since the cache for longer than it may take to
   * reach their new paths (`FIRST_READ_MEMORY_MS`).
   */
  rememberGone(record: NoteRecord, keepMs = MOVE_MEMORY_MS): void {
    if (record.size === 0) return; // every empty note looks alike
    const now = Date.now();
    this.recentlyGone.delete(record.hash);
    this.recentlyGone.set(record.hash, { record, until: now + keepMs });
    for (const [hash, gone] of this.recentlyGone) {
      if (gone.until > now) break;
      this.recentlyGone.delete(hash);
    }
  }

  /** The note currently known with this content, if any. */
  holderOfContent(hash: string): NoteRecord | undefined {
    const id = this.contentIndex().get(hash);
    return id === undefined ? undefined : this.get(id);
  }

  private contentIndex(): Map<string, string> {
    if (this.idByHash) return this.idByHash;
    const byHash = new Map<string, string>();
    for (const [id, value] of this.records) {
      const rows = this.rows as RecordTable;
      const { size, hash } = typeof value === 'number' ? { size: rows.size(value), hash: rows.hash(value) } : value;
      if (size > 0) byHash.set(hash, id);
    }
    this.idByHash = byHash;
    return byHash;
  }

  /** The note whose file went moments ago with this content (its id and dates), taken (once) for a new path. */
  takeGone(hash: string): NoteRecord | undefined {
    const gone = this.recentlyGone.get(hash);
    if (!gone || Date.now() >= gone.until || this.records.has(gone.record.id)) return undefined;
    this.recentlyGone.delete(hash);
    return gone.record;
  }

  /**
   * The id a note whose frontmatter says `id` has here: that id in the
   * person's own vault; in a teammate's, an id of its own derived from the
   * owner and that id, so that a teammate's note can never stand for one of
   * the person's notes (a note copied between the vaults keeps its
   * frontmatter id in both).
   */
  noteIdOf(frontmatterId: string): string {
    return this.owner === '' ? frontmatterId : teammateNoteId(this.owner, frontmatterId);
  }

  /** The note's path id, or the next candidate when a note moved away from this path still holds it. */
  freePathId(vaultPath: string): string {
    for (let attempt = 1; ; attempt++) {
      const id = pathId(vaultPath, this.owner, attempt);
      const holder = this.get(id);
      if (!holder || holder.path === vaultPath) return id;
    }
  }

  private setPath(vaultPath: string, id: string): void {
    if (this.foldedPaths && !this.idByPath.has(vaultPath)) {
      const key = foldPath(vaultPath);
      this.foldedPaths.set(key, (this.foldedPaths.get(key) ?? 0) + 1);
    }
    this.idByPath.set(vaultPath, id);
  }

  private deletePath(vaultPath: string): void {
    if (!this.idByPath.delete(vaultPath) || !this.foldedPaths) return;
    const key = foldPath(vaultPath);
    const count = (this.foldedPaths.get(key) ?? 1) - 1;
    if (count > 0) this.foldedPaths.set(key, count);
    else this.foldedPaths.delete(key);
  }

  /**
   * Case- and normalisation-insensitive, as macOS and Windows file systems (and
   * sync between them) compare names. The folded paths are gathered on the
   * first ask and kept in step after: comparing against every path on each ask
   * made an import of 10,000 e-mails into a 10,000-note vault take 134 s
   * (BENCHMARKS.md, "Issue 19"), and a first read should not pay for a map
   * only creates use.
   */
  pathTakenIgnoringCase(vaultPath: string): boolean {
    if (!this.foldedPaths) {
      this.foldedPaths = new Map();
      for (const taken of this.idByPath.keys()) {
        const key = foldPath(taken);
        this.foldedPaths.set(key, (this.foldedPaths.get(key) ?? 0) + 1);
      }
    }
    return this.foldedPaths.has(foldPath(vaultPath));
  }

  get gitHead(): string | undefined {
    return this.git?.head;
  }

  /** Take new git dates; returns how many notes' dates changed. */
  setGit(history: GitHistory): number {
    this.git = history;
    let changed = 0;
    for (const [id, value] of [...this.records]) {
      if (typeof value === 'number') {
        // A row is dated when it is made: made now only if these dates change it (a row is never in an index).
        const rows = this.rows as RecordTable;
        const numbers = rows.numbers(value);
        const { createdMs, updatedMs } = this.datesOf(numbers, rows.path(value), rows.hash(value));
        if (createdMs === numbers.createdMs && updatedMs === numbers.updatedMs) continue;
        this.make(id, value);
        changed++;
        continue;
      }
      const dated = this.dated(value);
      if (dated === value) continue;
      this.records.set(dated.id, dated);
      this.put(dated, value);
      changed++;
    }
    return changed;
  }

  /** The record with `created` and `updated` decided from everything known now, git history and the note's past included. */
  private dated(record: NoteRecord): NoteRecord {
    const { createdMs, updatedMs } = this.datesOf(record, record.path, record.hash);
    return createdMs === record.createdMs && updatedMs === record.updatedMs ? record : { ...record, createdMs, updatedMs };
  }

  private datesOf(numbers: RowNumbers, notePath: string, hash: string): Pick<NoteRecord, 'createdMs' | 'updatedMs'> {
    const committed = this.git?.files.get(notePath.normalize('NFC'));
    return noteDates({
      statedCreatedMs: numbers.statedCreatedMs,
      statedUpdatedMs: numbers.statedUpdatedMs,
      gitFirstAddedMs: committed?.firstAddedMs,
      gitLastCommitMs: committed !== undefined && committed.blob === hash ? committed.lastCommitMs : undefined,
      keptCreatedMs: numbers.keptCreatedMs,
      keptUpdatedMs: numbers.keptUpdatedMs,
      editedMs: numbers.editedMs,
      birthtimeMs: numbers.birthtimeMs,
      mtimeMs: numbers.mtimeMs,
    });
  }
}

/** `record` with what `before` (the same note, as known until now) hands on: see `keptDates`. */
function withKeptDates(record: NoteRecord, before: NoteRecord, seen: boolean): NoteRecord {
  const next = { ...record };
  delete next.keptCreatedMs;
  delete next.keptUpdatedMs;
  delete next.editedMs;
  return Object.assign(next, keptDates(record, before, seen));
}
