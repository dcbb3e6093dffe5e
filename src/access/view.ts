import type { FullTextHit, FullTextIndex } from '../index/fulltext/fulltext.js';
import { notePhraseCheck } from '../index/fulltext/note-phrases.js';
import { onlyExclusions, ONLY_EXCLUSIONS, parseQuery, queryWords, wordForWordCoverageOf, type QueryWords } from '../index/fulltext/query-syntax.js';
import type { Visibility } from '../index/fulltext/visibility.js';
import type { SemanticIndexer } from '../index/vectors/semantic-indexer.js';
import { foldName, resolveName } from '../storage/names.js';
import { DexiError, FolderNotFoundError, InvalidInputError, NoteNotFoundError, NotReadyError, ReadOnlyNoteError } from '../vault/errors.js';
import { extractTags } from '../format/markdown.js';
import type { NoteRecord, NoteWithBody } from '../vault/note.js';
import { noteHasTag } from '../format/tags.js';
import { folderOf } from '../vault/parse.js';
import type { ActivityLog, WriteJournal } from '../vault/record/activity.js';
import type { BodyEditRequest, BodyOperation } from '../vault/body-edits.js';
import type { Deleted, PropertiesRequest, UpdateRequest, Vault } from '../vault/vault.js';
import { askedName } from '../vault/move-target.js';
import type { DailySettings } from '../format/daily-notes.js';
import { checkProperties, type PropertyUpdates, type PropertyValue } from '../vault/properties.js';
import { listenToNotes } from './note-changes.js';
import { boundaryKey, folderInBoundary, folderVisible, isBounded, keepsBoundaryTag, noteInBoundary, SHARED_NOTES_KEY, sharedNotesVisible, type AccessPolicy } from './policy.js';

/**
 * A new note's text with the boundary tag counted in it: as given when it
 * has the tag, else with the tag appended as a last paragraph. Text that
 * leaves a block open (a code fence, `<pre>`, `<script>`, an HTML comment)
 * would swallow an appended tag, so the tag then goes first instead; if it
 * still would not count, the create is refused. Pure.
 */
export function withBoundaryTag(body: string, tag: string | undefined): string {
  if (tag === undefined) return body;
  const counts = (text: string): boolean => noteHasTag(extractTags(text), [tag]);
  if (counts(body)) return body;
  if (body.trim() === '') return tag;
  const appended = `${body.replace(/\s+$/u, '')}\n\n${tag}`;
  if (counts(appended)) return appended;
  const prepended = `${tag}\n\n${body}`;
  if (counts(prepended)) return prepended;
  throw new InvalidInputError(`This connection is limited to the tag ${tag}, and the text would hide it (it leaves a block open); put ${tag} where it counts as a tag.`);
}

/**
 * The folder a move answers with: each folder of `landed` (where the note
 * went, spelt as on disk) that the connection saw before the move as it is,
 * (or a folder below it), each other one as the connection named it (`asked`, which folds alike
 * segment by segment). A folder it could not see, named in another case, is
 * moved into as it is spelt on disk (no look-alike is made beside it), and
 * the answer is the one it would be had that folder not been there. Pure.
 */
export function shownFolder(asked: string, landed: string, visible: ReadonlySet<string>): string {
  const wanted = asked.split('/');
  const spelt = landed.split('/');
  if (wanted.length !== spelt.length || foldName(asked) !== foldName(landed)) return landed;
  const seen = (folder: string): boolean => visible.has(folder) || [...visible].some((other) => other.startsWith(`${folder}/`));
  return spelt.map((segment, i) => (seen(spelt.slice(0, i + 1).join('/')) ? segment : (wanted[i] as string))).join('/');
}

/** What create_note asks for: `folder` as move_note names it, `properties` as set_properties takes them. */
export interface NewNote {
  title: string;
  text: string;
  noteCap: number | null;
  folder?: string | undefined;
  properties?: Readonly<Record<string, PropertyValue>> | undefined;
  /** The text opens with a frontmatter block of its own, kept (get_daily_note's template: CreateRequest.ownFrontmatter). */
  ownFrontmatter?: boolean;
}

/** How long a tool call waits for the first read of the vault before saying it is not ready. */
const READY_WAIT_MS = 2000;

/** A note as one connection sees it, with the vault it came from. */
export interface VisibleNote {
  record: NoteRecord;
  /** Set on a teammate's shared note. */
  owner?: string;
}

/** A note's links and backlinks, as `VaultView.connections` gives them. */
export interface NoteConnections {
  links: NoteRecord[];
  unresolved: string[];
  /** Newest first, at most the number asked for. */
  backlinks: NoteRecord[];
  backlinkCount: number;
}

