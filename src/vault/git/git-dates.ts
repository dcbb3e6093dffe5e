import { cacheDir, ensureCacheDir } from '../../storage/dexi-dir.js';
import type { Catalog } from '../catalog.js';
import { readGitHistory } from './git-history.js';

/** How often a git work tree is asked whether HEAD moved (a commit, a pull), so that dates follow. */
const GIT_RECHECK_MS = 30_000;

/**
 * Keeps the catalog's dates in step with the git history: read once in the
 * background, then again whenever HEAD moves. Reading git writes nothing but
 * the cache file under `.dexi/cache/`.
 */
export class GitDates {
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> | undefined;
  private closing = false;
  private cacheReady = false;
  /** Ends a git run under way when the server stops: a long history must not hold the exit. */
  private readonly abort = new AbortController();

  constructor(
    private readonly root: string,
    private readonly catalog: Catalog,
    private readonly options: {
      log: (line: string) => void;
      /** Where the history is cached (default the vault's `.dexi/cache/`, made to ignore itself first; a given folder is made as it is). */
      cacheDir?: string | undefined;
      /** Notes' dates changed without their files changing. */
      onDates: () => void;
    },
  ) {}

  /** Resolves once the history read under way (if any) is done. */
  get settled(): Promise<void> {
    return this.reading ?? Promise.resolve();
  }

  get started(): boolean {
    return this.reading !== undefined;
  }

  start(): void {
    if (this.reading) return;
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), GIT_RECHECK_MS);
    this.timer.unref();
  }

  /** Ask git whether HEAD moved (a commit, a pull, a checkout) and take the new dates if it did. */
  refresh(): Promise<void> {
    const previous = this.reading ?? Promise.resolve();
    this.reading = previous.then(() => this.read());
    return this.reading;
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.timer);
    this.abort.abort();
    await this.reading?.catch(() => undefined);
  }

  private async read(): Promise<void> {
    if (this.closing) return;
    try {
      // The cache folder ignores itself in git before anything is cached in it.
      if (this.options.cacheDir === undefined && !this.cacheReady) {
        await ensureCacheDir(this.root);
        this.cacheReady = true;
      }
      const history = await readGitHistory(this.root, {
        cacheDir: this.options.cacheDir ?? cacheDir(this.root),
        log: this.options.log,
        knownHead: this.catalog.gitHead,
        signal: this.abort.signal,
      });
      if (history === 'unchanged') return;
      if (history === undefined) {
        // Not a work tree, no git, or a history git cannot read: file times it is, until the next start.
        if (this.catalog.gitHead === undefined) clearInterval(this.timer);
        return;
      }
      if (this.catalog.setGit(history) > 0) this.options.onDates();
    } catch (error) {
      if (this.closing) return;
      this.options.log(`Could not read the git history for dates: ${(error as Error).message}`);
    }
  }
}
