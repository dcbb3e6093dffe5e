import type { FullTextHit } from '../index/fulltext/fulltext.js';
import { notePhraseCheck } from '../index/fulltext/note-phrases.js';
import { onlyExclusions, ONLY_EXCLUSIONS, parseQuery, queryWords, wordForWordCoverageOf, type QueryWords } from '../index/fulltext/query-syntax.js';
import type { Visibility } from '../index/fulltext/visibility.js';
import type { SemanticIndexer } from '../index/vectors/semantic-indexer.js';
import { DexiError, InvalidInputError, NoteNotFoundError, ReadOnlyNoteError } from '../vault/errors.js';
import type { NoteRecord, NoteWithBody } from '../vault/note.js';
import { countProperties, type CountedVault, type PropertyCount, type WhereQuery } from '../format/property-query.js';
import type { ActivityLog, WriteJournal } from '../vault/record/activity.js';
import type { BodyOperation } from '../vault/body-edits.js';
import type { Deleted, UpdateRequest, Vault } from '../vault/vault.js';
import type { PropertyValue } from '../vault/properties.js';
import { watchNotes, type NoteWatcher } from './note-changes.js';
import { awaitFirstRead, type ReadProgress } from './readiness.js';
import { boundaryKey, folderVisible, isBounded, noteInBoundary, SHARED_NOTES_KEY, sharedNotesVisible, type AccessPolicy } from './policy.js';
import { ViewWrites, type NewNote } from './view-writes.js';
import { bySimilarity, embeddingProgressOf, nearestBesideAnchor, nearestCosines, similarityMap, type CalibrationScope } from './meaning-calibration.js';
import { NEAREST_RANK } from '../index/vectors/vault-calibration.js';
import { DailyNotesView } from './daily-notes-view.js';
import type { CompleteTaskRequest } from '../vault/tasks.js';
import type { RenameConfirm, RenameProgress, TagRenameOutcome } from './tag-renaming.js';

export type { NoteWatcher } from './note-changes.js';
export type { EmbeddingProgress, NoteConnections, SearchIndexes, VisibleHit, VisibleNote } from './view-types.js';
import type { EmbeddingProgress, NoteConnections, SearchIndexes, VisibleHit, VisibleNote } from './view-types.js';

/** A full-text hit with the vault it came from, as results of several vaults are merged. */
interface RankedTextHit extends FullTextHit {
  vault: Vault;
}

/**
 * The vault as one connection may see it: the only handle a tool gets. Every
 * tool reads, searches and writes through a view, so the access policy is
 * applied in this one place: a note outside the boundary is
 * indistinguishable from one that does not exist.
 */
export class VaultView {
  /** The writes, deciding their boundary with this view's reads (view-writes.ts). */
  private readonly writes: ViewWrites;
  /** What get_daily_note reads, through this view (daily-notes-view.ts). */ readonly daily: DailyNotesView;

  constructor(
    private readonly own: Vault,
    private readonly teammates: readonly Vault[],
    readonly policy: AccessPolicy,
    private readonly indexes: SearchIndexes = { fulltext: new Map(), semantic: undefined },
    /** Where this connection's writes are recorded, and the connection's name there ("stdio", "token NAME"). */
    private readonly activity?: { log: ActivityLog; by: string },
  ) {
    this.writes = new ViewWrites({
      own,
      policy,
      seesOwn: (record) => this.seesOwn(record),
      writable: (id) => this.writable(id),
      visibleFolders: () => this.folderCounts().folders.keys(),
      journal: (tool) => this.journal(tool),
      ownNotes: (tagged) => this.ownNotes(tagged),
    });
    this.daily = new DailyNotesView({ own, policy, seesOwn: (record) => this.seesOwn(record) });
  }

  /** The journal of one tool call's writes, when writes are recorded. */
  private journal(tool: string): WriteJournal | undefined {
    return this.activity?.log.journal({ tool, by: this.activity.by });
  }

  /**
   * Full-text search over what this connection sees: the page `page` of
   * `size` hits, best first, and how many match in all (`approximate` when
   * that is an estimate: see `FullTextIndex#query`). The query may use the
   * syntax of src/index/fulltext/query-syntax.ts; one that only leaves words out is
   * refused.
   */
  async searchText(query: string, page: number, size: number): Promise<{ hits: VisibleHit[]; total: number; approximate?: true }> {
    // Parsed once, here: each vault's index is handed the words.
    const words = queryWords(parseQuery(query));
    if (onlyExclusions(words)) throw new InvalidInputError(ONLY_EXCLUSIONS);
    const wanted = page * size;
    const { found, total, approximate } = await this.rankText(words, wanted);
    const hits: VisibleHit[] = [];
    for (const hit of found.slice(wanted - size, wanted)) {
      const note = this.visibleIn(hit.vault, hit.id);
      if (note) hits.push({ note, score: hit.score, terms: hit.terms });
    }
    return approximate ? { hits, total, approximate: true } : { hits, total };
  }