/** The searches a view runs for its connection: each vault's full-text index, and semantic search when the server has a model. */
export interface SearchIndexes {
  fulltext: ReadonlyMap<Vault, FullTextIndex>;
  semantic: SemanticIndexer | undefined;
}

/** A search hit this connection may see. */
export interface VisibleHit {
  note: VisibleNote;
  score: number;
  /** Full-text search: the note's words that matched. */
  terms?: string[];
}

/** A full-text hit with the vault it came from, as results of several vaults are merged. */
interface RankedTextHit extends FullTextHit {
  vault: Vault;
}

/**
 * What a connection hears of the notes' changes through its view
 * (`VaultView#watch`).
 */
export interface NoteWatcher {
  /**
   * A note changed, appeared or went: `visible` says whether this connection
   * sees it now (a note removed is not visible). Told of a note it sees now,
   * and of one it cannot see only when `knows` names it: an id outside its
   * view that it was never given is never handed to it.
   */
  changed(id: string, visible: boolean): void;
  /** Whether the watcher was given this id before (a note it listed or follows). */
  knows(id: string): boolean;
}

/** How far semantic search has embedded the notes, while it is not done. */
export interface EmbeddingProgress {
  /** Visible notes embedded in full. */
  embedded: number;
  /** Visible notes searchable by meaning: embedded in full, or by their opening window so far. */
  searchable: number;
  total: number;
}

/**
 * The vault as one connection may see it: the only handle a tool gets. Every
 * tool reads, searches and writes through a view, so the access policy is
 * applied in this one place: a note outside the boundary is
 * indistinguishable from one that does not exist.
 */
export class VaultView {
  constructor(
    private readonly own: Vault,
    private readonly teammates: readonly Vault[],
    readonly policy: AccessPolicy,
    private readonly indexes: SearchIndexes = { fulltext: new Map(), semantic: undefined },
    /** Where this connection's writes are recorded, and the connection's name there ("stdio", "token NAME"). */
    private readonly activity?: { log: ActivityLog; by: string },
  ) {}

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

  /** The model's id, for its similarity calibration. */
  get embedderId(): string | undefined {
    return this.indexes.semantic?.embedderId;
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
    if (!semantic || semantic.ready) return undefined;
    let embedded = 0;
    let searchable = 0;
    let total = 0;
    for (const { record } of this.allNotes()) {
      if (semantic.hasFailed(record.id)) continue;
      total++;
      if (semantic.isComplete(record.id)) embedded++;
      if (semantic.isEmbedded(record.id)) searchable++;
    }
    return embedded === total ? undefined : { embedded, searchable, total };
  }

