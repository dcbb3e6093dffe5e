import { ensureIgnoredDir, ensureTeammateCacheDir, teammateCacheDir, vectorsDir } from '../storage/dexi-dir.js';
import { toSearchText } from '../format/markdown.js';
import type { NoteRecord } from '../vault/note.js';
import type { Vault } from '../vault/vault.js';
import { tableOf, type RecordTable } from '../vault/record-table.js';
import { loadSnapshot, saveSnapshot } from './cache.js';
import { FullTextIndex } from './fulltext/fulltext.js';
import { MovesJournal, replayMoves } from './moves-journal.js';
import type { SemanticChoice } from './vectors/semantic-types.js';
import { embeddingTextOfPlain } from './vectors/embedding-text.js';
import { SemanticIndexer } from './vectors/semantic-indexer.js';
import { ERROR, type Logger } from '../vault/logger.js';

export interface IndexingOptions {
  log: Logger;
  /** Save the index cache this long after the last change (default 5 s). */
  saveDelayMs?: number | undefined;
  /** Semantic search: which model, on how many worker threads. Off when absent. */
  semantic?: SemanticChoice | undefined;
}

/** Where one vault's records and full-text index are saved, and whether they need saving. */
interface SavedIndex {
  /** The cache folder, made (with its `.gitignore`) before the first save. */
  folder: string;
  makeFolder: () => Promise<string>;
  dirty: boolean;
  /** Counts changes, so that a save can tell it has fallen behind. */
  changes: number;
  timer: NodeJS.Timeout | undefined;
  /** Moves learned since the cache was saved, kept until a save holds them. */
  journal: MovesJournal;
}

/**
 * The indexes of one served vault and its teammates' vaults, kept in step
 * with the vault model: every note event feeds the full-text index of its
 * vault and the semantic indexer, and each vault's records and full-text
 * index are saved to the cache a moment after its last change. A teammate's
 * cache is kept in ours (teammates' vaults are never written). The one place
 * that knows which index a note goes into.
 */
export class Indexing {
  readonly fulltext = new Map<Vault, FullTextIndex>();
  readonly semantic: SemanticIndexer | undefined;
  /** Notes whose text the semantic indexer has been given in this run. */
  private readonly fedToSemantic = new Set<string>();
  private readonly saved = new Map<Vault, SavedIndex>();
  private closed = false;
  private saving: Promise<void> = Promise.resolve();
  /** When stopping: a save not finished by then is abandoned (its temporary file removed). */
  private stopBy: number | undefined;

  constructor(
    private readonly own: Vault,
    private readonly teammates: readonly Vault[],
    private readonly options: IndexingOptions,
  ) {
    if (options.semantic) {
      this.semantic = new SemanticIndexer({
        cacheDir: vectorsDir(own.cacheDir),
        ...options.semantic,
        log: options.log,
      });
    }
    const saved = (folder: string, makeFolder: () => Promise<string>): SavedIndex => ({
      folder,
      makeFolder,
      dirty: false,
      changes: 0,
      timer: undefined,
      journal: new MovesJournal(makeFolder),
    });
    // Every cache goes in the person's vault's cache folder (`Vault.cacheDir`): its .dexi/cache/, or outside a vault that cannot be written.
    this.saved.set(own, saved(own.cacheDir, () => ensureIgnoredDir(own.cacheDir, '*\n', { private: true })));
    for (const vault of teammates) {
      const owner = vault.owner ?? vault.root;
      this.saved.set(vault, saved(teammateCacheDir(own.cacheDir, owner), () => ensureTeammateCacheDir(own.cacheDir, owner)));
    }
  }

  /**
   * Load every vault's cache (records and full-text index), subscribe to
   * every vault's events, and start loading the model. Returns the cached
   * records of each vault that had a cache, for its first read to compare
   * the files with.
   */
  async attach(): Promise<Map<Vault, RecordTable>> {
    const cachedRecords = new Map<Vault, RecordTable>();
    await Promise.all(
      [...this.saved].map(async ([vault, saved]) => {
        // Moves are saved from the first read on: one found at start is one fewer to find again.
        vault.keepIdentityWith((record, from) => saved.journal.append(record, from));
        const snapshot = await loadSnapshot(saved.folder, (line) => this.options.log(vault === this.own ? line : `${vault.owner}'s vault: ${line}`));
        this.fulltext.set(vault, snapshot?.fulltext ?? FullTextIndex.empty());
        const { records, moves } = await replayMoves(saved.folder, snapshot?.records ?? tableOf([]));
        if (snapshot || moves > 0) cachedRecords.set(vault, records);
        if (!snapshot || moves > 0) saved.dirty = true;
      }),
    );
    for (const [vault, index] of this.fulltext) {
      vault.on('note', (record, body, plain) => {
        const text = plain ?? toSearchText(body);
        index.upsert(record, text);
        this.feedSemantic(vault, record, text);
        this.scheduleSave(vault);
      });
      vault.on('removed', (record) => {
        // A move re-places the id at its new path before the old one goes.
        if (vault.get(record.id) === undefined) {
          index.remove(record.id);
          this.semantic?.noteRemoved(record.id);
        }
        this.scheduleSave(vault);
      });
      vault.on('dates', () => this.scheduleSave(vault));
    }
    // The model loads in the background; searches say so until it has.
    void this.semantic?.start().catch(() => undefined);
    return cachedRecords;
  }

