import { createPolicy, type AccessPolicy } from '../access/policy.js';
import { VaultView } from '../access/view.js';
import { ensureIgnoredDir, teammateCacheDir } from '../storage/dexi-dir.js';
import type { FullTextIndex } from '../index/fulltext/fulltext.js';
import { Indexing } from '../index/indexing.js';
import type { SemanticChoice } from '../index/vectors/semantic-types.js';
import type { SemanticIndexer } from '../index/vectors/semantic-indexer.js';
import type { ToolContext } from '../tools/tool.js';
import { ActivityLog } from '../vault/record/activity.js';
import { settlePending } from '../vault/record/activity-settle.js';
import type { Clock } from '../vault/clock.js';
import { tableOf } from '../vault/record-table.js';
import type { EarlyScan } from '../vault/workers/scan-pool.js';
import type { VaultSettings } from '../vault/settings.js';
import { Vault, type Logger } from '../vault/vault.js';
import { VaultWatcher } from '../watch/watcher.js';
import { counted } from '../format/counts.js';
import { LogFeed } from './log-feed.js';

export interface ServedVaultOptions {
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
  semantic?: SemanticChoice;
  /**
   * The vault folder cannot be written (the CLI tried): every connection may
   * only read, and nothing is written into the vault, not even `.dexi/`.
   */
  readOnly?: boolean;
  /** Where the vault's caches go (default its `.dexi/cache/`); the CLI gives one outside a vault that cannot be written. */
  cacheDir?: string;
  /** The first read's listing of the vault's files, begun by the command line (src/cli/early-scan.ts). */
  earlyScan?: EarlyScan | undefined;
}

/** A vault that cannot be written is served read-only to every connection, whatever its token or flags allow. */
function readOnlyPolicy(policy: AccessPolicy): AccessPolicy {
  return { ...policy, scopes: new Set([...policy.scopes].filter((scope) => scope !== 'notes:write')) };
}

/**
 * Everything one served vault needs, shared by all its connections: the
 * vault model, teammates' vaults, their indexes (`Indexing`) and the
 * watchers. Opening is quick; reading the notes runs in the background
 * (`loaded`), so the server can answer `initialize` at once.
 */
export class ServedVault {
  readonly loaded: Promise<void>;
  /** Resolves once every watcher is listening (at once when not watching). */
  readonly watching: Promise<void>;
  private watchingStarted: (() => void) | undefined;
  private readonly indexing: Indexing;
  private readonly watchers: VaultWatcher[] = [];
  private closed = false;
  /** What the assistant wrote, and the versions it replaced: .dexi/activity.jsonl and .dexi/history/. */
  readonly activity: ActivityLog;

  private constructor(
    readonly own: Vault,
    readonly teammates: readonly Vault[],
    readonly options: ServedVaultOptions,
    /** The lines with a level, for the connections that listen (log-feed.ts); each also goes to `options.log`. */
    readonly logs: LogFeed,
  ) {
    this.indexing = new Indexing(own, teammates, { log: logs.log, saveDelayMs: options.saveDelayMs, semantic: options.semantic });
    this.activity = new ActivityLog(own.root, options.clock, logs.log);
    this.watching = new Promise((resolve) => {
      this.watchingStarted = resolve;
    });
    this.loaded = this.load();
  }

  static async open(options: ServedVaultOptions): Promise<ServedVault> {
    const logs = new LogFeed(options.log);
    const own = await Vault.open({
      root: options.vaultDir,
      clock: options.clock,
      log: logs.log,
      ...(options.readOnly === true ? { readOnly: true } : {}),
      ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
    });
    // Teammates' git dates are cached in ours: its cache folder must ignore itself in git first.
    if (options.shared.length > 0) await ensureIgnoredDir(own.cacheDir, '*\n', { private: true });
    const teammates = await Promise.all(
      options.shared.map(({ owner, dir }) =>
        Vault.open({
          root: dir,
          clock: options.clock,
          // A teammate's notes are not the person's: what is said of them stays on stderr.
          log: options.log,
          readOnly: true,
          owner,
          gitCacheDir: teammateCacheDir(own.cacheDir, owner),
        }),
      ),
    );
    return new ServedVault(own, teammates, options, logs);
  }

  /** The full-text index of each vault (own and teammates'). */
  get fulltext(): ReadonlyMap<Vault, FullTextIndex> {
    return this.indexing.fulltext;
  }