  /** The best `wanted` full-text hits over the vaults this connection searches, merged, best first. */
  private async rankText(words: QueryWords, wanted: number): Promise<{ found: RankedTextHit[]; total: number; approximate: boolean }> {
    // Each vault's index counts its visible matches and keeps the best
    // `wanted`; the page is cut from those, merged across vaults.
    const found: RankedTextHit[] = [];
    let total = 0;
    let approximate = false;
    for (const vault of this.searchableVaults()) {
      const index = this.indexes.fulltext.get(vault);
      if (!index) continue;
      // The index looks for phrases in the vault's notes itself; the view says only which notes count.
      const ranked = await index.query(words, this.visibility(vault), wanted, notePhraseCheck(vault));
      total += ranked.total;
      approximate ||= ranked.approximate === true;
      for (const hit of ranked.hits) found.push({ vault, ...hit });
    }
    found.sort((a, b) => b.coverage - a.coverage || b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { found, total, approximate };
  }

  /** Whether the server runs semantic search at all (its tools are listed only then). */
  get semanticEnabled(): boolean {
    return this.indexes.semantic !== undefined;
  }

  private semanticIndex(): SemanticIndexer {
    const semantic = this.indexes.semantic;
    if (!semantic) throw new DexiError('Semantic search is not enabled on this server; use search_notes.');
    const error = semantic.error;
    if (error) throw new DexiError(`Semantic search is unavailable (${error}); search_notes still works.`);
    return semantic;
  }

  /**
   * Progress while notes this connection sees are still being embedded (or
   * not yet checked against their cached vectors, right after a start);
   * undefined once every one is, when an answer covers them all. Counted over
   * the notes this connection sees, never the vault's. A note whose text
   * could not be embedded counts on neither side: it never will be.
   */
  embeddingProgress(): EmbeddingProgress | undefined {
    const semantic = this.indexes.semantic;
    return !semantic || semantic.ready ? undefined : embeddingProgressOf(semantic, this.allNotes());
  }

  /**
   * Notes closest in meaning to `query`, among those this connection sees,
   * by the similarity they show (meaning-calibration.ts). A note that holds
   * every word of a query of three words or more (`wordForWordMatch`) is
   * always in, its similarity raised to ANCHOR_SIMILARITY.
   */
  async searchMeaning(query: string, size: number): Promise<VisibleHit[]> {
    const semantic = this.semanticIndex();
    const anchor = await this.wordForWordMatch(queryWords(parseQuery(query)));
    const [vector] = await semantic.embedQueries([query]);
    if (!vector) return [];
    // One hit more with an anchor: the vectors' own nearest stay whole beside it (nearestBesideAnchor).
    const hits = await semantic.searchVector(vector, Math.max(size, NEAREST_RANK) + (anchor === undefined ? 0 : 1), (id) => this.find(id) !== undefined, anchor);
    const nearest = nearestBesideAnchor(hits, anchor);
    const similarity = await similarityMap(this.calibrationScope(semantic), 'query', (id) => semantic.scoreNote(vector, id), nearest);
    return bySimilarity(this.visibleHits(hits), similarity, anchor).slice(0, size);
  }

  /** What the similarity calibration sees of this connection: its notes alone, keyed by its boundary. */
  private calibrationScope(semantic: SemanticIndexer): CalibrationScope {
    const visible = (id: string): boolean => this.find(id) !== undefined;
    const titleOf = (id: string): string => this.find(id)?.record.title ?? '';
    const visibleIds = (): Iterable<string> => Array.from(this.allNotes(), ({ record }) => record.id);
    return { semantic, key: `${boundaryKey(this.policy, this.own)}${sharedNotesVisible(this.policy) ? '+shared' : ''}`, visible, visibleIds, titleOf };
  }

  /**
   * The visible note full-text search ranks first for `query`, when the
   * query has three words or more (`wordForWordCoverage`) and that note holds every one:
   * a sentence copied from a note, a rare name with its context. Vectors
   * alone missed such notes (a copied sentence's note in the top 5 for 90 %
   * of the labeled notes, first for 71 %); putting this one first brought
   * both to 100 % and changed no answer to the labeled topic queries, where
   * plain reciprocal-rank fusion cost a fifth of their recall (BENCHMARKS.md).
   */
  private async wordForWordMatch(words: QueryWords): Promise<string | undefined> {
    const coverage = wordForWordCoverageOf(words);
    if (coverage === undefined) return undefined;
    const [best] = (await this.rankText(words, 1)).found;
    return best && best.coverage === coverage ? best.id : undefined;
  }

  /** Notes closest in meaning to a visible note, never the note itself, by the similarity they show. */
  async similarTo(id: string, size: number): Promise<VisibleHit[]> {
    if (!this.find(id)) throw new NoteNotFoundError();
    const semantic = this.semanticIndex();
    if (!semantic.isEmbedded(id)) {
      if (semantic.hasFailed(id)) {
        throw new DexiError("That note's text could not be embedded, so it has no neighbours by meaning; use semantic_search with words from it.");
      }
      const progress = this.embeddingProgress();
      const done = progress ? ` (${progress.searchable.toLocaleString('en')} of ${progress.total.toLocaleString('en')} notes done)` : '';
      throw new DexiError(`That note has not been embedded yet${done}; try again in a minute, or use semantic_search with its title.`);
    }
    const hits = await semantic.similar(id, Math.max(size, NEAREST_RANK), (other) => other !== id && this.find(other) !== undefined);
    const similarity = await similarityMap(this.calibrationScope(semantic), 'note', (other) => semantic.noteCosine(id, other), nearestCosines(hits), id);
    return bySimilarity(this.visibleHits(hits), similarity).slice(0, size);
  }

  private visibleHits(hits: readonly { id: string; score: number }[]): VisibleHit[] {
    const visible: VisibleHit[] = [];
    for (const hit of hits) {
      const note = this.find(hit.id);
      if (note) visible.push({ note, score: hit.score });
    }
    return visible;
  }

  /** Whether the person's vault has been read. */
  get ready(): boolean {
    return this.own.ready;
  }

  /** Tools call this first: it waits for the first read of the vault, a moment or, with `progress`, longer (readiness.ts). */
  assertReady(what = 'The vault is still being read', waitMs?: number, progress?: ReadProgress): Promise<void> {
    return awaitFirstRead(this.own, this.policy, what, waitMs, progress);
  }

  /** Whether a note of the person's own vault is visible. */
  seesOwn(record: NoteRecord): boolean {
    return noteInBoundary(this.policy, record, this.own);
  }

  /**
   * The person's own in-boundary notes: the personal views (tags, folders,
   * reviews, filters). With `tagged` (a tag filter's `tagFilterCandidates`),
   * only those with a tag one of them covers (`noteHasTag`), found through
   * the vault's tag index and in no particular order.
   */
  ownNotes(tagged?: readonly string[]): Iterable<NoteRecord> {
    const records = tagged === undefined ? this.own.all() : this.own.tagged(tagged);
    // Without a boundary every note is visible, and the notes go out with no
    // test or generator step each: those took half of a tag-filtered
    // list_notes at 100,000 notes (11 against 5 ms in-process).
    return isBounded(this.policy) ? this.inBoundary(records) : records;
  }

  private *inBoundary(records: Iterable<NoteRecord>): Generator<NoteRecord> {
    for (const record of records) if (this.seesOwn(record)) yield record;
  }

  /** Teammates' shared notes, where this connection may see them; `tagged` as for `ownNotes`. */
  *sharedNotes(tagged?: readonly string[]): Generator<VisibleNote> {
    if (!sharedNotesVisible(this.policy)) return;
    for (const vault of this.teammates) {
      const records = tagged === undefined ? vault.all() : vault.tagged(tagged);
      for (const record of records) if (record.shared) yield { record, owner: vault.owner ?? 'teammate' };
    }
  }

  /**
   * Own in-boundary notes that hold every condition of `where`
   * (property-query.ts), found through the vault's property index: only the
   * notes of `tagged` (as for `ownNotes`), else of the narrowest property a
   * condition needs, are looked at.
   */
  ownNotesWhere(where: WhereQuery, tagged?: readonly string[]): Iterable<NoteRecord> {
    const base = tagged === undefined ? undefined : this.own.tagged(tagged);
    return where.select(this.own.properties, base, () => this.own.all(), isBounded(this.policy) ? (record) => this.seesOwn(record) : undefined);
  }

  /** Teammates' shared notes that hold `where`, where this connection may see them; `tagged` as for `ownNotes`. */
  *sharedNotesWhere(where: WhereQuery, tagged?: readonly string[]): Generator<VisibleNote> {
    if (!sharedNotesVisible(this.policy)) return;
    for (const vault of this.teammates) {
      const base = tagged === undefined ? undefined : vault.tagged(tagged);
      for (const record of where.select(vault.properties, base, () => vault.all(), (shared) => shared.shared)) yield { record, owner: vault.owner ?? 'teammate' };
    }
  }

  /** list_properties: the properties of the notes this connection sees, and of no other (property-query.ts, `countProperties`). */
  propertyCounts(): PropertyCount[] {
    const vaults: CountedVault<NoteRecord>[] = [
      { lookup: this.own.properties, records: () => this.own.all(), sees: isBounded(this.policy) ? (record) => this.seesOwn(record) : undefined },
    ];
    if (sharedNotesVisible(this.policy)) {
      for (const vault of this.teammates) vaults.push({ lookup: vault.properties, records: () => vault.all(), sees: (record) => record.shared });
    }
    return countProperties(vaults);
  }

  /** Own and shared notes: what list_notes and the searches cover. */
  *allNotes(): Generator<VisibleNote> {
    for (const record of this.ownNotes()) yield { record };
    yield* this.sharedNotes();
  }

  /** Find a visible note by id, own first, then shared. */
  find(id: string): VisibleNote | undefined {
    const own = this.own.get(id);
    if (own) return this.seesOwn(own) ? { record: own } : undefined;
    if (!sharedNotesVisible(this.policy)) return undefined;
    for (const vault of this.teammates) {
      const record = vault.get(id);
      if (record?.shared) return { record, owner: vault.owner ?? 'teammate' };
    }
    return undefined;
  }

  /**
   * Tell `watcher` of changes to the notes this connection may see (its own
   * vault's, and teammates' where shared notes are visible), until the
   * function returned is called: when the connection closes. The vaults
   * themselves stay private to the view, and each holds one listener
   * however many connections watch (note-changes.ts).
   */
  watch(watcher: NoteWatcher): () => void {
    return watchNotes(this.searchableVaults(), (id) => this.find(id) !== undefined, watcher);
  }

  /** The vaults this connection may search: its own, and teammates' where shared notes are visible. */
  private searchableVaults(): Vault[] {
    return sharedNotesVisible(this.policy) ? [this.own, ...this.teammates] : [this.own];
  }

  /** Whether this connection may see a note of a given vault: `visibleIn` without building the answer. */
  private canSee(vault: Vault, id: string): boolean {
    const record = vault.get(id);
    if (!record) return false;
    if (vault === this.own) return this.seesOwn(record);
    return record.shared && sharedNotesVisible(this.policy);
  }

  /**
   * The notes of one vault this connection sees, as its index is handed them;
   * undefined when it sees every note of it (its own vault, with no
   * boundary), so that the index can skip the test. Its key names the set
   * (`boundaryKey`): the index keeps what it works out for the set (its
   * ranking statistics) by it until its notes change, and shares it with
   * every connection of the same boundary.
   */
  private visibility(vault: Vault): Visibility | undefined {
    if (vault === this.own && !isBounded(this.policy)) return undefined;
    const key = vault === this.own ? boundaryKey(this.policy, this.own) : SHARED_NOTES_KEY;
    return { key, sees: (id) => this.canSee(vault, id) };
  }

  /** A note of a given vault if this connection may see it. */
  private visibleIn(vault: Vault, id: string): VisibleNote | undefined {
    const record = vault.get(id);
    if (!record || !this.canSee(vault, id)) return undefined;
    return vault === this.own ? { record } : { record, owner: vault.owner ?? 'teammate' };
  }

  /**
   * A visible note's links and backlinks as this connection may see them:
   * the notes it cannot see are as if they did not exist, so a link resolves
   * among the visible notes only (unresolved when none of them is what it
   * names), and a backlink comes only from a visible note. Backlinks come newest
   * first (by `updated`), at most `maxBacklinks`, with how many there are.
   */
  connections(note: VisibleNote, maxBacklinks: number): NoteConnections {
    const vault = note.owner === undefined ? this.own : this.teammateOf(note.record.id);
    const visibility = this.visibility(vault);
    const sees = visibility === undefined ? undefined : (record: NoteRecord): boolean => visibility.sees(record.id);
    const { notes: links, unresolved } = vault.linksOf(note.record, sees);
    const backlinks = [...vault.backlinksOf(note.record, sees)];
    backlinks.sort((a, b) => b.updatedMs - a.updatedMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { links, unresolved, backlinks: backlinks.slice(0, maxBacklinks), backlinkCount: backlinks.length };
  }

  /** Read a visible note with its body; invisible and unknown ids alike are "Note not found". */
  async read(id: string): Promise<NoteWithBody & { owner?: string }> {
    const found = this.find(id);
    if (!found) throw new NoteNotFoundError();
    const vault = found.owner === undefined ? this.own : this.teammateOf(id);
    const note = await vault.read(id);
    // The file may have changed since it was listed: visibility is decided on what was read.
    if (found.owner === undefined ? !this.seesOwn(note.record) : !note.record.shared) throw new NoteNotFoundError();
    return found.owner === undefined ? note : { ...note, owner: found.owner };
  }

  /** A note this connection may change: own and in-boundary. Shared notes are refused plainly. */
  writable(id: string): NoteRecord {
    const found = this.find(id);
    if (!found) throw new NoteNotFoundError();
    if (found.owner !== undefined) throw new ReadOnlyNoteError(`This note is shared by ${found.owner}; it can be read but not changed.`);
    return found.record;
  }

  /** Create a note, filed and tagged inside the boundary (`ViewWrites#create`). */
  create(request: NewNote, tool: string): Promise<NoteWithBody> {
    return this.writes.create(request, tool);
  }

  /** Change a note's body or title, keeping the boundary tag (`ViewWrites#update`). */
  update(id: string, request: Pick<UpdateRequest, 'mode' | 'text' | 'title'>, tool: string): Promise<NoteWithBody> {
    return this.writes.update(id, request, tool);
  }

  /** Edit inside a note's body, keeping the boundary tag (`ViewWrites#editBody`). */
  editBody(id: string, operation: BodyOperation, tool: string): Promise<NoteWithBody> {
    return this.writes.editBody(id, operation, tool);
  }

  /** set_properties, keeping the boundary tag and, under a boundary, the title (`ViewWrites#setProperties`). */
  setProperties(id: string, properties: Readonly<Record<string, PropertyValue>>, tool: string): Promise<NoteWithBody> {
    return this.writes.setProperties(id, properties, tool);
  }

  /** Tick or untick a task of an own, visible note (`ViewWrites#completeTask`). */
  completeTask(id: string, request: Omit<CompleteTaskRequest, 'admit'>, tool: string): Promise<NoteWithBody> {
    return this.writes.completeTask(id, request, tool);
  }

  /** rename_tag over the own notes this connection sees (`ViewWrites#renameTag`). */
  renameTag(from: string, to: string, tool: string, progress?: RenameProgress, confirm?: RenameConfirm): Promise<TagRenameOutcome> {
    return this.writes.renameTag(from, to, tool, progress, confirm);
  }

  /** Write frontmatter keys of an own, visible note (`ViewWrites#setFrontmatter`). */
  setFrontmatter(id: string, updates: Record<string, unknown>, tool: string): Promise<NoteRecord> {
    return this.writes.setFrontmatter(id, updates, tool);
  }

  /** Move and/or rename a note, inside the boundary (`ViewWrites#move`). */
  move(id: string, folderName: string | undefined, tool: string, newName?: string): Promise<NoteWithBody> {
    return this.writes.move(id, folderName, tool, newName);
  }

  /** Delete a note, and its attachment where the boundary admits it (`ViewWrites#delete`). */
  delete(id: string, tool: string): Promise<Deleted> {
    return this.writes.delete(id, tool);
  }

  private teammateOf(id: string): Vault {
    const vault = this.teammates.find((candidate) => candidate.get(id) !== undefined);
    if (!vault) throw new NoteNotFoundError();
    return vault;
  }

  /** Folders this connection may see, with the in-boundary notes directly inside each. */
  folderCounts(): { folders: Map<string, number>; unfiled: number } {
    const counts = new Map<string, number>();
    let unfiled = 0;
    for (const record of this.ownNotes()) {
      if (record.folder === null) unfiled++;
      else counts.set(record.folder, (counts.get(record.folder) ?? 0) + 1);
    }
    const folders = new Map<string, number>();
    for (const folder of this.own.folders()) {
      const count = counts.get(folder) ?? 0;
      if (folderVisible(this.policy, folder, count > 0, this.own)) folders.set(folder, count);
    }
    // A note may sit in a folder the scan has not reported yet (watcher lag).
    for (const [folder, count] of counts) if (!folders.has(folder) && folderVisible(this.policy, folder, true, this.own)) folders.set(folder, count);
    return { folders, unfiled };
  }
}
