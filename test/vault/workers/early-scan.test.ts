import { mkdir, realpath, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { beginEarlyScan } from '../../../src/cli/early-scan.js';
import { cacheDir, INDEX_CACHE_FILE } from '../../../src/storage/dexi-dir.js';
import { Vault } from '../../../src/vault/vault.js';
import { beginScan } from '../../../src/vault/workers/scan-pool.js';
import { removeDir, TestClock, writeVault } from '../../support/helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

async function vaultWith(notes: number): Promise<string> {
  const dir = await writeVault(Object.fromEntries(Array.from({ length: notes }, (_, i) => [`Folder ${i % 2}/Note ${i}.md`, `# Note ${i}\n\nText ${i}.\n`])));
  dirs.push(dir);
  return dir;
}

/** An index cache file of `bytes` (sparse: only its size is looked at). */
async function cacheOf(dir: string, bytes: number): Promise<void> {
  await mkdir(cacheDir(dir), { recursive: true });
  const file = path.join(cacheDir(dir), INDEX_CACHE_FILE);
  await writeFile(file, '');
  await truncate(file, bytes);
}

describe('the early listing of a large vault', () => {
  it.each<[string, number | undefined, boolean]>([
    ['no cache', undefined, false],
    ['a small cache', 1024 * 1024, false],
    ['a cache of a large vault', 60 * 1024 * 1024, true],
  ])('for a vault with %s (%s bytes of cache): begun, %s', async (_name, bytes, begun) => {
    const dir = await vaultWith(3);
    if (bytes !== undefined) await cacheOf(dir, bytes);
    const early = beginEarlyScan(dir);
    expect(early !== undefined).toBe(begun);
    if (!early) return;
    expect(early.root).toBe(await realpath(dir));
    expect((await early.packed)?.count).toBe(3);
  });

  it('is not begun for a folder that is not there', () => {
    expect(beginEarlyScan('/nonexistent/dexi-vault-test')).toBeUndefined();
  });

  it('is what the first read of its vault reads, and only of that vault', async () => {
    const dir = await vaultWith(4);
    const root = await realpath(dir);
    const packed = beginScan(root);
    await packed;
    // Written after the listing: the first read that takes the listing does not see it.
    await writeFile(path.join(dir, 'Later.md'), '# Later\n');
    const taking = await Vault.open({ root: dir, clock: new TestClock(), log: () => undefined, git: false });
    await taking.load(undefined, { root, packed });
    expect([...taking.all()].map((record) => record.path).sort()).toEqual(['Folder 0/Note 0.md', 'Folder 0/Note 2.md', 'Folder 1/Note 1.md', 'Folder 1/Note 3.md']);
    const other = await Vault.open({ root: dir, clock: new TestClock(), log: () => undefined, git: false });
    await other.load(undefined, { root: `${root}-elsewhere`, packed });
    expect(other.size).toBe(5);
  });
});
