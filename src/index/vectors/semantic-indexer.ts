import { CHUNKER_VERSION } from './chunking.js';
import { EmbeddingPool, type EmbeddingWorkers } from './embedding-pool.js';
import { EmbeddingQueue, type Group } from './embedding-queue.js';
import type { WindowVector } from './windows.js';
import { describeMemory } from './memory.js';
import { contentHash, openingMark, parseOpeningMark } from './stored-hashes.js';
import { VectorIndex, type NoteFilter, type VectorHit, type VectorMemory } from './vector-index.js';
import { ERROR, PUBLIC_WARNING, WARNING, type Logger } from '../../vault/logger.js';

export type { SemanticIndexerOptions, SemanticProgress } from './semantic-types.js';
import type { SemanticIndexerOptions, SemanticProgress } from './semantic-types.js';

/**
 * Keeps a vector index in step with the vault. The server reports every
 * note's text (`noteChanged`) and deletions (`noteRemoved`); embedding runs
 * in the background on worker threads, and only notes whose text hash
 * differs from the stored one are embedded again, so an unchanged vault
 * costs nothing at restart. Searches answer at once from what is embedded.
 */
export class SemanticIndexer {
  private readonly log: Logger;
  private readonly autoSaveMs: number;
  /** Every known note's current content hash. */
  private readonly desired = new Map<string, string>();
  /** The notes waiting to be embedded, in their order (embedding-queue.ts: two passes, newest first). */
  private readonly waiting = new EmbeddingQueue();
  /** Content hashes that failed to embed, so they are not retried in a loop. */
  private readonly failed = new Map<string, string>();
  private readonly groups = new Set<Promise<void>>();
  private index: VectorIndex | undefined;
  private pool: EmbeddingWorkers | undefined;
  private starting: Promise<void> | undefined;
  private startError: Error | undefined;
  private retain: Set<string> | undefined;
  private saveTimer: NodeJS.Timeout | undefined;
  private backlogStarted = 0;
  private backlogNotes = 0;
  private embeddedInRun = 0;
  private lastSaveMs = 0;
  private closing = false;
  /**
   * Set once the server has reported every note of the vault after its first
   * read. Until then the index may hold vectors of texts that changed while
   * the server was down, and lack notes not reported yet: no answer is
   * complete, whatever the counts say.
   */
  private allReported = false;
  private readonly hashSalt: string;

  constructor(private readonly options: SemanticIndexerOptions) {
    this.log = options.log;
    this.autoSaveMs = options.autoSaveMs ?? 60_000;
    this.hashSalt = CHUNKER_VERSION;
  }

  /**
   * Loads the model and the saved vectors, then embeds in the background.
   * Resolves when search is available (about a second), never after the
   * backlog; other methods may be called before it resolves.
   */
  start(): Promise<void> {
    this.starting ??= this.load().catch((error: unknown) => {
      this.startError = error instanceof Error ? error : new Error(String(error));
      // Closed before the model was loaded is a short session ending normally, not a fault to report.
      if (!this.closing) this.log(`semantic search unavailable: ${this.startError.message}`, PUBLIC_WARNING);
      this.waiting.clear();
      throw this.startError;
    });
    return this.starting;
  }

  /** `updatedMs`: when the note last changed, which decides its turn (newest first). */
  noteChanged(id: string, text: string, updatedMs = Date.now()): void {
    if (this.closing) return;
    const hash = contentHash(text, this.hashSalt);
    this.desired.set(id, hash);
    if (this.startError) return;
    if (this.index?.contentHash(id) === hash || this.failed.get(id) === hash) {
      this.waiting.forget(id);
      return;
    }
    this.failed.delete(id);
    this.waiting.add(id, text, updatedMs);
    if (this.index) this.resumeOpened(id);
    this.fill();
  }

  noteRemoved(id: string): void {
    this.desired.delete(id);
    this.waiting.forget(id);
    this.failed.delete(id);
    if (this.index?.remove(id)) this.scheduleSave();
  }

  /**
   * Forgets every note not in `ids`: call it after a full vault scan, so
   * that notes deleted while the server was down leave the index.
   */
  retainOnly(ids: Iterable<string>): void {
    const keep = new Set(ids);
    for (const id of [...this.desired.keys()]) if (!keep.has(id)) this.noteRemoved(id);
    if (this.index) this.pruneIndex(keep);
    else this.retain = keep;
  }

