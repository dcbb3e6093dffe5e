import { afterEach } from 'vitest';
import { connect, removeDir, writeVault, type Harness, type HarnessOptions } from './helpers.js';

/**
 * Vaults and connections a test file opens, closed and removed after each
 * test. Call once at the top of a test file.
 */
export function sessions(defaults: Partial<HarnessOptions> = {}) {
  const open: Harness[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const h of open.splice(0)) await h.close();
    for (const dir of dirs.splice(0)) await removeDir(dir);
  });
  return {
    /** Remove this folder after the test. */
    keep(dir: string): string {
      dirs.push(dir);
      return dir;
    },
    /** A fresh vault of these files, removed after the test. */
    async vault(files: Record<string, string>): Promise<string> {
      return this.keep(await writeVault(files));
    },
    /** Connect to `dir` (closed after the test). */
    async connect(dir: string, options: Partial<HarnessOptions> = {}): Promise<Harness> {
      const h = await connect({ ...defaults, ...options, dir });
      open.push(h);
      return h;
    },
    /** Close a connection before the test ends (a restart). */
    async close(h: Harness): Promise<void> {
      open.splice(open.indexOf(h), 1);
      await h.close();
    },
    /** A fresh vault of these files, served. */
    async serve(files: Record<string, string>, options: Partial<HarnessOptions> = {}): Promise<Harness> {
      return this.connect(await this.vault(files), options);
    },
  };
}
