import { mkdir, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheDir, INDEX_CACHE_FILE } from '../../src/storage/dexi-dir.js';
import { removeDir, writeVault } from '../support/helpers.js';
import { CLI, eventually, ROOT } from '../support/process.js';
import { killHard, startStdioServer, type StdioServer } from '../support/stdio-server.js';

const dirs: string[] = [];
const servers: StdioServer[] = [];
afterEach(async () => {
  for (const served of servers.splice(0)) {
    await served.client.close().catch(() => undefined);
    if (served.pid !== null) killHard(served.pid);
  }
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

describe('serve with a large index cache', () => {
  it('lists the files before its modules load, reads the vault from that listing, and rebuilds a cache that is not one', async () => {
    const dir = await writeVault({ 'One.md': '# One\n\nalpha words\n', 'Sub/Two.md': '# Two\n\nbeta words\n' });
    dirs.push(dir);
    // 60 MB of nothing where the cache goes: large enough for the early listing (src/cli/early-scan.ts), and damaged.
    const cache = path.join(cacheDir(dir), INDEX_CACHE_FILE);
    await mkdir(cacheDir(dir), { recursive: true });
    await writeFile(cache, '');
    await truncate(cache, 60 * 1024 * 1024);
    const served = await startStdioServer({ args: [CLI, 'serve', '--vault', dir, '--model', 'none'], cwd: ROOT, clientName: 'early-scan' });
    servers.push(served);
    const found = await eventually(async () => {
      const result = await served.call('search_notes', { query: 'beta' });
      return result.isError ? undefined : result;
    }, 20_000, 'the vault to be searchable');
    expect(found.structuredContent).toMatchObject({ items: [{ title: 'Two', folder: 'Sub' }], total: 1 });
    await served.stderrMatching(/The index cache is damaged; rebuilding it\./);
    await served.stderrMatching(/Read 2 notes in 1 folder/);
    await eventually(async () => ((await stat(cache)).size < 1024 * 1024 ? true : undefined), 20_000, 'the cache to be written again');
  });
});