  progress(): SemanticProgress {
    let embedded = 0;
    let complete = 0;
    const index = this.index;
    if (index) {
      for (const id of this.desired.keys()) {
        const coverage = this.coverage(id);
        if (coverage === 'complete') complete++;
        if (coverage !== 'none') embedded++;
      }
    }
    let failed = 0;
    for (const [id, hash] of this.failed) if (this.desired.get(id) === hash) failed++;
    const progress: SemanticProgress = {
      ready: this.ready,
      embedded,
      complete,
      total: this.desired.size,
      failed,
    };
    if (this.startError) progress.error = this.startError.message;
    return progress;
  }

  /**
   * `progress().ready` without the counts, which cost a pass over every
   * note: searches ask this on every call.
   */
  get ready(): boolean {
    return this.allReported && this.index !== undefined && this.waiting.size === 0 && this.groups.size === 0;
  }

  /** Why semantic search is unavailable, when the model did not load (`progress().error`, without the counts). */
  get error(): string | undefined {
    return this.startError?.message;
  }

  /** The server has reported every note it holds (after `retainOnly`): from now on the counts cover the vault. */
  allNotesReported(): void {
    this.allReported = true;
  }

  /** Whether a note's current text could not be embedded (it is retried when it changes). */
  hasFailed(id: string): boolean {
    const hash = this.desired.get(id);
    return hash !== undefined && this.failed.get(id) === hash;
  }

  /** How many notes this process has sent to the model (an unchanged vault: none). */
  get embeddedThisRun(): number {
    return this.embeddedInRun;
  }

  /** What the vectors and the search graph take in memory (VectorIndex.memory), once the index has loaded. */
  memory(): VectorMemory | undefined {
    return this.index?.memory();
  }

  /** The model's identity (e.g. `use-lite-512`) once it has loaded. */
  get embedderId(): string | undefined {
    return this.index?.embedderId;
  }

  /** Whether the note's current text has vectors, at least of its opening (find_similar can only answer then). */
  isEmbedded(id: string): boolean {
    return this.coverage(id) !== 'none';
  }

  /** Whether every window of the note's current text is embedded. */
  isComplete(id: string): boolean {
    return this.coverage(id) === 'complete';
  }

  /** How much of the note's current text the index holds vectors for. */
  private coverage(id: string): 'none' | 'opening' | 'complete' {
    const hash = this.desired.get(id);
    const stored = this.index?.contentHash(id);
    if (hash === undefined || stored === undefined) return 'none';
    if (stored === hash) return 'complete';
    return parseOpeningMark(stored)?.hash === hash ? 'opening' : 'none';
  }

  /**
   * The k notes closest in meaning to `query`, from the notes embedded so
   * far. `first`: a note to put first whatever its rank (the caller has
   * other evidence it is what was asked for), scored by its own cosine;
   * ignored when it is not embedded or the filter leaves it out.
   */
  async search(query: string, k: number, filter?: NoteFilter, first?: string): Promise<VectorHit[]> {
    const [vector] = await this.embedQueries([query]);
    return vector ? this.searchVector(vector, k, filter, first) : [];
  }

  /** Texts embedded as queries are (semantic_search's), ahead of the notes waiting to be embedded. */
  async embedQueries(texts: string[]): Promise<number[][]> {
    const { pool } = await this.loaded();
    return pool.embed(texts, { priority: 'high' });
  }

  /** `search` for a query already embedded (`embedQueries`). */
  async searchVector(vector: number[], k: number, filter?: NoteFilter, first?: string): Promise<VectorHit[]> {
    const { index } = await this.loaded();
    const live = this.liveFilter(filter);
    const hits = index.searchVector(vector, k, live);
    const score = first !== undefined && live(first) && this.isEmbedded(first) ? index.scoreNote(vector, first) : undefined;
    if (first === undefined || score === undefined) return hits;
    return [{ id: first, score }, ...hits.filter((hit) => hit.id !== first)].slice(0, k);
  }

  /** The k notes closest to the note's embedded text; [] when it is not embedded yet. */
  async similar(noteId: string, k: number, filter?: NoteFilter): Promise<VectorHit[]> {
    const { index } = await this.loaded();
    return index.similarTo(noteId, k, this.liveFilter(filter));
  }

  /** The cosine of `noteId`'s best chunk to a query's vector, as a search scores it; undefined when it has no vectors. */
  scoreNote(vector: number[], noteId: string): number | undefined {
    return this.index?.scoreNote(vector, noteId);
  }

