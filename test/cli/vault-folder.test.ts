import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/access/policy.js';
import { failureSentence } from '../../src/cli/failure.js';
import { openVaultFolder, readOnlyReason, userCacheHome } from '../../src/cli/vault-folder.js';
import { outsideCacheDir, probeWritable } from '../../src/storage/dexi-dir.js';
import { ServedVault } from '../../src/server/served-vault.js';
import { safeDirectorySentence } from '../../src/vault/git/git-history.js';
import { DEFAULT_SETTINGS } from '../../src/vault/settings.js';
import { removeDir, TestClock, tempDir, writeVault } from '../support/helpers.js';

/** The rules behind serving a vault that cannot be written: the decision, where its caches go, what is said. */

const cleanup: string[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((dir) => removeDir(dir)));
});

async function fresh(): Promise<string> {
  const dir = await tempDir();
  cleanup.push(dir);
  return dir;
}

describe('which write failures make a vault read-only', () => {
  it.each([
    ['EACCES', 'permission denied'],
    ['EPERM', 'not permitted'],
    ['EROFS', 'read-only file system'],
    ['ENOTDIR', 'its .dexi is a file, not a folder'],
    // Passing conditions: each write says so itself, and the next may pass.
    ['ENOSPC', undefined],
    ['EDQUOT', undefined],
    ['EIO', undefined],
  ])('%s → %s', (code, reason) => {
    expect(readOnlyReason(code)).toBe(reason);
  });
});

describe('the person cache directory', () => {
  it.each([
    [{ XDG_CACHE_HOME: '/x/cache' }, 'linux', '/x/cache'],
    // The XDG spec: a relative path is ignored.
    [{ XDG_CACHE_HOME: 'rel/cache' }, 'linux', '/home/p/.cache'],
    [{ XDG_CACHE_HOME: '' }, 'linux', '/home/p/.cache'],
    [{}, 'linux', '/home/p/.cache'],
    [{}, 'darwin', '/home/p/Library/Caches'],
    [{ XDG_CACHE_HOME: '/x/cache' }, 'darwin', '/x/cache'],
    [{}, 'win32', path.join('/home/p', 'AppData', 'Local')],
    [{ LOCALAPPDATA: '/la' }, 'win32', '/la'],
  ] as const)('%j on %s → %s', (env, platform, expected) => {
    expect(userCacheHome(env, platform, '/home/p')).toBe(expected);
  });
});

describe('outsideCacheDir', () => {
  it('is stable for one real path, readable by name, and differs for two vaults of one name', () => {
    const one = outsideCacheDir('/c', '/mnt/snap/Notes');
    expect(one).toBe(outsideCacheDir('/c', '/mnt/snap/Notes'));
    expect(one).toMatch(/^\/c\/dexi-vault\/Notes-[0-9a-f]{16}$/);
    expect(outsideCacheDir('/c', '/home/a/Notes')).not.toBe(one);
  });

  it('keeps a safe, short name for odd folder names', () => {
    expect(path.basename(outsideCacheDir('/c', '/'))).toMatch(/^vault-[0-9a-f]{16}$/);
    expect(path.basename(outsideCacheDir('/c', '/x/..Mes notes: été'))).toMatch(/^Mes-notes-été-[0-9a-f]{16}$/);
    expect(path.basename(outsideCacheDir('/c', `/x/${'n'.repeat(300)}`)).length).toBeLessThanOrEqual(40 + 17);
  });
});

describe('probeWritable', () => {
  it('says a writable vault is writable, leaving no probe file behind', async () => {
    const vault = await fresh();
    await mkdir(path.join(vault, '.dexi'));
    expect(await probeWritable(vault)).toEqual({ writable: true });
    expect(await readdir(path.join(vault, '.dexi'))).toEqual([]);
  });

  it('tries by making .dexi when it is missing', async () => {
    const vault = await fresh();
    expect(await probeWritable(vault)).toEqual({ writable: true });
    expect(await readdir(vault)).toEqual(['.dexi']);
  });

  it('says ENOTDIR when .dexi is a file', async () => {
    const vault = await fresh();
    await writeFile(path.join(vault, '.dexi'), 'not a folder');
    expect(await probeWritable(vault)).toEqual({ writable: false, code: 'ENOTDIR' });
    expect(await readFile(path.join(vault, '.dexi'), 'utf8')).toBe('not a folder');
  });
});

