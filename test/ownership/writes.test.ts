import { chmod, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TestClock, writeVault, type Harness } from '../support/helpers.js';
import { sessions } from '../support/sessions.js';
import { gitStatus, initRepo } from '../support/git.js';

/**
 * A write changes only what the tool call asked, keeps every other byte
 * (comments, key order, line endings), and leaves alone a note the person
 * made read-only.
 */

const session = sessions({ clock: new TestClock(new Date('2026-12-01T09:30:00Z')) });
const serve = (files: Record<string, string>): Promise<Harness> => session.serve(files);

const idOf = (h: Harness, vaultPath: string): string => {
  const record = h.runtime.own.atPath(vaultPath);
  if (!record) throw new Error(`no note at ${vaultPath}`);
  return record.id;
};

const read = (h: Harness, vaultPath: string): Promise<string> => readFile(path.join(h.dir, vaultPath), 'utf8');

describe('append', () => {
  it.each([
    ['a note ending in a list', '- milk\n- eggs\n', 'Also bread.', '- milk\n- eggs\n\nAlso bread.\n'],
    ['a note without a final newline', 'First line', 'Second paragraph', 'First line\n\nSecond paragraph\n'],
    ['a note ending in blank lines', 'Text\n\n\n', 'More', 'Text\n\nMore\n'],
    ['an empty note', '', 'Only this', 'Only this\n'],
    ['text with its own line breaks', 'Start\n', 'one\ntwo\n\n', 'Start\n\none\ntwo\n'],
  ])('adds the text as a new paragraph to %s, with one final newline', async (_what, body, text, expected) => {
    const h = await serve({ 'Note.md': body });
    await h.ok('update_note', { note_id: idOf(h, 'Note.md'), mode: 'append', text });
    expect(await read(h, 'Note.md')).toBe(expected);
  });

  it('keeps a CRLF note CRLF, frontmatter included', async () => {
    const h = await serve({ 'Windows.md': '---\r\ntitle: From Windows\r\nupdated: 2024-01-01T00:00:00Z\r\n---\r\n- one\r\n- two\r\n' });
    await h.ok('update_note', { note_id: idOf(h, 'Windows.md'), mode: 'append', text: 'three\nfour' });
    const bytes = await read(h, 'Windows.md');
    expect(bytes).toBe('---\r\ntitle: From Windows\r\nupdated: 2026-12-01T09:30:00+00:00\r\n---\r\n- one\r\n- two\r\n\r\nthree\r\nfour\r\n');
    expect(bytes.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('keeps comments on the frontmatter lines it rewrites, and every other byte', async () => {
    const before = [
      '---',
      '# how I keep this note',
      'title: Old title # why this title',
      'updated: "2024-01-01"  # set by hand',
      'rating: 4',
      '---',
      'Body.',
      '',
    ].join('\n');
    const h = await serve({ 'Commented.md': before });
    await h.ok('update_note', { note_id: idOf(h, 'Commented.md'), mode: 'append', text: 'More.', title: 'New title' });
    expect(await read(h, 'Commented.md')).toBe(
      ['---', '# how I keep this note', 'title: New title # why this title', `updated: "${new Date('2026-12-01T09:30:00Z').toLocaleDateString('sv')}"  # set by hand`, 'rating: 4', '---', 'Body.', '', 'More.', ''].join('\n'),
    );
  });

  it('adds no key the note did not have', async () => {
    const h = await serve({ 'Bare.md': 'No frontmatter at all.\n' });
    await h.ok('update_note', { note_id: idOf(h, 'Bare.md'), mode: 'append', text: 'Still none.' });
    expect(await read(h, 'Bare.md')).toBe('No frontmatter at all.\n\nStill none.\n');
  });

  it('keeps a frontmatter block whose closing fence is the last byte, and the body out of it', async () => {
    const h = await serve({ 'Fence.md': '---\ntitle: Fence\n---' });
    await h.ok('update_note', { note_id: idOf(h, 'Fence.md'), mode: 'append', text: 'after the fence' });
    expect(await read(h, 'Fence.md')).toBe('---\ntitle: Fence\n---\nafter the fence\n');
    expect(h.runtime.own.atPath('Fence.md')?.title).toBe('Fence');
  });
});

describe('replace', () => {
  it('writes the text in the note\'s own line ending', async () => {
    const h = await serve({ 'Windows.md': 'old\r\ntext\r\n' });
    await h.ok('update_note', { note_id: idOf(h, 'Windows.md'), mode: 'replace', text: 'new\ntext\n' });
    expect(await read(h, 'Windows.md')).toBe('new\r\ntext\r\n');
  });

  // side-by-side-2 finding 5: every other byte of the note's ending is kept.
  it.each([
    ['keeps a CRLF note\'s final newline', 'x\r\ny\r\n', 'replace', 'new a\nnew b', 'new a\r\nnew b\r\n'],
    ['keeps a byte-order mark and the final newline', '\uFEFFold\n', 'replace', 'R1\nR2', '\uFEFFR1\nR2\n'],
    ['keeps a note without a final newline without one', 'no final newline', 'replace', 'new\n', 'new'],
    ['keeps CR line ends in a CR-only note', 'old\rmac\r', 'replace', 'new a\nnew b', 'new a\rnew b\r'],
    ['keeps CR line ends in a CR-only note, appended to', 'old\rmac\r', 'append', 'added a\nadded b', 'old\rmac\r\radded a\radded b\r'],
  ])('%s', async (_what, before, mode, text, after) => {
    const h = await serve({ 'Ending.md': before });
    await h.ok('update_note', { note_id: idOf(h, 'Ending.md'), mode, text });
    expect(await read(h, 'Ending.md')).toBe(after);
  });

  it('never lets the new body become frontmatter', async () => {
    const h = await serve({ 'Plain.md': 'plain\n' });
    const id = idOf(h, 'Plain.md');
    await h.ok('update_note', { note_id: id, mode: 'replace', text: '---\nattachment: .git/config\nshared: true\n---\nhello\n' });
    const note = await h.ok<{ text: string }>('get_note', { note_id: id });
    expect(note.text).toBe('---\nattachment: .git/config\nshared: true\n---\nhello\n');
    expect(h.runtime.own.get(id)?.attachment).toBeUndefined();
    expect(h.runtime.own.get(id)?.shared).toBe(false);
  });
});

describe('a note the person made read-only', () => {
  it('is refused with a plain sentence, never rewritten or deleted', async () => {
    const h = await serve({ 'Locked.md': 'Do not touch.\n' });
    const file = path.join(h.dir, 'Locked.md');
    await chmod(file, 0o444);
    const id = idOf(h, 'Locked.md');
    const before = await stat(file);
    for (const [tool, args] of [
      ['update_note', { note_id: id, mode: 'append', text: 'x' }],
      ['update_note', { note_id: id, mode: 'replace', text: 'x' }],
      ['delete_note', { note_id: id }],
    ] as const) {
      const message = await h.fail(tool, args);
      expect(message).toMatch(/^Locked\.md is read-only \(its file permissions allow no writing\)/);
    }
    const after = await stat(file);
    expect(await readFile(file, 'utf8')).toBe('Do not touch.\n');
    expect([after.ino, after.mtimeMs, after.mode]).toEqual([before.ino, before.mtimeMs, before.mode]);
  });
});

describe('temporary files', () => {
  it('live under .dexi/ and a git vault stays clean but for the note written', async () => {
    const dir = await session.vault({ 'Folder/Note.md': 'text\n' });
    initRepo(dir);
    const h = await session.connect(dir);
    await h.ok('update_note', { note_id: idOf(h, 'Folder/Note.md'), mode: 'append', text: 'more' });
    await h.ok('create_note', { title: 'Fresh', text: 'new' });
    expect(await readdir(path.join(dir, 'Folder'))).toEqual(['Note.md']);
    expect(gitStatus(dir)).toBe(' M Folder/Note.md\n?? Fresh.md\n');
  });

  it('left by a write that never finished are removed at start, but not those of another running server', async () => {
    const dir = await session.vault({ 'Note.md': 'text\n', 'Folder/Other.md': 'other\n' });
    const tmp = path.join(dir, '.dexi', 'cache', 'tmp');
    await writeVault({ [`.dexi/cache/tmp/.dexi-tmp-999999999-abcdef-Note.md`]: 'half', [`.dexi/cache/tmp/.dexi-tmp-${process.ppid}-abcdef-Other.md`]: 'live' }, dir);
    // Versions before 0.2 wrote theirs beside the note.
    const old = path.join(dir, 'Folder', '.dexi-tmp-0123456789ab-Other.md');
    await writeFile(old, 'old style');
    const { utimes } = await import('node:fs/promises');
    await utimes(old, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    await session.connect(dir);
    expect(await readdir(tmp)).toEqual([`.dexi-tmp-${process.ppid}-abcdef-Other.md`]);
    expect(await readdir(path.join(dir, 'Folder'))).toEqual(['Other.md']);
  });

  it('left by a cache save cut short are removed at start, the caches of teammates included', async () => {
    const dir = await session.vault({ 'Note.md': 'text\n' });
    await writeVault(
      {
        '.dexi/cache/.dexi-tmp-999999999-abcdef-index.bin': 'half an index',
        [`.dexi/cache/.dexi-tmp-${process.ppid}-abcdef-index.bin`]: 'another server is saving',
        '.dexi/cache/shared/alice/.dexi-tmp-999999999-abcdef-index.bin': 'half a teammate index',
        '.dexi/cache/shared/alice/index.bin': 'kept',
      },
      dir,
    );
    await session.connect(dir);
    const cache = path.join(dir, '.dexi', 'cache');
    const entries = await readdir(cache);
    expect(entries.filter((name) => name.startsWith('.dexi-tmp-'))).toEqual([`.dexi-tmp-${process.ppid}-abcdef-index.bin`]);
    expect(await readdir(path.join(cache, 'shared', 'alice'))).toEqual(['index.bin']);
  });
});