  /** `from`'s cosine to `to` as `similar(from)` scores it (VectorIndex#noteCosine). */
  noteCosine(from: string, to: string): number | undefined {
    return this.index?.noteCosine(from, to);
  }

  /** How many notes the index holds vectors for, current or not: a cheap sign that the vault grew or shrank. */
  get vectorNotes(): number {
    return this.index?.noteCount ?? 0;
  }

  /** Saves the vectors now (a no-op when nothing changed). */
  async flush(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    const index = this.index;
    if (!index) return;
    const started = Date.now();
    if (await index.save(this.options.cacheDir)) {
      this.lastSaveMs = Date.now() - started;
      this.log(`semantic index saved: ${index.noteCount} notes, ${index.chunkCount} chunks (${this.lastSaveMs} ms); ${describeMemory(index.memory())}`);
    }
  }

  /** Stops embedding (unfinished notes are embedded next time), saves, and ends the workers. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await this.starting?.catch(() => undefined);
    await this.pool?.close();
    await Promise.allSettled([...this.groups]);
    try {
      await this.flush();
    } finally {
      this.index?.dispose();
    }
  }

  private async load(): Promise<void> {
    const options = this.options;
    const pool =
      'sharedPool' in options
        ? (await options.sharedPool).share()
        : await EmbeddingPool.create({ spec: options.embedder, workers: options.workers, log: this.log, ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}) });
    if (this.closing) {
      await pool.close();
      throw new Error('The semantic indexer was closed while starting');
    }
    this.pool = pool;
    const { index, restored, reason } = await VectorIndex.load(options.cacheDir, pool.id, pool.dimensions, options.index ?? {});
    this.log(
      restored
        ? `semantic index loaded: ${index.noteCount} notes, ${index.chunkCount} chunks (${pool.id}); ${describeMemory(index.memory())}${reason ? `; ${reason}` : ''}`
        : `semantic index starts empty (${pool.id}): ${reason ?? 'no snapshot'}`,
    );
    this.index = index;
    for (const id of this.waiting.pendingIds()) {
      if (index.contentHash(id) === this.desired.get(id)) this.waiting.dropPending(id);
      else this.resumeOpened(id);
    }
    if (this.retain) this.pruneIndex(this.retain);
    this.retain = undefined;
    this.fill();
  }

  private async loaded(): Promise<{ pool: EmbeddingWorkers; index: VectorIndex }> {
    if (!this.starting) throw new Error('The semantic indexer has not been started');
    await this.starting;
    if (!this.pool || !this.index || this.closing) throw new Error('The semantic indexer is closed');
    return { pool: this.pool, index: this.index };
  }

  /** Only notes the server has reported are results: the snapshot may hold notes deleted since. */
  private liveFilter(filter: NoteFilter | undefined): NoteFilter {
    return (id) => this.desired.has(id) && (filter === undefined || filter(id));
  }

  private pruneIndex(keep: Set<string>): void {
    const index = this.index;
    if (!index) return;
    let removed = 0;
    for (const id of [...index.noteIds()]) if (!keep.has(id) && index.remove(id)) removed++;
    if (removed > 0) {
      this.log(`semantic index: dropped ${removed} notes no longer in the vault`);
      this.scheduleSave();
    }
  }

  /** Keeps two groups of notes in flight, so workers embed while results are stored. */
  private fill(): void {
    const pool = this.pool;
    const index = this.index;
    if (!pool || !index || this.closing) return;
    while (this.groups.size < 2 && this.waiting.size > 0) {
      if (this.backlogStarted === 0) this.backlogStarted = Date.now();
      const waiting = this.waiting.size;
      const taken = this.takeGroup(pool);
      if (taken.notes.length === 0) {
        // Only blank notes (done at once) or stale entries came up.
        if (this.waiting.size < waiting) continue;
        break;
      }
      if (taken.kind === 'openings') {
        this.backlogNotes += taken.notes.length;
        this.embeddedInRun += taken.notes.length;
      }
      const group = this.embedGroup(pool, index, taken);
      this.groups.add(group);
      void group.finally(() => {
        this.groups.delete(group);
        this.afterGroup();
      });
    }
  }

  /**
   * A pending note whose opening the snapshot already holds, for its current
   * text, goes straight to the second pass: a restart embeds only the rest.
   */
  private resumeOpened(id: string): void {
    const stored = this.index?.contentHash(id);
    const opening = stored === undefined ? undefined : parseOpeningMark(stored);
    const hash = this.desired.get(id);
    if (opening && opening.hash === hash) this.waiting.skipToPassages(id, opening.hash, opening.windows);
  }

