import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyVault, vaultFolderProblem } from '../../bench/vault-copy.js';

let base: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'dexi-vault-copy-'));
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function tree(root: string): Promise<string[]> {
  return (await readdir(root, { recursive: true })).sort();
}

async function write(file: string, text: string): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, text);
}

describe('copyVault', () => {
  it('copies the notes and folders the server reads, and nothing else; the source is left as it was', async () => {
    const source = join(base, 'vault');
    await write(join(source, 'Top.md'), 'top\n');
    await write(join(source, 'Projects', 'Alpha', 'Plan.MD'), 'plan\n');
    await mkdir(join(source, 'Empty'));
    await write(join(source, 'Projects', 'diagram.png'), 'png');
    await write(join(source, '.git', 'HEAD.md'), 'not a note');
    await write(join(source, '.dexi', 'cache', 'index.md'), 'not a note');
    await write(join(source, '.obsidian', 'workspace.md'), 'not a note');
    await write(join(source, 'node_modules', 'pkg', 'README.md'), 'not a note');
    await write(join(base, 'outside.md'), 'outside\n');
    await symlink(join(base, 'outside.md'), join(source, 'Linked.md'));
    const before = await tree(source);

    const target = join(base, 'copy');
    const copy = await copyVault(source, target);

    expect(await tree(target)).toEqual(['Empty', 'Projects', 'Projects/Alpha', 'Projects/Alpha/Plan.MD', 'Top.md']);
    expect(copy).toEqual({ notes: 2, folders: 3, bytes: 9, skipped: [] });
    expect(await readFile(join(target, 'Projects', 'Alpha', 'Plan.MD'), 'utf8')).toBe('plan\n');
    expect(await tree(source)).toEqual(before);
  });

  it("keeps each note's modification time (the server's updated date)", async () => {
    const source = join(base, 'vault');
    await write(join(source, 'Old.md'), 'old\n');
    const then = new Date('2024-03-01T12:00:00Z');
    await utimes(join(source, 'Old.md'), then, then);
    await copyVault(source, join(base, 'copy'));
    expect((await stat(join(base, 'copy', 'Old.md'))).mtimeMs).toBe(then.getTime());
  });

  it('leaves out a note over the 4 MiB limit, as the server does, and says so', async () => {
    const source = join(base, 'vault');
    await write(join(source, 'Small.md'), 'small\n');
    await write(join(source, 'Huge.md'), 'x'.repeat(4 * 1024 * 1024 + 1));
    const copy = await copyVault(source, join(base, 'copy'));
    expect(copy.notes).toBe(1);
    expect(copy.skipped).toEqual([`Huge.md (${4 * 1024 * 1024 + 1} bytes, over the server's 4 MiB note limit)`]);
    expect(await tree(join(base, 'copy'))).toEqual(['Small.md']);
  });

  it('refuses a target that exists already, rather than mixing two vaults', async () => {
    const source = join(base, 'vault');
    await write(join(source, 'A.md'), 'a\n');
    await mkdir(join(base, 'copy'));
    await expect(copyVault(source, join(base, 'copy'))).rejects.toThrow(/EEXIST/);
  });
});

describe('vaultFolderProblem', () => {
  it.each([
    { name: 'a folder with a note deep down', setup: async (dir: string) => write(join(dir, 'a', 'b', 'Note.md'), 'x'), want: undefined },
    { name: 'a missing folder', setup: async () => undefined, want: /^There is no folder .*vault\.$/ },
    { name: 'a file', setup: async (dir: string) => write(dir, 'x'), want: /is a file, not a folder of notes\.$/ },
    {
      name: 'a folder with notes only in dot-folders',
      setup: async (dir: string) => write(join(dir, '.git', 'Note.md'), 'x'),
      want: /holds no Markdown notes \(\.md files outside dot-folders such as \.git and \.obsidian\), so there is nothing to benchmark\.$/,
    },
  ])('$name', async ({ setup, want }) => {
    const dir = join(base, 'vault');
    await setup(dir);
    const problem = await vaultFolderProblem(dir);
    if (want === undefined) expect(problem).toBeUndefined();
    else expect(problem).toMatch(want);
  });
});
