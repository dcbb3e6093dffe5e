import { watch, type FSWatcher } from 'chokidar';
import path from 'node:path';
import { toVaultPath } from '../files/paths.js';
import { isIgnoredName } from '../vault/ignore.js';
import type { Logger, Vault } from '../vault/vault.js';

const RECHECK_MS = 250;

/**
 * Keeps the vault model in step with edits made by anyone: an editor, a sync
 * tool, git. The vault model decides what a change means (edit, move, copy);
 * the watcher only says which paths to look at again.
 */
export class VaultWatcher {
  private watcher: FSWatcher | undefined;
  private readonly pending = new Set<Promise<unknown>>();
  private readonly rechecks = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly vault: Vault,
    private readonly log: Logger,
  ) {}

  /** Resolves once the watcher is listening. */
  async start(): Promise<void> {
    const root = this.vault.root;
    const watcher = watch(root, {
      ignoreInitial: true,
      followSymlinks: false,
      // Editors that save through a temporary file and a rename produce an
      // unlink followed by an add; `atomic` folds them into one change.
      atomic: true,
      // chokidar 5 sometimes calls this without stats: decide on the name alone.
      ignored: (absolute: string) => {
        if (absolute === root) return false;
        const rel = path.relative(root, absolute);
        return rel.split(path.sep).some((segment) => isIgnoredName(segment));
      },
    });
    this.watcher = watcher;
    const track = (work: Promise<unknown>): void => {
      const tracked = work.catch((error: unknown) => this.log(`Watcher: ${(error as Error).message}`));
      this.pending.add(tracked);
      void tracked.finally(() => this.pending.delete(tracked));
    };
    const rel = (absolute: string): string => toVaultPath(root, absolute);
    // chokidar throttles bursts of events on one file, so a write landing
    // just after another may not be reported: each change is looked at now
    // and once more shortly after. Unchanged content costs a read and a hash.
    const changed = (file: string): void => {
      const vaultPath = rel(file);
      track(this.vault.refresh(vaultPath));
      clearTimeout(this.rechecks.get(vaultPath));
      const timer = setTimeout(() => {
        this.rechecks.delete(vaultPath);
        track(this.vault.refresh(vaultPath));
      }, RECHECK_MS);
      timer.unref();
      this.rechecks.set(vaultPath, timer);
    };
    watcher.on('add', changed);
    watcher.on('change', changed);
    watcher.on('unlink', (file) => track(this.vault.forget(rel(file))));
    watcher.on('addDir', (dir) => {
      if (dir !== root) this.vault.folderAdded(rel(dir));
    });
    watcher.on('unlinkDir', (dir) => this.vault.folderRemoved(rel(dir)));
    watcher.on('error', (error) => this.log(`Watcher error: ${(error as Error).message}`));
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  }

  /** Wait for every change seen so far to be applied, re-checks included (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.pending.size > 0 || this.rechecks.size > 0) {
      if (this.pending.size > 0) await Promise.all([...this.pending]);
      else await new Promise((resolve) => setTimeout(resolve, RECHECK_MS / 5));
    }
  }

  async close(): Promise<void> {
    for (const timer of this.rechecks.values()) clearTimeout(timer);
    this.rechecks.clear();
    await this.watcher?.close();
    await this.settled();
  }
}
