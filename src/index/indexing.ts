import path from 'node:path';
import { cacheDir } from '../files/dexi-dir.js';
import { toSearchText } from '../vault/markdown.js';
import type { NoteRecord } from '../vault/note.js';
import type { Vault } from '../vault/vault.js';
import { loadSnapshot, saveSnapshot, type CacheSnapshot } from './cache.js';
import { FullTextIndex } from './fulltext.js';
import type { EmbedderSpec } from './vectors/embedder.js';
import { embeddingTextOfPlain } from './vectors/embedding-text.js';
import { SemanticIndexer } from './vectors/semantic-indexer.js';

export interface IndexingOptions {
  log: (line: string) => void;
  /** Save the index cache this long after the last change (default 5 s). */
  saveDelayMs?: number | undefined;
  /** Semantic search: which model, on how many worker threads. Off when absent. */
  semantic?: { embedder: EmbedderSpec; workers: number } | undefined;
}

/**
 * The indexes of one served vault and its teammates' vaults, kept in step
 * with the vault model: every note event feeds the full-text index of its
 * vault and the semantic indexer, and the own vault's records and full-text
 * index are saved to the cache a moment after the last change. The one place
 * that knows which index a note goes into.
 */
export class Indexing {
  readonly fulltext = new Map<Vault, FullTextIndex>();
  readonly semantic: SemanticIndexer | undefined;
  /** Notes whose text the semantic indexer has been given in this run. */
  private readonly fedToSemantic = new Set<string>();
  private saveTimer: NodeJS.Timeout | undefined;
  private dirty = false;
  /** Counts changes to the own vault, so that a save can tell it has fallen behind. */
  private changes = 0;
  private closed = false;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly own: Vault,
    private readonly teammates: readonly Vault[],
    private readonly options: IndexingOptions,
  ) {
    if (options.semantic) {
      this.semantic = new SemanticIndexer({
        cacheDir: path.join(cacheDir(own.root), 'vectors'),
        embedder: options.semantic.embedder,
        workers: options.semantic.workers,
        log: options.log,
      });
    }
  }

  /**
   * Load the own vault's cache (records and full-text index), subscribe to
   * every vault's events, and start loading the model. Returns the cached
   * records, for the first read to compare the files with.
   */
  async attach(): Promise<CacheSnapshot | undefined> {
    const snapshot = await loadSnapshot(this.own.root, this.options.log);
    this.fulltext.set(this.own, snapshot?.fulltext ?? FullTextIndex.empty());
    for (const vault of this.teammates) this.fulltext.set(vault, FullTextIndex.empty());
    for (const [vault, index] of this.fulltext) {
      vault.on('note', (record, body, plain) => {
        const text = plain ?? toSearchText(body);
        index.upsert(record, text);
        this.feedSemantic(vault, record, text);
        if (vault === this.own) this.scheduleSave();
      });
      vault.on('removed', (record) => {
        // A move re-places the id at its new path before the old one goes.
        if (vault.get(record.id) === undefined) {
          index.remove(record.id);
          this.semantic?.noteRemoved(record.id);
        }
        if (vault === this.own) this.scheduleSave();
      });
      vault.on('dates', () => {
        if (vault === this.own) this.scheduleSave();
      });
    }
    if (!snapshot) this.dirty = true;
    // The model loads in the background; searches say so until it has.
    void this.semantic?.start().catch(() => undefined);
    return snapshot;
  }

  /** After the first read: save what it changed, and hand the semantic indexer the notes it has not seen. */
  async afterFirstRead(): Promise<void> {
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
    this.semantic.noteChanged(record.id, embeddingTextOfPlain(record.title, plain));
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
    if (!this.closed) semantic.retainOnly(known);
  }

  private scheduleSave(): void {
    this.dirty = true;
    this.changes++;
    if (!this.own.ready || this.closed) return;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => void this.flush(), this.options.saveDelayMs ?? 5000);
    this.saveTimer.unref();
  }

  /** Write the note records and the full-text index to the cache, if they changed. */
  async flush(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    const run = async (): Promise<void> => {
      if (!this.dirty || !this.own.ready) return;
      this.dirty = false;
      const index = this.fulltext.get(this.own);
      if (!index) return;
      const changesBefore = this.changes;
      try {
        const saved = await saveSnapshot(
          this.own.root,
          { records: [...this.own.all()], fulltext: index.snapshot() },
          // A change during the save abandons it; the change has scheduled another.
          { stillCurrent: () => this.changes === changesBefore },
        );
        if (!saved) this.dirty = true;
      } catch (error) {
        this.dirty = true;
        this.options.log(`Could not save the index cache: ${(error as Error).message}`);
      }
    };
    this.saving = this.saving.then(run, run);
    await this.saving;
  }

  /** Stop feeding, save what is left, and stop the model's workers. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.flush(), this.semantic?.close()]);
  }
}
