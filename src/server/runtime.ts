import { createPolicy, type AccessPolicy } from '../access/policy.js';
import { VaultView } from '../access/view.js';
import { loadSnapshot, saveSnapshot } from '../index/cache.js';
import { FullTextIndex } from '../index/fulltext.js';
import type { ToolContext } from '../tools/tool.js';
import type { Clock } from '../vault/clock.js';
import { toPlainText } from '../vault/markdown.js';
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
  private readonly watchers: VaultWatcher[] = [];
  private saveTimer: NodeJS.Timeout | undefined;
  private dirty = false;
  private closed = false;
  private saving: Promise<void> = Promise.resolve();

  private constructor(
    readonly own: Vault,
    readonly teammates: readonly Vault[],
    readonly options: RuntimeOptions,
  ) {
    this.watching = new Promise((resolve) => {
      this.watchingStarted = resolve;
    });
    this.loaded = this.load();
  }

  static async open(options: RuntimeOptions): Promise<Runtime> {
    const own = await Vault.open({ root: options.vaultDir, clock: options.clock, log: options.log });
    const teammates = await Promise.all(
      options.shared.map(({ owner, dir }) => Vault.open({ root: dir, clock: options.clock, log: options.log, readOnly: true, owner })),
    );
    return new Runtime(own, teammates, options);
  }

  private async load(): Promise<void> {
    const started = performance.now();
    const snapshot = await loadSnapshot(this.own.root, this.options.log);
    this.fulltext.set(this.own, snapshot ? FullTextIndex.fromSnapshot(snapshot.fulltext) : FullTextIndex.empty());
    for (const vault of this.teammates) this.fulltext.set(vault, FullTextIndex.empty());
    for (const [vault, index] of this.fulltext) {
      vault.on('note', (record, body) => {
        index.upsert(record, toPlainText(body));
        if (vault === this.own) this.scheduleSave();
      });
      vault.on('removed', (record) => {
        // A move re-places the id at its new path before the old one goes.
        if (vault.get(record.id) === undefined) index.remove(record.id);
        if (vault === this.own) this.scheduleSave();
      });
    }
    const starts: Promise<void>[] = [];
    if (this.options.watch !== false) {
      // Watch while reading, so that an edit made during a long first read is not missed.
      for (const vault of [this.own, ...this.teammates]) {
        const watcher = new VaultWatcher(vault, this.options.log);
        this.watchers.push(watcher);
        starts.push(watcher.start().catch((error: unknown) => this.options.log(`Cannot watch ${vault.root}: ${(error as Error).message}`)));
      }
    }
    void Promise.all(starts).then(() => this.watchingStarted?.());
    await Promise.all([this.own.load(snapshot?.records ?? []), ...this.teammates.map((vault) => vault.load())]);
    if (!this.own.ready) return; // closed while reading
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
  }

  get settings(): VaultSettings {
    return this.options.settings;
  }

  private scheduleSave(): void {
    this.dirty = true;
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
      try {
        await saveSnapshot(this.own.root, { records: [...this.own.all()], fulltext: index.toSnapshot() });
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
      view: new VaultView(this.own, this.teammates, policy),
      settings: this.options.settings,
      clock: this.options.clock,
      fulltext: this.fulltext,
    };
  }

  async close(): Promise<void> {
    // A first read still under way is abandoned, not waited for.
    for (const vault of [this.own, ...this.teammates]) vault.stopLoading();
    await this.loaded.catch(() => undefined);
    await Promise.all(this.watchers.map((watcher) => watcher.close()));
    this.closed = true;
    await this.flush();
  }
}
