import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { attachmentPathProblem } from '../../src/vault/delete.js';
import { connect, removeDir, writeVault, type Harness } from '../support/helpers.js';

/**
 * `delete_note` removes a note's `attachment:` only when it is a plain file
 * inside the connection's boundary, outside dot-folders, reached through no
 * link, and not a note. Every other attachment is kept, and the answer says
 * why. Issue 15, finding 1: each of these was deleted from a `--folder Work`
 * connection before.
 */

const id = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const attached = (n: number, attachment: string, tags = ''): string => `---\nid: ${id(n)}\nattachment: ${attachment}\n---\nattached ${tags}\n`;

let h: Harness | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

const exists = (file: string): Promise<boolean> => stat(file).then(() => true, () => false);

describe('attachmentPathProblem', () => {
  it.each([
    ['Work/scan.pdf', undefined],
    ['Work\\scan.pdf', undefined],
    ['./Work/./scan.pdf', undefined],
    ['scan.pdf', undefined],
    ['../outside.pdf', 'it leads out of its folder'],
    ['Work/../../etc/passwd', 'it leads out of its folder'],
    ['/etc/passwd', 'it is not a path inside the vault'],
    ['C:/Windows/win.ini', 'it is not a path inside the vault'],
    ['.git/config', 'it is inside a dot-folder or is a dot-file'],
    ['.dexi/tokens.json', 'it is inside a dot-folder or is a dot-file'],
    ['Work/.obsidian/app.json', 'it is inside a dot-folder or is a dot-file'],
    ['.env', 'it is inside a dot-folder or is a dot-file'],
    ['Work/Other note.md', 'it is a note'],
    ['Work/Other note.MD', 'it is a note'],
    ['', 'it is not a file name'],
    ['a\0b', 'it is not a file name'],
  ])('%j: %s', (attachment, problem) => {
    const answer = attachmentPathProblem(attachment);
    expect('problem' in answer ? answer.problem : undefined).toBe(problem);
  });
});

describe('delete_note and attachments, from a --folder Work connection', () => {
  async function hostileVault(): Promise<string> {
    const dir = await writeVault({
      'Private/contract.pdf': 'contract',
      'Private/scan.pdf': 'scan',
      'Private/Folder/inner.pdf': 'inner',
      'Private/Secret.md': `---\nid: ${id(90)}\n---\nsecret\n`,
      '.git/config': '[core]\n',
      '.dexi/tokens.json': '{"tokens":[]}\n',
      'Work/own.pdf': 'own',
      'Work/Sub/deep.pdf': 'deep',
      'Work/Other.md': `---\nid: ${id(91)}\n---\nother\n`,
      'Work/outside.md': attached(1, 'Private/contract.pdf'),
      'Work/via-link.md': attached(2, 'Work/sym.pdf'),
      'Work/via-linked-folder.md': attached(3, 'Work/Linked/inner.pdf'),
      'Work/git.md': attached(4, '.git/config'),
      'Work/tokens.md': attached(5, '.dexi/tokens.json'),
      'Work/dotdot.md': attached(6, 'Work/../Private/scan.pdf'),
      'Work/note.md': attached(7, 'Work/Other.md'),
      'Work/inside.md': attached(8, 'Work/own.pdf'),
      'Work/deep.md': attached(9, 'Work/Sub/deep.pdf'),
      'Work/missing.md': attached(10, 'Work/nothing.pdf'),
    });
    await symlink(path.join(dir, 'Private', 'scan.pdf'), path.join(dir, 'Work', 'sym.pdf'));
    await symlink(path.join(dir, 'Private', 'Folder'), path.join(dir, 'Work', 'Linked'));
    dirs.push(dir);
    return dir;
  }

  it.each([
    [1, 'Private/contract.pdf', 'it is outside what this connection may change'],
    [2, 'Private/scan.pdf', 'it is reached through a link'],
    [3, 'Private/Folder/inner.pdf', 'it is reached through a link'],
    [4, '.git/config', 'it is inside a dot-folder or is a dot-file'],
    [5, '.dexi/tokens.json', 'it is inside a dot-folder or is a dot-file'],
    [6, 'Private/scan.pdf', 'it leads out of its folder'],
    [7, 'Work/Other.md', 'it is a note'],
  ])('note %i keeps %s (%s) and is deleted itself', async (n, kept, why) => {
    const dir = await hostileVault();
    h = await connect({ dir, folder: 'Work' });
    const before = await readFile(path.join(dir, kept), 'utf8');
    const result = await h.ok<{ deleted: true; id: string; attachment_kept?: string }>('delete_note', { note_id: id(n) });
    expect(result.id).toBe(id(n));
    expect(result.attachment_kept).toContain(why);
    expect(await readFile(path.join(dir, kept), 'utf8')).toBe(before);
    // The link itself is kept too: nothing is left dangling.
    if (n === 2) expect(await readFile(path.join(dir, 'Work', 'sym.pdf'), 'utf8')).toBe('scan');
    expect(h.logs.some((line) => line.startsWith('Kept attachment') && line.includes(why))).toBe(true);
    expect(await h.fail('get_note', { note_id: id(n) })).toBe('Note not found');
  });

  it('removes a plain file inside the boundary, in a subfolder too, and says nothing of it', async () => {
    const dir = await hostileVault();
    h = await connect({ dir, folder: 'Work' });
    for (const [n, file] of [[8, 'Work/own.pdf'], [9, 'Work/Sub/deep.pdf']] as const) {
      const result = await h.ok<Record<string, unknown>>('delete_note', { note_id: id(n) });
      expect(result).toEqual({ deleted: true, id: id(n), title: n === 8 ? 'inside' : 'deep' });
      expect(await exists(path.join(dir, file))).toBe(false);
    }
    const missing = await h.ok<{ attachment_kept?: string }>('delete_note', { note_id: id(10) });
    expect(missing.attachment_kept).toContain('there is no such file');
  });
});