describe('openVaultFolder', () => {
  it('names a missing vault and a file as the vault, in one sentence', async () => {
    const parent = await fresh();
    await expect(openVaultFolder(path.join(parent, 'gone'), false)).rejects.toThrow(`The vault folder ${path.join(parent, 'gone')} does not exist; give the vault with --vault DIR (or $DEXI_VAULT).`);
    await writeFile(path.join(parent, 'file'), '');
    await expect(openVaultFolder(path.join(parent, 'file'), true)).rejects.toThrow(`The vault ${path.join(parent, 'file')} is not a folder;`);
    // Nothing was made for either.
    expect((await readdir(parent)).sort()).toEqual(['file']);
  });

  it('reads a folder without writing to it unless asked to probe', async () => {
    const vault = await fresh();
    expect(await openVaultFolder(vault, false)).toEqual({ root: vault });
    expect(await readdir(vault)).toEqual([]);
    expect(await openVaultFolder(vault, true)).toEqual({ root: vault });
  });

  it('serves a vault whose .dexi is a file read-only, and says why', async () => {
    const vault = await fresh();
    await writeFile(path.join(vault, '.dexi'), '');
    expect(await openVaultFolder(vault, true)).toEqual({ root: vault, readOnlyBecause: 'its .dexi is a file, not a folder' });
  });
});

describe('failureSentence', () => {
  it('names the file a system call was refused, without a stack', () => {
    const error = Object.assign(new Error("EACCES: permission denied, open '/v/.dexi/feeds.json'"), { code: 'EACCES', syscall: 'open', path: '/v/.dexi/feeds.json' });
    const sentence = failureSentence(error, undefined);
    expect(sentence).toBe('Stopped: dexi-vault could not open /v/.dexi/feeds.json (permission denied).');
    expect(failureSentence(error, '1')).toContain('\n    at ');
  });

  it('says an unexpected fault is one, with its stack only under DEXI_DEBUG', () => {
    const sentence = failureSentence(new RangeError('Maximum call stack size exceeded'), undefined);
    expect(sentence).toMatch(/^Stopped by an unexpected error: Maximum call stack size exceeded\. This is a fault of dexi-vault/);
    expect(sentence).not.toMatch(/\n\s+at /);
    expect(failureSentence(new RangeError('x'), '0')).not.toMatch(/\n\s+at /);
    expect(failureSentence(new RangeError('x'), 'true')).toMatch(/\n\s+at /);
  });
});

describe('a colleague\'s git repository', () => {
  it('is named in a sentence that passes on git\'s own command to allow it, and says where dates come from', () => {
    // git 2.39's words, as it refused a repository owned by root to the user nobody.
    const stderr = "fatal: detected dubious ownership in repository at '/v'\nTo add an exception for this directory, call:\n\n\tgit config --global --add safe.directory /v\n";
    expect(safeDirectorySentence(stderr)).toBe(
      'Git history skipped: git does not read a repository that belongs to another user, so dates come from the files\' times; if you trust it, "git config --global --add safe.directory /v" lets it be read.',
    );
    expect(safeDirectorySentence("fatal: unsafe repository ('/v' is owned by someone else)\nsee safe.directory\n")).toBe(
      "Git history skipped: git does not read a repository that belongs to another user, so dates come from the files' times.",
    );
  });
});

describe('a ServedVault opened read-only with its caches outside', () => {
  it('writes nothing into the vault, keeps its cache outside, and lets no connection write', async () => {
    const vault = await writeVault({ 'a.md': '# A\n\nalpha words\n', 'Work/b.md': '# B\n\nbeta\n' }, await fresh());
    const outside = path.join(await fresh(), 'cache');
    const runtime = await ServedVault.open({ vaultDir: vault, settings: DEFAULT_SETTINGS, shared: [], clock: new TestClock(), log: () => undefined, watch: false, readOnly: true, cacheDir: outside });
    try {
      await runtime.loaded;
      await runtime.flush();
      const context = runtime.context(createPolicy({ scopes: ['notes:read', 'notes:write'] }), 'token laptop');
      expect([...context.view.policy.scopes]).toEqual(['notes:read']);
      await expect(runtime.own.create({ title: 'New', text: 'x' })).rejects.toThrow(
        'The vault folder cannot be written, so the server serves it read-only: nothing can be created in it.',
      );
      expect(runtime.own.cacheDir).toBe(outside);
    } finally {
      await runtime.close();
    }
    expect((await readdir(vault)).sort()).toEqual(['Work', 'a.md']);
    expect(await readdir(outside)).toContain('index.bin');
  });
});