  /** Openings first (one window a note), then passages; about `target` windows a group (see `EmbeddingQueue#take`). */
  private takeGroup(pool: EmbeddingWorkers): Group {
    const batch = this.waiting.openingsWaiting > 0 ? openingBatch(pool) : pool.batchSize;
    const target = Math.max(8, pool.workerCount * batch * 2);
    return this.waiting.take(target, (id) => this.desired.get(id), (id, hash) => this.index?.upsert(id, [], hash));
  }

  private async embedGroup(pool: EmbeddingWorkers, index: VectorIndex, group: Group): Promise<void> {
    const requests =
      group.kind === 'openings'
        ? group.notes.map((note) => ({ text: note.text, window: 0 }))
        : group.notes.flatMap((note) => Array.from({ length: note.windows - 1 }, (_, i) => ({ text: note.text, window: i + 1 })));
    let results: WindowVector[];
    try {
      results = await pool.embedWindows(requests, { batchSize: group.kind === 'openings' ? openingBatch(pool) : pool.batchSize });
    } catch (error) {
      if (this.closing) return;
      const [only] = group.notes;
      if (group.notes.length === 1 && only) {
        this.markFailed(only, error);
        return;
      }
      // Find the note that fails by embedding them one at a time.
      const singles: Group[] =
        group.kind === 'openings' ? group.notes.map((note) => ({ kind: 'openings', notes: [note] })) : group.notes.map((note) => ({ kind: 'passages', notes: [note] }));
      for (const single of singles) await this.embedGroup(pool, index, single);
      return;
    }
    if (this.closing) return;
    if (group.kind === 'openings') {
      group.notes.forEach((note, i) => {
        const result = results[i];
        // The text may have changed or gone while it was being embedded.
        if (!result || this.desired.get(note.id) !== note.hash) return;
        if (result.windows <= 1) {
          index.upsert(note.id, [result.vector], note.hash);
          return;
        }
        index.upsert(note.id, [result.vector], openingMark(note.hash, result.windows));
        this.waiting.addPassages({ ...note, windows: result.windows });
      });
      return;
    }
    let offset = 0;
    for (const note of group.notes) {
      const rest = results.slice(offset, offset + note.windows - 1).map((result) => result.vector);
      offset += note.windows - 1;
      const [opening] = index.chunksOf(note.id);
      if (opening && this.desired.get(note.id) === note.hash && index.contentHash(note.id) === openingMark(note.hash, note.windows)) {
        index.upsert(note.id, [opening, ...rest], note.hash);
      }
    }
  }

  private markFailed(note: { id: string; hash: string }, error: unknown): void {
    this.failed.set(note.id, note.hash);
    this.log(`could not embed note ${note.id}: ${error instanceof Error ? error.message : String(error)}`, WARNING);
  }

  private afterGroup(): void {
    if (this.closing) return;
    this.fill();
    if (this.waiting.size === 0 && this.groups.size === 0) {
      // One line per catch-up, not per edit.
      if (this.backlogNotes >= 10) {
        const seconds = ((Date.now() - this.backlogStarted) / 1000).toFixed(1);
        const { embedded, total } = this.progress();
        this.log(`semantic index up to date: embedded ${this.backlogNotes} notes in ${seconds} s (${embedded}/${total})`);
      }
      this.backlogStarted = 0;
      this.backlogNotes = 0;
    }
    this.scheduleSave();
  }

  private scheduleSave(): void {
    if (this.saveTimer || this.closing) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.flush().catch((error: unknown) => this.log(`could not save the semantic index: ${String(error)}`, ERROR));
    }, Math.max(this.autoSaveMs, this.lastSaveMs * 50));
    this.saveTimer.unref();
  }
}

/**
 * Openings a worker takes at a time: most are leads (windows.ts), a fraction
 * of a window's cost, and a call has a cost of its own whatever it holds.
 * Leads of 16 words on one idle core cost 24.0 ms each in calls of 8, 19.1
 * in calls of 16, 18.4 in 32 and 17.9 in 64; a query waits behind one call
 * (so 16 for a server, whose pool's batch is 2; `index`, which answers no
 * query, takes a batch of 8 and so 64 openings a call).
 */
function openingBatch(pool: EmbeddingWorkers): number {
  return pool.batchSize * 8;
}