  get semantic(): SemanticIndexer | undefined {
    return this.indexing.semantic;
  }

  private async load(): Promise<void> {
    const started = performance.now();
    // Writes a killed server recorded ahead of making them are settled from the disk, beside the first read;
    // a vault that cannot be written is left exactly as it is (its record is judged again by `activity`, in memory).
    if (!this.own.readOnly) void settlePending(this.activity).then(
      (settled) => settled > 0 && this.options.log(`Settled ${settled} write${settled === 1 ? '' : 's'} left pending in .dexi/activity.jsonl by a server that was stopped mid-write.`),
      (error: unknown) => this.options.log(`Could not settle .dexi/activity.jsonl: ${(error as Error).message}`),
    );
    // Each vault lists its files while the caches load; it reads notes only
    // once they have, and the indexes listen for them.
    const attached = this.indexing.attach();
    // The early listing is the own vault's, and taken once (it holds every path until let go).
    const early = this.options.earlyScan;
    delete this.options.earlyScan;
    await Promise.all([this.own, ...this.teammates].map((vault) => vault.load(attached.then((cached) => cached.get(vault) ?? tableOf([])), vault === this.own ? early : undefined)));
    const cached = await attached;
    if (!this.own.ready) return; // closed while reading
    // The watcher starts after the first read: both walk every folder, and
    // running them at once slows the read that makes the server searchable.
    // What changed during the read is picked up by a reconciling pass.
    void this.startWatching();
    const ms = Math.round(performance.now() - started);
    this.options.log(
      `Read ${counted(this.own.size, 'note')} in ${counted(this.own.folders().length, 'folder')} of ${this.own.root} in ${ms} ms${cached.has(this.own) ? ' (from the index cache)' : ''}.`,
    );
    for (const vault of this.teammates) {
      const shared = [...vault.all()].filter((record) => record.shared).length;
      this.options.log(`Mounted ${vault.owner}'s vault ${vault.root} read-only: ${shared} shared notes.`);
    }
    // Old versions go at start, once the notes are read; nothing else waits for it.
    if (!this.own.readOnly) void this.activity.prune();
    await this.indexing.afterFirstRead();
  }

  private async startWatching(): Promise<void> {
    const vaults = [this.own, ...this.teammates];
    if (this.options.watch !== false && !this.closed) {
      await Promise.all(
        vaults.map(async (vault) => {
          const watcher = new VaultWatcher(vault, vault === this.own ? this.logs.log : this.options.log);
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

  /** Write the note records and the full-text index to the cache, if they changed. */
  flush(): Promise<void> {
    return this.indexing.flush();
  }

  /** Wait until every change the watchers have seen is applied. */
  async settled(): Promise<void> {
    await Promise.all(this.watchers.map((watcher) => watcher.settled()));
  }

  /**
   * The tool context for one connection with the given access policy; `by`
   * names the connection in the activity record ("stdio", "token NAME").
   */
  context(policy: AccessPolicy = createPolicy(), by = 'stdio'): ToolContext {
    return {
      view: new VaultView(this.own, this.teammates, this.own.readOnly ? readOnlyPolicy(policy) : policy, { fulltext: this.indexing.fulltext, semantic: this.indexing.semantic }, { log: this.activity, by }),
      settings: this.options.settings,
      clock: this.options.clock,
    };
  }

  /** Stop now: a cache save under way is abandoned rather than finished (a second signal while stopping). */
  hurry(): void {
    this.indexing.stopping(Date.now());
  }

  /**
   * Stop: the watchers, git and the model end, and the index cache is saved
   * if it changed. A server that stops gives the save `saveWithinMs` from
   * now (STOP_SAVE_MS, src/cli/stopping.ts); one not done by then is
   * abandoned and leaves no temporary file. A command (`index`, an import)
   * gives it all the time it takes. A first read still under way is
   * abandoned, not waited for, and nothing of it is saved: the cache keeps
   * what the last complete read saved.
   */
  async close(saveWithinMs?: number): Promise<void> {
    if (saveWithinMs !== undefined) this.indexing.stopping(Date.now() + saveWithinMs);
    for (const vault of [this.own, ...this.teammates]) vault.stopLoading();
    this.closed = true;
    this.watchingStarted?.();
    await this.loaded.catch(() => undefined);
    await Promise.all(this.watchers.map((watcher) => watcher.close()));
    await Promise.all([this.own, ...this.teammates].map((vault) => vault.close()));
    await this.indexing.close();
  }
}
