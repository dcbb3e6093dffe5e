import { execFileSync } from 'node:child_process';
import { chmod, link, mkdir, readFile, rename, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/access/policy.js';
import { parseFrontmatter, splitFrontmatter } from '../../src/format/frontmatter.js';
import { MAX_NOTE_BYTES } from '../../src/vault/ignore.js';
import { Vault } from '../../src/vault/vault.js';
import { removeDir, tempDir, TestClock, waitFor } from '../support/helpers.js';
import { notPlain, openShared, textOf, withTimeout, type Connection, type Shared } from '../support/harness.js';

/**
 * Files that are not what they seem: links in and out of the vault, hard
 * links, binary and Latin-1 files named .md, files at and just over the size
 * limit, frontmatter that is a YAML bomb, huge or deeply nested, a lone `---`
 * rule, a FIFO, private permissions, attachments that point outside. The
 * server must read none of them through a link, write nothing outside the
 * vault, load in bounded time, and refuse plainly where it must.
 *
 * Hard links: a hard-linked `.md` file is an ordinary file of the vault (no
 * path can tell which of its names is "the" file), so it is a note. The
 * server never writes through it: every write replaces the vault's name with
 * a new file, so the other name keeps its old content.
 */

const CALL_MS = 5000;
const id = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const note = (n: number, body: string): string => `---\nid: ${id(n)}\n---\n${body}`;

function bomb(): string {
  let yaml = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
  let previous = 'a';
  for (let i = 0; i < 9; i++) {
    yaml += `b${i}: &b${i} [${Array(9).fill(`*${previous}`).join(',')}]\n`;
    previous = `b${i}`;
  }
  return `---\n${yaml}---\nbomb body\n`;
}

let parent: string;
let vault: string;
let outside: string;
let shared: Shared;
let client: Connection;
let loadMs = 0;
const counts = { cases: 0 };

beforeAll(async () => {
  parent = await tempDir();
  vault = path.join(parent, 'vault');
  outside = path.join(parent, 'outside');
  await mkdir(path.join(vault, 'Dir'), { recursive: true });
  await mkdir(path.join(outside, 'folder'), { recursive: true });
  await writeFile(path.join(outside, 'secret.md'), note(90, 'topsecretword\n'));
  await writeFile(path.join(outside, 'folder', 'inside.md'), note(91, 'outsidefolderword\n'));
  await writeFile(path.join(outside, 'hard.md'), note(92, 'hardlinked\n'));
  await writeFile(path.join(outside, 'keep.txt'), 'keep me');

  const files: Record<string, string | Buffer> = {
    'real.md': note(1, 'realword\n'),
    'victim.md': note(2, 'victim\n'),
    'Dir/inner.md': note(3, 'inner\n'),
    'private.md': note(4, 'private\n'),
    'latin1.md': Buffer.from('caf\xe9 latin\n', 'latin1'),
    'binary.md': Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256)),
    'zeros.md': Buffer.alloc(2048, 0),
    'bomb.md': bomb(),
    'huge-frontmatter.md': `---\n${Array.from({ length: 8000 }, (_, i) => `key${i}: value ${i} with some words`).join('\n')}\n---\nhuge body\n`,
    'deep-frontmatter.md': `---\na: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n---\ndeep body\n`,
    'rule.md': '---\n# A heading under a rule\nText without frontmatter.\n',
    'deep-markdown.md': `${'>'.repeat(50_000)} quoted\n${Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i * 2)}- item`).join('\n')}\n`,
    'over.md': Buffer.alloc(MAX_NOTE_BYTES + 1, 'a'),
    'exact.md': Buffer.concat([Buffer.from(note(5, '')), Buffer.alloc(MAX_NOTE_BYTES - Buffer.byteLength(note(5, '')), 'line of text\n')]),
    'bom.md': `\uFEFF${note(11, 'with a byte-order mark\n')}`,
    'bom-bare.md': '\uFEFFbare text with a byte-order mark\n',
    'nearly-full.md': Buffer.alloc(MAX_NOTE_BYTES - 10, 'word '),
    'attached.md': `---\nid: ${id(6)}\nattachment: ../outside/keep.txt\n---\nattached\n`,
    'attached-abs.md': `---\nid: ${id(7)}\nattachment: ${path.join(outside, 'keep.txt')}\n---\nattached\n`,
    'attached-link.md': `---\nid: ${id(8)}\nattachment: link.txt\n---\nattached\n`,
  };
  for (const [rel, content] of Object.entries(files)) await writeFile(path.join(vault, rel), content);
  await chmod(path.join(vault, 'private.md'), 0o600);
  await symlink(path.join(outside, 'secret.md'), path.join(vault, 'leak.md'));
  await symlink(path.join(vault, 'real.md'), path.join(vault, 'alias.md'));
  await symlink(path.join(outside, 'folder'), path.join(vault, 'Linked'));
  await symlink(path.join(outside, 'keep.txt'), path.join(vault, 'link.txt'));
  await link(path.join(outside, 'hard.md'), path.join(vault, 'hard.md'));
  await writeFile(path.join(vault, 'twin-a.md'), note(9, 'twin\n'));
  await link(path.join(vault, 'twin-a.md'), path.join(vault, 'twin-b.md'));
  if (process.platform !== 'win32') execFileSync('mkfifo', [path.join(vault, 'pipe.md')]);

  const started = performance.now();
  shared = await withTimeout(openShared(vault), 60_000, 'loading the hostile vault');
  loadMs = performance.now() - started;
  client = await shared.connect();
}, 90_000);

afterAll(async () => {
  await shared?.close();
  await removeDir(parent);
  console.log(`[hardening] hostile files: ${counts.cases} cases (links, hard links, binary, Latin-1, size limits, YAML bombs, FIFO, permissions, attachments); the vault loaded in ${Math.round(loadMs)} ms; nothing read through a link, nothing written outside`);
});

async function call(name: string, args: Record<string, unknown> = {}) {
  counts.cases++;
  return withTimeout(client.call(name, args), CALL_MS, name);
}

async function searchIds(query: string): Promise<string[]> {
  const result = await call('search_notes', { query, size: 50 });
  return (result.structuredContent as { items: { id: string }[] }).items.map((item) => item.id);
}

const listedPaths = (): string[] => [...shared.runtime.own.all()].map((record) => record.path).sort();

describe('hostile files', () => {
  it('loads a vault full of them in bounded time', () => {
    expect(loadMs).toBeLessThan(45_000);
  });

  it('never reads a symbolic link: not a linked note, not a link to a note, not a linked folder', async () => {
    const paths = listedPaths();
    for (const linked of ['leak.md', 'alias.md', 'Linked/inside.md', 'pipe.md']) expect(paths).not.toContain(linked);
    expect(await searchIds('topsecretword')).toEqual([]);
    expect(await searchIds('outsidefolderword')).toEqual([]);
    expect(await searchIds('realword')).toEqual([id(1)]);
    const folders = (await call('list_folders')).structuredContent as { folders: { name: string }[] };
    expect(folders.folders.map((folder) => folder.name)).not.toContain('Linked');
    expect(textOf(await call('list_notes', { folder: 'Linked' }))).toBe('Folder not found: Linked');
  });

  it('ignores a link made while it runs', async () => {
    await symlink(path.join(outside, 'secret.md'), path.join(vault, 'late.md'));
    await writeFile(path.join(vault, 'late-real.md'), 'latecomer\n');
    await waitFor(() => shared.runtime.own.atPath('late-real.md'), 5000, 'the watcher to see a new file');
    await shared.runtime.settled();
    expect(listedPaths()).not.toContain('late.md');
    expect(await searchIds('topsecretword')).toEqual([]);
  });

  it('refuses to create notes in a boundary folder that is a link, plainly, writing nothing outside', async () => {
    const bounded = await shared.connect({ policy: createPolicy({ folder: 'Linked' }) });
    const result = await withTimeout(bounded.call('create_note', { title: 'Sneaky', text: 'x' }), CALL_MS, 'create_note');
    counts.cases++;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/symbolic link/);
    expect(notPlain(textOf(result))).toBeUndefined();
    expect(await (await import('node:fs/promises')).readdir(path.join(outside, 'folder'))).toEqual(['inside.md']);
    await bounded.close();
  });

  it('treats a hard-linked file as a note, and never writes through to its other name', async () => {
    const hard = shared.runtime.own.atPath('hard.md');
    expect(hard?.id).toBe(id(92));
    await call('update_note', { note_id: id(92), text: 'changed in the vault\n', mode: 'append' });
    expect(await readFile(path.join(outside, 'hard.md'), 'utf8')).toBe(note(92, 'hardlinked\n'));
    expect(await readFile(path.join(vault, 'hard.md'), 'utf8')).toContain('changed in the vault');
    // Two names of one file inside the vault are two notes, with ids of their own.
    const a = shared.runtime.own.atPath('twin-a.md');
    const b = shared.runtime.own.atPath('twin-b.md');
    expect(a && b && a.id !== b.id).toBe(true);
  });

  it('lists binary and Latin-1 files but never rewrites them, and says why plainly', async () => {
    for (const [rel, original] of [
      ['latin1.md', Buffer.from('caf\xe9 latin\n', 'latin1')],
      ['binary.md', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256))],
    ] as const) {
      const record = shared.runtime.own.atPath(rel);
      expect(record?.broken).toBe(true);
      const read = await call('get_note', { note_id: record?.id });
      expect(read.isError).toBeFalsy();
      const refused = await call('update_note', { note_id: record?.id, text: 'x', mode: 'append' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/not UTF-8/);
      expect(notPlain(textOf(refused))).toBeUndefined();
      expect((await readFile(path.join(vault, rel))).equals(original)).toBe(true);
    }
    // NUL bytes are valid UTF-8: such a file is a note, its text carried safely in JSON.
    const zeros = shared.runtime.own.atPath('zeros.md');
    const text = ((await call('get_note', { note_id: zeros?.id })).structuredContent as { text: string }).text;
    expect(text.endsWith('\0'.repeat(100))).toBe(true);
  });

  it('reads and writes a note that starts with a byte-order mark, keeping the mark first', async () => {
    const read = await call('get_note', { note_id: id(11) });
    expect((read.structuredContent as { text: string }).text).toBe('with a byte-order mark\n');
    expect((await call('update_note', { note_id: id(11), text: 'more\n', mode: 'append' })).isError).toBeFalsy();
    const content = await readFile(path.join(vault, 'bom.md'), 'utf8');
    expect(content.startsWith(`\uFEFF---\nid: ${id(11)}\n`)).toBe(true);
    expect(content.endsWith('with a byte-order mark\n\nmore\n')).toBe(true);
    // A note without frontmatter: read as it is, and written with the mark still first and no block added.
    const record = shared.runtime.own.atPath('bom-bare.md');
    expect(((await call('get_note', { note_id: record?.id })).structuredContent as { text: string }).text).toBe('bare text with a byte-order mark\n');
    expect((await call('update_note', { note_id: record?.id, text: 'more', mode: 'append' })).isError).toBeFalsy();
    expect(await readFile(path.join(vault, 'bom-bare.md'), 'utf8')).toBe('\uFEFFbare text with a byte-order mark\n\nmore\n');
  });

  it('skips a file over 4 MiB with one log line, however often it is touched, and serves a file of exactly 4 MiB', async () => {
    expect(listedPaths()).not.toContain('over.md');
    const lines = () => shared.logs.filter((line) => line.includes('over.md'));
    expect(lines()).toHaveLength(1);
    await utimes(path.join(vault, 'over.md'), new Date(), new Date(Date.now() + 5000));
    // A note written after the touch, in the same folder, is reported after it: once the watcher
    // has read it, the touch has been seen, and settled() waits for what it started.
    await writeFile(path.join(vault, 'after-over.md'), 'written after the touch\n');
    await waitFor(() => shared.runtime.own.atPath('after-over.md'), 5000, 'the watcher to see a file written after the touch');
    await shared.runtime.settled();
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toMatch(/4194305 bytes is over the 4 MiB note limit/);

    expect((await stat(path.join(vault, 'exact.md'))).size).toBe(MAX_NOTE_BYTES);
    const exact = await call('get_note', { note_id: id(5) });
    expect(exact.isError).toBeFalsy();
    // Served as get_note serves every long note: its first 50,000 characters in whole lines, the rest counted.
    const served = exact.structuredContent as { text: string; lines: { total: number }; truncated?: true };
    expect(served.truncated).toBe(true);
    expect(served.text).toMatch(/^(line of text\n){3846}$/);
    expect(served.lines.total).toBe(Math.ceil((MAX_NOTE_BYTES - Buffer.byteLength(note(5, ''))) / 13));
    // A file just under the limit, with no id, is a note with its path id.
    const nearly = shared.runtime.own.atPath('nearly-full.md');
    expect(nearly).toBeDefined();
    expect((await stat(path.join(vault, 'nearly-full.md'))).size).toBe(MAX_NOTE_BYTES - 10);
    // Growing it past the limit is refused, and the file is left as it was.
    const grown = await call('update_note', { note_id: id(5), text: 'one more line\n', mode: 'append' });
    expect(textOf(grown)).toMatch(/^The note would be 4,194,3\d\d bytes, over the 4,194,304 bytes \(4 MiB\) a note may hold; nothing was written\./);
    expect((await stat(path.join(vault, 'exact.md'))).size).toBe(MAX_NOTE_BYTES);
  });

  it('reads YAML bombs, huge and deeply nested frontmatter as broken notes, quickly, and never rewrites them', async () => {
    for (const rel of ['bomb.md', 'huge-frontmatter.md', 'deep-frontmatter.md']) {
      const record = shared.runtime.own.atPath(rel);
      expect(record?.broken, rel).toBe(true);
      const before = await readFile(path.join(vault, rel));
      const refused = await call('update_note', { note_id: record?.id, text: 'x', mode: 'append' });
      expect(textOf(refused)).toMatch(/not valid YAML/);
      expect((await readFile(path.join(vault, rel))).equals(before)).toBe(true);
    }
    for (const text of [bomb(), `---\n${'k: v\n'.repeat(100_000)}---\n`, `---\na: ${'{'.repeat(100_000)}\n---\n`]) {
      const started = performance.now();
      const parsed = parseFrontmatter(splitFrontmatter(text).yaml);
      expect(parsed.ok).toBe(false);
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });

  it('takes a lone --- at the top for a rule: the text stays body and the note stays writable', async () => {
    const record = shared.runtime.own.atPath('rule.md');
    expect(record?.broken).toBe(false);
    const updated = await call('update_note', { note_id: record?.id, text: 'appended\n', mode: 'append' });
    expect((updated.structuredContent as { text: string }).text).toBe('---\n# A heading under a rule\nText without frontmatter.\n\nappended\n');
    const content = await readFile(path.join(vault, 'rule.md'), 'utf8');
    expect(splitFrontmatter(content).body).toBe('---\n# A heading under a rule\nText without frontmatter.\n\nappended\n');
  });

  it('keeps a private note private when it writes it', async () => {
    await call('update_note', { note_id: id(4), text: 'still private\n', mode: 'append' });
    expect((await stat(path.join(vault, 'private.md'))).mode & 0o777).toBe(0o600);
  });

  it('keeps attachments outside the vault, or that are links, when deleting their notes', async () => {
    for (const n of [6, 7, 8]) expect((await call('delete_note', { note_id: id(n) })).isError).toBeFalsy();
    expect(await readFile(path.join(outside, 'keep.txt'), 'utf8')).toBe('keep me');
    expect(shared.logs.filter((line) => line.startsWith('Kept attachment')).length).toBeGreaterThanOrEqual(2);
  });

  it('a note replaced by a link is gone, never read or written through the link', async () => {
    await writeFile(path.join(outside, 'target.md'), note(2, 'outside text\n'));
    await rm(path.join(vault, 'victim.md'));
    await symlink(path.join(outside, 'target.md'), path.join(vault, 'victim.md'));
    await waitFor(() => shared.runtime.own.get(id(2)) === undefined, 5000, 'the linked note to go');
    expect(textOf(await call('get_note', { note_id: id(2) }))).toBe('Note not found');
    expect(textOf(await call('update_note', { note_id: id(2), text: 'x', mode: 'append' }))).toBe('Note not found');
    expect(await readFile(path.join(outside, 'target.md'), 'utf8')).toBe(note(2, 'outside text\n'));
  });
});

describe('a folder replaced by a link to elsewhere, before anyone notices', () => {
  it('is never read, written or deleted through', async () => {
    const dir = await tempDir();
    const away = await tempDir();
    try {
      await mkdir(path.join(dir, 'Dir'));
      await writeFile(path.join(dir, 'Dir', 'inner.md'), note(3, 'inner\n'));
      await writeFile(path.join(dir, 'Dir', 'gone.md'), note(10, 'gone\n'));
      // No watcher: the model still believes in Dir/ when the calls come.
      const model = await Vault.open({ root: dir, clock: new TestClock(), log: () => undefined });
      await model.load();
      await rename(path.join(dir, 'Dir'), path.join(dir, 'Dir-moved'));
      await writeFile(path.join(away, 'inner.md'), note(3, 'outside\n'));
      await writeFile(path.join(away, 'gone.md'), 'decoy');
      await symlink(away, path.join(dir, 'Dir'));
      counts.cases += 3;

      await expect(model.read(id(3))).rejects.toThrow('Note not found');
      await expect(model.update(id(3), { mode: 'append', text: 'x' })).rejects.toThrow('Note not found');
      await model.delete(id(10)).catch(() => undefined);
      expect(await readFile(path.join(away, 'inner.md'), 'utf8')).toBe(note(3, 'outside\n'));
      expect(await readFile(path.join(away, 'gone.md'), 'utf8')).toBe('decoy');
    } finally {
      await removeDir(dir);
      await removeDir(away);
    }
  });
});
