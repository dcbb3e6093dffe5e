import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayBeInRepository } from '../../../src/vault/git/repository-marker.js';
import { removeDir, tempDir } from '../../support/helpers.js';

/** What git itself says of the folder: is it inside a work tree or a repository? */
function gitFindsRepository(dir: string): boolean {
  const env = { ...process.env };
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_CEILING_DIRECTORIES']) delete env[name];
  return spawnSync('git', ['rev-parse', '--git-dir'], { cwd: dir, env, stdio: 'ignore' }).status === 0;
}

describe('mayBeInRepository: whether git could find a repository, without starting git', () => {
  let root: string;
  beforeAll(async () => {
    root = await tempDir('dexi-marker-');
    await mkdir(path.join(root, 'plain', 'deep'), { recursive: true });
    execFileSync('git', ['init', '-q', path.join(root, 'repo')]);
    await mkdir(path.join(root, 'repo', 'Notes', 'Deep'), { recursive: true });
    // A linked worktree's .git is a file naming the real git folder.
    await mkdir(path.join(root, 'worktree'));
    await writeFile(path.join(root, 'worktree', '.git'), `gitdir: ${path.join(root, 'repo', '.git')}\n`);
    execFileSync('git', ['init', '-q', '--bare', path.join(root, 'bare.git')]);
    await mkdir(path.join(root, 'bare.git', 'notes'));
    await symlink(path.join(root, 'repo', 'Notes'), path.join(root, 'plain', 'link'));
  });
  afterAll(async () => {
    await removeDir(root);
  });

  it.each([
    ['a folder with no repository above it', 'plain/deep', false],
    ['the top of a work tree', 'repo', true],
    ['a folder deep in a work tree', 'repo/Notes/Deep', true],
    ['a folder whose .git is a file (a linked worktree, a submodule)', 'worktree', true],
    ['a folder inside a bare repository', 'bare.git/notes', true],
    ['a link outside any repository to a folder inside one', 'plain/link', true],
    ['a folder that does not exist (git gives its own answer)', 'plain/missing', true],
  ])('%s: %s', async (_what, folder, expected) => {
    const dir = path.join(root, folder);
    const verdict = await mayBeInRepository(dir);
    expect(verdict).toBe(expected);
    // Never a repository git would find ruled out.
    if (!verdict) expect(gitFindsRepository(dir)).toBe(false);
    else if (folder !== 'plain/missing') expect(gitFindsRepository(dir)).toBe(true);
  });
});
