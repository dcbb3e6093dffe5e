import { mkdir, realpath, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWithin, PathOutsideVaultError, resolveInside, toVaultPath } from '../../src/storage/paths.js';
import { removeDir, tempDir } from '../support/helpers.js';

describe('isWithin', () => {
  it.each([
    ['/vault', '/vault', true],
    ['/vault', '/vault/a.md', true],
    ['/vault', '/vault/a/b/c.md', true],
    ['/vault', '/vault-evil/a.md', false],
    ['/vault', '/vaultx', false],
    ['/vault', '/vault/../etc/passwd', false],
    ['/vault', '/', false],
    ['/vault', '/vault/..hidden', true],
    ['/vault/', '/vault/a', true],
  ])('%s contains %s: %s', (root, candidate, expected) => {
    expect(isWithin(root, candidate)).toBe(expected);
  });

  it('uses / in vault paths', () => {
    expect(toVaultPath('/vault', path.join('/vault', 'a', 'b.md'))).toBe('a/b.md');
  });
});

describe('resolveInside with real links', () => {
  let root: string;
  let outside: string;
  beforeAll(async () => {
    const base = await realpath(await tempDir());
    root = path.join(base, 'vault');
    outside = path.join(base, 'vault-evil');
    await mkdir(path.join(root, 'inside'), { recursive: true });
    await mkdir(outside, { recursive: true });
    await symlink(outside, path.join(root, 'escape'));
    await symlink(path.join(root, 'inside'), path.join(root, 'alias'));
  });
  afterAll(async () => {
    await removeDir(path.dirname(root));
  });

  it.each([
    ['inside', true],
    ['inside/new/deeper.md', true],
    ['alias/new.md', true],
    ['escape', false],
    ['escape/new.md', false],
    ['../vault-evil/x.md', false],
    ['/etc/passwd', false],
    ['a\0b', false],
  ])('%s allowed: %s', async (rel, allowed) => {
    if (allowed) {
      const resolved = await resolveInside(root, rel);
      expect(isWithin(root, resolved)).toBe(true);
    } else {
      await expect(resolveInside(root, rel)).rejects.toBeInstanceOf(PathOutsideVaultError);
    }
  });
});
