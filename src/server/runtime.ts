import { createPolicy, type AccessPolicy } from '../access/policy.js';
import { VaultView } from '../access/view.js';
import path from 'node:path';
import { cacheDir, ensureCacheDir } from '../files/dexi-dir.js';
import { loadSnapshot, saveSnapshot } from '../index/cache.js';
import { FullTextIndex } from '../index/fulltext.js';
import type { EmbedderSpec } from '../index/vectors/embedder.js';
import { embeddingTextOfPlain } from '../index/vectors/embedding-text.js';
import { SemanticIndexer } from '../index/vectors/semantic-indexer.js';
import type { ToolContext } from '../tools/tool.js';
import type { Clock } from '../vault/clock.js';
import { toSearchText } from '../vault/markdown.js';
import type { NoteRecord } from '../vault/note.js';
import type { VaultSettings } from '../vault/settings.js';
import { Vault, type Logger } from '../vault/vault.js';
import { VaultWatcher } from '../watch/watcher.js';

export interface RuntimeOptions {
  vaultDir: string;
  settings: VaultSettings;
  /** Teammates' vaults, mounted read-only. */
  shared: readonly { owner: string; dir: string }[];
  clock: Clock;
  log: Logger;
  /** Keep the indexes in step with outside edits (default true). */
  watch?: boolean;
  /** Save the index cache this long after the last change (default 5 s). */
  saveDelayMs?: number;
  /** Semantic search: which model, on how many worker threads. Off when absent. */
  semantic?: { embedder: EmbedderSpec; workers: number };
}


/**
 * Everything one served vault needs, shared by all its connections: the
 * vault model, teammates' vaults, the full-text indexes, the watcher and the
 * cache. Opening is quick; reading the notes runs in the background
 * (`loaded`), so the server can answer `initialize` at once.
 */
export class Runtime {
  readonly loaded: Promise<void>;
  /** Resolves once every watcher is listening (at once when not watching). */
  readonly watching: Promise<void>;
  private watchingStarted: (() => void) | undefined;
  readonly fulltext = new Map<Vault, FullTextIndex>();
  readonly semantic: SemanticIndexer | undefined;
  /** Notes whose text the semantic indexer has been given in this run. */
  private readonly fedToSemantic = new Set<string>();
  private readonly watchers: VaultWatcher[] = [];
  private saveTimer: NodeJS.Timeout | undefined;
  private dirty = false;
  /** Counts changes to the own vault, so that a save can tell it has fallen behind. */
  private changes = 0;
  private closed = false;
  private saving: Promise<void> = Promise.resolve();

  private constructor(
    readonly own: Vault,
    readonly teammates: readonly Vault[],
    readonly options: RuntimeOptions,
  ) {
    if (options.semantic) {
      this.semantic = new SemanticIndexer({
        cacheDir: path.join(cacheDir(own.root), 'vectors'),
        embedder: options.semantic.embedder,
        workers: options.semantic.workers,
        log: options.log,
      });
    }
    this.watching = new Promise((resolve) => {
      this.watchingStarted = resolve;
    });
    this.loaded = this.load();
  }

  static async open(options: RuntimeOptions): Promise<Runtime> {
    const own = await Vault.open({ root: options.vaultDir, clock: options.clock, log: options.log });
    // Teammates' git dates are cached in ours: its cache folder must ignore itself in git first.
    if (options.shared.length > 0) await ensureCacheDir(own.root);
    const teammates = await Promise.all(
      options.shared.map(({ owner, dir }) =>
        Vault.open({
          root: dir,
          clock: options.clock,
          log: options.log,
          readOnly: true,
          owner,
          // A teammate's vault is never written, not even its .dexi folder: its git dates are cached in ours.
          gitCacheDir: path.join(cacheDir(options.vaultDir), 'shared', encodeURIComponent(owner)),
        }),
      ),
    );
    return new Runtime(own, teammates, options);
  }

  private async load(): Promise<void> {
    const started = performance.now();
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
    // The model loads in the background; searches say so until it has.
    void this.semantic?.start().catch(() => undefined);

    await Promise.all([this.own.load(snapshot?.records ?? []), ...this.teammates.map((vault) => vault.load())]);
    if (!this.own.ready) return; // closed while reading
    // The watcher starts after the first read: both walk every folder, and
    // running them at once slows the read that makes the server searchable.
    // What changed during the read is picked up by a reconciling pass.
    void this.startWatching();
    const ms = Math.round(performance.now() - started);
    this.options.log(
      `Read ${this.own.size} notes in ${this.own.folders().length} folders of ${this.own.root} in ${ms} ms${snapshot ? ' (from the index cache)' : ''}.`,
    );
    for (const vault of this.teammates) {
      const shared = [...vault.all()].filter((record) => record.shared).length;
      this.options.log(`Mounted ${vault.owner}'s vault ${vault.root} read-only: ${shared} shared notes.`);
    }
    if (!snapshot) this.dirty = true;
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

  private async startWatching(): Promise<void> {
    const vaults = [this.own, ...this.teammates];
    if (this.options.watch !== false && !this.closed) {
      await Promise.all(
        vaults.map(async (vault) => {
          const watcher = new VaultWatcher(vault, this.options.log);
          this.watchers.push(watcher);
          try {
            await watcher.start();
            if (this.closed) return await watcher.close();
            await vault.reconcile();
          } catch (error) {
            this.options.log(`Cannot watch ${vault.root}: ${(error as Error).message}`);
          }
        }),
      );
    }
    this.watchingStarted?.();
  }

  get settings(): VaultSettings {
    return this.options.settings;
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

  /** Wait until every change the watchers have seen is applied. */
  async settled(): Promise<void> {
    await Promise.all(this.watchers.map((watcher) => watcher.settled()));
  }

  /** The tool context for one connection with the given access policy. */
  context(policy: AccessPolicy = createPolicy()): ToolContext {
    return {
      view: new VaultView(this.own, this.teammates, policy, { fulltext: this.fulltext, semantic: this.semantic }),
      settings: this.options.settings,
      clock: this.options.clock,
    };
  }

  async close(): Promise<void> {
    // A first read still under way is abandoned, not waited for.
    for (const vault of [this.own, ...this.teammates]) vault.stopLoading();
    this.closed = true;
    this.watchingStarted?.();
    await this.loaded.catch(() => undefined);
    await Promise.all(this.watchers.map((watcher) => watcher.close()));
    await Promise.all([this.own, ...this.teammates].map((vault) => vault.close()));
    await Promise.all([this.flush(), this.semantic?.close()]);
  }
}