  /** After the first read: save what it changed, and hand the semantic indexer the notes it has not seen. */
  async afterFirstRead(): Promise<void> {
    // A first read with no cache built its index in bulk: made now, in steps, rather than by the first search at once.
    for (const index of this.fulltext.values()) await index.sealInSteps();
    await this.flush();
    if (this.semantic) void this.feedRemainingToSemantic();
  }

  /** Teammates' notes are embedded only when shared: only those are ever visible. */
  private feedSemantic(vault: Vault, record: NoteRecord, plain: string): void {
    if (!this.semantic) return;
    if (vault !== this.own && !record.shared) {
      this.semantic.noteRemoved(record.id);
      return;
    }
    this.fedToSemantic.add(record.id);
    this.semantic.noteChanged(record.id, embeddingTextOfPlain(record.title, plain), record.updatedMs);
  }

  /**
   * After the first read, give the semantic indexer every note it was not
   * handed during the read (a warm start reads no unchanged note). Notes it
   * already holds vectors for cost a read and a hash, nothing more.
   */
  private async feedRemainingToSemantic(): Promise<void> {
    const semantic = this.semantic;
    if (!semantic) return;
    const known: string[] = [];
    for (const vault of [this.own, ...this.teammates]) {
      for (const record of [...vault.all()]) {
        if (vault !== this.own && !record.shared) continue;
        known.push(record.id);
        if (this.fedToSemantic.has(record.id) || this.closed) continue;
        try {
          const { record: current, body } = await vault.read(record.id);
          this.feedSemantic(vault, current, toSearchText(body));
        } catch {
          // Gone or changing: the watcher reports it again.
        }
      }
    }
    if (this.closed) return;
    semantic.retainOnly(known);
    semantic.allNotesReported();
  }

  private scheduleSave(vault: Vault): void {
    const saved = this.saved.get(vault);
    if (!saved) return;
    saved.dirty = true;
    saved.changes++;
    if (!vault.ready || this.closed) return;
    if (saved.timer) clearTimeout(saved.timer);
    saved.timer = setTimeout(() => void this.flush(), this.options.saveDelayMs ?? 5000);
    saved.timer.unref();
  }

  /** Write each vault's note records and full-text index to its cache, if they changed. */
  async flush(): Promise<void> {
    const run = async (): Promise<void> => {
      for (const [vault, saved] of this.saved) await this.save(vault, saved);
    };
    this.saving = this.saving.then(run, run);
    await this.saving;
  }

  private async save(vault: Vault, saved: SavedIndex): Promise<void> {
    if (saved.timer) clearTimeout(saved.timer);
    saved.timer = undefined;
    const index = this.fulltext.get(vault);
    if (!saved.dirty || !vault.ready || !index) return;
    saved.dirty = false;
    const changesBefore = saved.changes;
    const movesBefore = saved.journal.appended;
    try {
      const ok = await saveSnapshot(
        await saved.makeFolder(),
        { records: [...vault.all()], fulltext: index.snapshot() },
        // A change during the save abandons it (the change has scheduled
        // another), and so does a stop that has waited long enough.
        { stillCurrent: () => saved.changes === changesBefore && (this.stopBy === undefined || Date.now() < this.stopBy) },
      );
      if (ok) await saved.journal.savedUpTo(movesBefore);
      else {
        saved.dirty = true;
        if (this.stopBy !== undefined && Date.now() >= this.stopBy) this.options.log(`Stopped before ${this.whose(vault)} was saved; the next start reads again what changed.`);
      }
    } catch (error) {
      saved.dirty = true;
      this.options.log(`Could not save ${this.whose(vault)}: ${(error as Error).message}`, ERROR);
    }
  }

  private whose(vault: Vault): string {
    return vault === this.own ? 'the index cache' : `the index cache of ${vault.owner}'s vault`;
  }

  /**
   * The server is stopping: a save under way, or the last one, has until
   * `stopBy` (a time in ms) to finish; one that has not is abandoned, its
   * temporary file removed, and the cache left as the last save made it.
   */
  stopping(stopBy: number): void {
    this.stopBy = Math.min(stopBy, this.stopBy ?? Infinity);
  }

  /** Stop feeding, save what is left (within the time `stopping` gave), and stop the model's workers. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.flush(), this.semantic?.close()]);
    await Promise.all([...this.saved.values()].map((saved) => saved.journal.settled()));
  }
}