describe('delete_note and attachments, from a --tag #work connection', () => {
  it("removes only an attachment in its note's folder or below", async () => {
    const dir = await writeVault({
      'Projects/a.pdf': 'a',
      'Projects/b/c.pdf': 'c',
      'Elsewhere/d.pdf': 'd',
      'Projects/one.md': attached(1, 'Projects/a.pdf', '#work'),
      'Projects/two.md': attached(2, 'Projects/b/c.pdf', '#work'),
      'Projects/three.md': attached(3, 'Elsewhere/d.pdf', '#work'),
    });
    dirs.push(dir);
    h = await connect({ dir, tag: '#work' });
    for (const n of [1, 2, 3]) await h.ok('delete_note', { note_id: id(n) });
    expect(await exists(path.join(dir, 'Projects/a.pdf'))).toBe(false);
    expect(await exists(path.join(dir, 'Projects/b/c.pdf'))).toBe(false);
    expect(await readFile(path.join(dir, 'Elsewhere/d.pdf'), 'utf8')).toBe('d');
  });
});

describe('an unbounded connection', () => {
  it('still never removes a dot-folder file, a link or a note', async () => {
    const dir = await writeVault({
      '.git/config': '[core]\n',
      'real.pdf': 'real',
      'Other.md': `---\nid: ${id(50)}\n---\nother\n`,
      'a.md': attached(1, '.git/config'),
      'b.md': attached(2, 'link.pdf'),
      'c.md': attached(3, 'Other.md'),
    });
    dirs.push(dir);
    await symlink(path.join(dir, 'real.pdf'), path.join(dir, 'link.pdf'));
    await mkdir(path.join(dir, 'x'), { recursive: true });
    await writeFile(path.join(dir, 'x', 'keep.txt'), 'k');
    h = await connect({ dir });
    for (const n of [1, 2, 3]) expect((await h.ok<{ attachment_kept?: string }>('delete_note', { note_id: id(n) })).attachment_kept).toBeDefined();
    expect(await readFile(path.join(dir, '.git/config'), 'utf8')).toBe('[core]\n');
    expect(await readFile(path.join(dir, 'link.pdf'), 'utf8')).toBe('real');
    expect(await h.ok('get_note', { note_id: id(50) })).toMatchObject({ id: id(50) });
  });
});
