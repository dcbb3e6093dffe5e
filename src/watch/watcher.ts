import { watch, type FSWatcher } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { isIgnoredName, isNoteFileName } from '../vault/ignore.js';
import type { Logger, Vault } from '../vault/vault.js';
import { PUBLIC_WARNING } from '../vault/logger.js';

const RECHECK_MS = 250;

/**
 * Keeps the vault model in step with edits made by anyone: an editor, a sync
 * tool, git. The vault model decides what a change means (edit, move, copy);
 * the watcher only says which paths to look at again, and every path it
 * names is checked on the disk, so a stale or doubled event costs a look
 * and nothing more.
 *
 * One `fs.watch` per folder (inotify on Linux), with no record of the files
 * in it. Measured on the generated 100,000-note vault (BENCHMARKS.md, issue
 * 17): chokidar 5, which keeps a record and a stat of every file, took 9.6 s
 * and 12 s of CPU to be ready and 672 MB more memory; Node's recursive
 * `fs.watch` blocked the thread for 3.1 s and took 251 MB; @parcel/watcher
 * was ready in 0.49 s with 33 MB, but it folds each batch of events by path,
 * and a file replaced by a rename (as the server and many editors save) and
 * deleted within one batch was never reported: the differential test found
 * deleted notes left in the index. This walk of the folders watches the same
 * vault with one readdir per folder.
 */
export class VaultWatcher {
  /** By vault-relative folder ('' for the top folder). */
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly pending = new Set<Promise<unknown>>();
  private readonly rechecks = new Map<string, NodeJS.Timeout>();
  private closed = false;
  private warnedLimit = false;

  constructor(
    private readonly vault: Vault,
    private readonly log: Logger,
  ) {}

  /** Resolves once every folder is watched. */
  async start(): Promise<void> {
    this.watchFolder('');
    await this.watchBelow('', false);
  }

  private absolute(vaultPath: string): string {
    return vaultPath === '' ? this.vault.root : path.join(this.vault.root, vaultPath);
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.catch((error: unknown) => this.log(`Watcher: ${(error as Error).message}`));
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
  }

  /** Whether `folder` is watched now: false when it is not there by that name (gone, or a name that is not valid UTF-8, which Node cannot open). */
  private watchFolder(folder: string): boolean {
    if (this.closed) return false;
    if (this.watchers.has(folder)) return true;
    let watcher: FSWatcher;
    try {
      watcher = watch(this.absolute(folder), { persistent: false }, (_type, name) => this.onEvent(folder, name));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOSPC' || code === 'EMFILE') {
        if (!this.warnedLimit) {
          this.log(`Cannot watch every folder: the system's limit on watched folders is reached (on Linux, raise fs.inotify.max_user_watches). Changes in the folders not watched are picked up at the next start.`, PUBLIC_WARNING);
        }
        this.warnedLimit = true;
      }
      // A folder gone before it could be watched is reported by its parent.
      return false;
    }
    // The folder went away (or was moved: its watch would follow it under its old name).
    watcher.on('error', () => this.track(this.folderChanged(folder)));
    this.watchers.set(folder, watcher);
    return true;
  }

  /**
   * Watch the folders below `folder` (already watched), and with `readNotes`
   * look at every note in them: a folder moved in arrives with its notes and
   * reports only itself. Links are not followed, as everywhere.
   */
  private async watchBelow(folder: string, readNotes: boolean): Promise<void> {
    const folders = [folder];
    while (folders.length > 0 && !this.closed) {
      const current = folders.pop() as string;
      const entries = await readdir(this.absolute(current), { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (isIgnoredName(entry.name)) continue;
        const child = current === '' ? entry.name : `${current}/${entry.name}`;
        if (entry.isDirectory()) {
          if (!this.watchFolder(child)) continue;
          // At the start the first read has listed the folders already.
          if (readNotes) this.vault.folderAdded(child);
          folders.push(child);
        } else if (readNotes && entry.isFile() && isNoteFileName(entry.name)) {
          this.changed(child);
        }
      }
    }
  }

  private onEvent(folder: string, name: string | Buffer | null): void {
    if (this.closed) return;
    if (name === null) {
      // No name given: look at the whole folder again.
      this.track(this.watchBelow(folder, true));
      return;
    }
    const text = name.toString();
    if (isIgnoredName(text)) return;
    const child = folder === '' ? text : `${folder}/${text}`;
    if (isNoteFileName(text)) this.changed(child);
    else this.track(this.folderChanged(child));
  }

  /**
   * A note's file changed, appeared or went (`refresh` reads it, or drops
   * the note when the file is gone): looked at now, and once more
   * shortly after, since a write may still be under way when it is first
   * reported. Unchanged content costs a read and a hash.
   */
  private changed(vaultPath: string): void {
    this.track(this.vault.refresh(vaultPath));
    clearTimeout(this.rechecks.get(vaultPath));
    const timer = setTimeout(() => {
      this.rechecks.delete(vaultPath);
      if (!this.closed) this.track(this.vault.refresh(vaultPath));
    }, RECHECK_MS);
    timer.unref();
    this.rechecks.set(vaultPath, timer);
  }

  /** Something that is not a note changed at `vaultPath`: a folder may have come or gone. */
  private async folderChanged(vaultPath: string): Promise<void> {
    const info = await lstat(this.absolute(vaultPath)).catch(() => undefined);
    if (this.closed) return;
    if (info?.isDirectory()) {
      if (this.watchers.has(vaultPath) || !this.watchFolder(vaultPath)) return;
      this.vault.folderAdded(vaultPath);
      await this.watchBelow(vaultPath, true);
      return;
    }
    if (vaultPath === '') return;
    const prefix = `${vaultPath}/`;
    for (const [folder, watcher] of this.watchers) {
      if (folder === vaultPath || folder.startsWith(prefix)) {
        watcher.close();
        this.watchers.delete(folder);
      }
    }
    await this.vault.folderGone(vaultPath);
  }

  /** Wait for every change seen so far to be applied, re-checks included (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.pending.size > 0 || this.rechecks.size > 0) {
      if (this.pending.size > 0) await Promise.all([...this.pending]);
      else await new Promise((resolve) => setTimeout(resolve, RECHECK_MS / 5));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.rechecks.values()) clearTimeout(timer);
    this.rechecks.clear();
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    await this.settled();
  }
}