  /**
   * Notes closest in meaning to `query`, among those this connection sees.
   * A note that holds every word of a query of three words or more comes
   * first (`wordForWordMatch`).
   */
  async searchMeaning(query: string, size: number): Promise<VisibleHit[]> {
    const semantic = this.semanticIndex();
    const anchor = await this.wordForWordMatch(queryWords(parseQuery(query)));
    const hits = await semantic.search(query, size, (id) => this.find(id) !== undefined, anchor);
    return this.visibleHits(hits);
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

  /** Notes closest in meaning to a visible note, never the note itself. */
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
    const hits = await semantic.similar(id, size, (other) => other !== id && this.find(other) !== undefined);
    return this.visibleHits(hits);
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

  /**
   * Tools call this first. A call that arrives while the vault is still being
   * read waits a moment (a small vault is read in well under a second), then
   * says how far along the read is rather than hang.
   */
  async assertReady(what = 'The vault is still being read'): Promise<void> {
    if (await this.own.whenReady(READY_WAIT_MS)) return;
    const { done, total, phase } = this.own.progress;
    // How far the read is counts the whole vault: only a connection that sees all of it is told.
    const where = phase === 'reading' && total > 0 && !isBounded(this.policy) ? ` (${done.toLocaleString('en')} of ${total.toLocaleString('en')} notes read)` : '';
    throw new NotReadyError(`${what}${where}; try again in a few seconds.`);
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
    const stops = this.searchableVaults().map((vault) =>
      listenToNotes(vault, (id, removed) => {
        const visible = !removed && this.find(id) !== undefined;
        if (visible || watcher.knows(id)) watcher.changed(id, visible);
      }),
    );
    return () => {
      for (const stop of stops.splice(0)) stop();
    };
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

  /** Obsidian's daily notes settings of the person's vault, as get_daily_note follows them. */
  dailySettings(): Promise<DailySettings> {
    return this.own.dailySettings();
  }

  /**
   * The own note at a vault path (of plain segments), if this connection
   * sees it: spelt so, else in the folder of that name in another case (where
   * a create lands), looked for on the disk when the vault has not seen it
   * yet (a daily note made by hand a moment ago).
   */
  async ownNoteAt(vaultPath: string): Promise<NoteRecord | undefined> {
    if (vaultPath.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return undefined;
    const slash = vaultPath.lastIndexOf('/');
    const folder = slash < 0 ? null : (this.own.findFolder(vaultPath.slice(0, slash)) ?? vaultPath.slice(0, slash));
    const spelt = folder === null ? vaultPath : `${folder}/${vaultPath.slice(slash + 1)}`;
    let record = this.own.atPath(vaultPath) ?? this.own.atPath(spelt);
    if (record === undefined && folderInBoundary(this.policy, folder, this.own)) {
      await this.own.refresh(spelt);
      record = this.own.atPath(spelt);
    }
    return record !== undefined && this.seesOwn(record) ? record : undefined;
  }

  /** The whole file of the note a template setting names (as a link from the top of the vault), among the notes this connection sees. */
  templateText(linkPath: string): Promise<string | undefined> {
    return this.own.linkedFileText(linkPath, isBounded(this.policy) ? (record) => this.seesOwn(record) : undefined);
  }

  /** A note this connection may change: own and in-boundary. Shared notes are refused plainly. */
  writable(id: string): NoteRecord {
    const found = this.find(id);
    if (!found) throw new NoteNotFoundError();
    if (found.owner !== undefined) throw new ReadOnlyNoteError(`This note is shared by ${found.owner}; it can be read but not changed.`);
    return found.record;
  }

  /**
   * Refuses a write to a note outside the boundary, decided on the note as
   * it is under its lock (it may have been moved out since the tool looked):
   * such a note is "not found", as everywhere else.
   */
  private readonly admitOwn = (record: NoteRecord): void => {
    if (!this.seesOwn(record)) throw new NoteNotFoundError();
  };

  /**
   * Create a note: filed into `folder` (named as `move` takes it, bounded
   * alike) or else the boundary folder, the boundary tag added to its text
   * when missing, with `properties` in its frontmatter from the start.
   */
  async create(request: NewNote, tool: string): Promise<NoteWithBody> {
    const properties = request.properties === undefined ? undefined : this.checkedProperties(request.properties);
    const { folder, tag } = this.policy;
    const journal = this.journal(tool);
    const asked = request.folder === undefined ? undefined : this.askedFolder(request.folder);
    const made = await this.own.create({
      title: request.title,
      text: withBoundaryTag(request.text, tag),
      folder: asked !== undefined ? asked.folder : folder === undefined ? null : (this.own.findFolder(folder) ?? folder),
      noteCap: request.noteCap,
      ...(properties ? { properties } : {}),
      ...(journal ? { journal } : {}),
      ...(request.ownFrontmatter ? { ownFrontmatter: true } : {}),
    });
    return asked === undefined ? made : this.shownIn(made, asked);
  }

  /** Change a note's body or title; an edit that would take away the boundary tag is refused, naming it. */
  update(id: string, request: Pick<UpdateRequest, 'mode' | 'text' | 'title'>, tool: string): Promise<NoteWithBody> {
    this.writable(id);
    const { tag } = this.policy;
    const edit: UpdateRequest = { ...request, admit: this.admitOwn };
    if (tag !== undefined) edit.guard = this.keepsTag;
    return this.own.update(id, edit, this.journal(tool));
  }

  /** Edit inside an own, visible note's body (`edit_note`); as with update, an edit that would take away the boundary tag is refused. */
  editBody(id: string, operation: BodyOperation, tool: string): Promise<NoteWithBody> {
    this.writable(id);
    const edit: BodyEditRequest = { operation, admit: this.admitOwn };
    if (this.policy.tag !== undefined) edit.guard = this.keepsTag;
    return this.own.editBody(id, edit, this.journal(tool));
  }

  /** Refuses the tags a note would have after an edit when the boundary tag is not among them, naming it. */
  private readonly keepsTag = (tagsAfter: string[]): void => {
    const { tag } = this.policy;
    if (tag !== undefined && !keepsBoundaryTag(this.policy, tagsAfter)) {
      throw new InvalidInputError(`This edit would remove the tag ${tag}, which this connection is limited to; keep ${tag} in the text.`);
    }
  };

  /**
   * set_properties on an own, visible note (properties.ts: what may be set, and how); under a tag boundary, a change
   * that would take the boundary tag away (from `tags`, with no copy of it
   * in the body) is refused, naming it.
   */
  setProperties(id: string, properties: Readonly<Record<string, PropertyValue>>, tool: string): Promise<NoteWithBody> {
    // Checked before the note is looked up: the same answer for every id, and nothing written.
    const request: PropertiesRequest = { properties: this.checkedProperties(properties), admit: this.admitOwn };
    this.writable(id);
    const { tag } = this.policy;
    if (tag !== undefined) {
      request.guard = (tagsAfter) => {
        if (!keepsBoundaryTag(this.policy, tagsAfter)) {
          throw new InvalidInputError(`This change would remove the tag ${tag}, which this connection is limited to; keep ${tag} in tags.`);
        }
      };
    }
    return this.own.setProperties(id, request, this.journal(tool));
  }

  /**
   * checkProperties, and under a boundary no removal of `title`. Security:
   * the title would then come from the file name, which is numbered (` 2`)
   * where a note the connection cannot see held the name when it was made
   * or moved; a title given instead tells nothing.
   */
  private checkedProperties(properties: Readonly<Record<string, PropertyValue>>): PropertyUpdates {
    const updates = checkProperties(properties);
    if (isBounded(this.policy) && Object.hasOwn(updates, 'title') && updates.title === undefined) {
      throw new InvalidInputError('This connection cannot remove the title property; set it to the title wanted instead.');
    }
    return updates;
  }

  /** Write frontmatter keys of an own, visible note (a card's review block). */
  setFrontmatter(id: string, updates: Record<string, unknown>, tool: string): Promise<NoteRecord> {
    this.writable(id);
    return this.own.setFrontmatter(id, updates, this.admitOwn, this.journal(tool));
  }

  /**
   * Move an own, visible note into a folder (`"unfiled"`: the vault's top
   * level; left out: where it is), made when missing, and/or rename it
   * (`newName`, checked by `askedName`). The folder is named as list_folders names it
   * (any case); a name that is none of the folders this connection sees is
   * a new folder of that spelling. Under a folder boundary the folder must
   * lie inside it, else it is "Folder not found", as a folder outside is
   * everywhere else.
   */
  async move(id: string, folderName: string | undefined, tool: string, newName?: string): Promise<NoteWithBody> {
    this.writable(id);
    const name = newName === undefined ? undefined : askedName(newName);
    const asked = folderName === undefined ? undefined : this.askedFolder(folderName);
    const seen = isBounded(this.policy) ? (record: NoteRecord): boolean => this.seesOwn(record) : undefined;
    const target = name === undefined ? { folder: asked?.folder } : { folder: asked?.folder, name };
    const moved = await this.own.move(id, target, this.admitOwn, this.journal(tool), seen);
    return asked === undefined ? moved : this.shownIn(moved, asked);
  }

  /**
   * The folder a move or a create names (`"unfiled"`: the top level), as
   * `move` resolves it, with the folders this connection sees; "Folder not
   * found" for one outside its boundary.
   */
  private askedFolder(folderName: string): { folder: string | null; visible: Set<string> } {
    const trimmed = folderName.trim().replace(/^\/+|\/+$/g, '');
    let folder: string | null = null;
    // Resolved among the folders this connection sees, so that a look-alike spelling outside its view is never revealed.
    const visible = new Set(this.folderCounts().folders.keys());
    if (trimmed.toLowerCase() !== 'unfiled') folder = resolveName(trimmed, visible) ?? trimmed;
    if (!folderInBoundary(this.policy, folder, this.own)) throw new FolderNotFoundError(folderName);
    return { folder, visible };
  }

  /** A note that landed in the folder asked for, with that folder as the connection knows it (see `shownFolder`). */
  private shownIn(note: NoteWithBody, asked: { folder: string | null; visible: Set<string> }): NoteWithBody {
    const landed = note.record.folder;
    if (asked.folder === null || landed === null || landed === asked.folder) return note;
    return { ...note, record: { ...note.record, folder: shownFolder(asked.folder, landed, asked.visible) } };
  }

  /** Delete an own, visible note, and its attachment where the boundary admits it (see `admitAttachment`). */
  delete(id: string, tool: string): Promise<Deleted> {
    this.writable(id);
    return this.own.delete(id, this.admitOwn, this.admitAttachment, this.journal(tool));
  }

  /**
   * An attachment is inside the boundary when its folder is inside the
   * boundary folder; under a tag boundary (attachments have no tags), when it
   * lies in its note's own folder or below it.
   */
  private readonly admitAttachment = (attachmentPath: string, note: NoteRecord): boolean => {
    const folder = folderOf(attachmentPath);
    if (!folderInBoundary(this.policy, folder, this.own)) return false;
    if (this.policy.tag === undefined || note.folder === null) return true;
    return folder !== null && (folder === note.folder || folder.startsWith(`${note.folder}/`));
  };

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
