/**
 * Issue 15, finding 2: frontmatter injection through update_note. A write
 * joined the old frontmatter and the new body into one text and split it
 * again, and the two splits could disagree: the body a tool sent became
 * frontmatter (`attachment:`, `shared:`), or the note's own frontmatter
 * (id, title, created) became body.
 *
 * Every write now splits the file once into its head (the frontmatter block
 * bytes) and its body, edits the head alone, and puts the body back with
 * joinNote, which checks that the result splits again into exactly that
 * block and exactly that body. This file fuzzes that over files ending in
 * every shape of fence, with bodies full of fences, and replays the
 * reproductions through the MCP tools.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendParagraph, bodyLineEndingOf, endsWithLineBreak, lineEndingOf, replacedBody } from '../../src/format/body-edit.js';
import { setFrontmatterKeys } from '../../src/format/frontmatter-edit.js';
import { parseFrontmatter, splitFrontmatter, type FrontmatterData } from '../../src/format/frontmatter.js';
import { presentKey, UPDATED_KEYS } from '../../src/format/dates.js';
import { editedContent, type EditRequest } from '../../src/vault/edits.js';
import { parseNoteFile } from '../../src/vault/parse.js';
import { formatIso } from '../../src/format/time.js';
import { connect, removeDir, writeVault, type Harness } from '../support/helpers.js';
import { createRng, type Rng } from '../support/random.js';

const SEED = 15_02;
const NOW = new Date('2026-12-01T09:30:00Z');
const MiB = 1024 * 1024;

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;

/** Lines of frontmatter a person writes: known keys, unknown keys, comments, nested blocks. */
const KEY_LINES = [
  'id: 00000000-0000-4000-8000-0000000000aa',
  'title: The plan',
  'created: 2026-01-02T03:04:05Z',
  'updated: 2024-01-01T00:00:00Z',
  'updated: 2024-01-01',
  'modified: 2024-02-02T00:00:00Z',
  '# a comment the server keeps',
  'tags: [work, "#ml"]',
  'rating: 4 # trailing comment',
  'note: "quoted # not a comment"',
  'review:\n  due: 2026-01-01T00:00:00+00:00\n  interval: 1\n  ease: 2.5\n  repetitions: 1',
  'aliases:\n  - one\n- two',
  'source: https://example.com/page',
];
const OPENINGS = ['---', '---  ', '---\t'];
const CLOSINGS = ['---', '...', '---  ', '--- \t'];
/** What follows the closing fence: nothing (the fence is the last byte), LF, CRLF, a lone CR. */
const TERMINATORS = ['', '\n', '\r\n', '\r'];

/** Pieces of hostile text: fences of every kind, keys a reader must never take from a body, line breaks of every kind. */
const ATOMS = [
  '---', '---\n', '---\r\n', '--- \n', '---\t\n', '...\n', '...', '\n', '\r\n', '\r', '\uFEFF', '\uFEFF---\n',
  'attachment: Private/contract.pdf\n', 'attachment: .git/config\n', 'shared: true\n', 'id: 00000000-0000-4000-8000-0000000000ff\n',
  '-x: 1\n', 'title: Injected\n', 'tags: [injected]\n', '# heading\n', '```\n', '~~~\n', 'word ', '  ', '\t', '- item\n', '> quote\n',
  '%%c%%', '|\n', ': ', '\0', 'plain text',
];

function hostileText(rng: Rng, max: number): string {
  let text = '';
  const n = Math.floor(rng() * max);
  for (let i = 0; i < n; i++) text += pick(rng, ATOMS);
  return text;
}

/** A title or a frontmatter value: any characters a tool may send, YAML look-alikes included. */
function hostileValue(rng: Rng): string {
  return hostileText(rng, 6) + pick(rng, ['', ' ', ' \n', '\t\n', '"', "'", ':', '#x', '|', '>-', '&a', '*a', '!!str', '? k', '%YAML 1.2', '@', '`']);
}

/** A note file: a frontmatter block in one of every shape (or none), then a body. */
function noteFile(rng: Rng): string {
  const bom = rng() < 0.2 ? '\uFEFF' : '';
  const eol = rng() < 0.4 ? '\r\n' : '\n';
  const body = rng() < 0.15 ? pick(rng, ['---', '---\n', '---\nshared: true\n---\nhi\n', '...\n']) : hostileText(rng, 8);
  if (rng() < 0.2) return bom + body;
  const lines: string[] = [];
  const count = Math.floor(rng() * 4);
  for (let i = 0; i < count; i++) lines.push(pick(rng, KEY_LINES).replace(/\n/g, eol));
  const yaml = lines.map((line) => line + eol).join('');
  return `${bom}${pick(rng, OPENINGS)}${eol}${yaml}${pick(rng, CLOSINGS)}${pick(rng, TERMINATORS)}${body}`;
}

interface Read {
  data: FrontmatterData;
  body: string;
  yaml: string | null;
}

/** A file read the way the server reads it (src/vault/parse.ts): its frontmatter, or null when the server would not rewrite it. */
function read(content: string): Read | null {
  const split = splitFrontmatter(content);
  const parsed = parseFrontmatter(split.yaml);
  return parsed.ok ? { data: parsed.data, body: split.body, yaml: split.yaml } : null;
}

const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** After an edit: the frontmatter keys are exactly `keys`, the unchanged ones keep their values, and the body is exactly `body`. */
function expectWritten(content: string, expected: { data: FrontmatterData; body: string }, what: string): void {
  const after = read(content);
  expect(after, `${what}: the written frontmatter parses`).not.toBeNull();
  if (!after) return;
  expect(Object.keys(after.data).sort(), `${what}: keys`).toEqual(Object.keys(expected.data).sort());
  expect(json(after.data), `${what}: values`).toEqual(json(expected.data));
  expect(after.body, `${what}: body`).toBe(expected.body);
  // The reader the vault uses agrees: not broken, the same body.
  if (content.length < 100_000) {
    const parsed = parseNoteFile({ path: 'n.md', content, size: content.length, mtimeMs: 0, ctimeMs: 0, ino: 0, birthtimeMs: 0 });
    expect(parsed.record.broken, `${what}: read as broken`).toBe(false);
    expect(parsed.body, `${what}: body as the vault reads it`).toBe(expected.body);
  }
}

/** What an update should leave: the old keys, the title when given, the note's own updated key moved; the body replaced or appended to. */
function expectedUpdate(before: Read, eol: '\n' | '\r\n', request: EditRequest, file: string): { data: FrontmatterData; body: string } {
  const data: FrontmatterData = { ...before.data };
  if (request.title !== undefined) data.title = request.title;
  const updatedKey = presentKey(before.data, UPDATED_KEYS);
  if (updatedKey !== undefined) {
    const old = before.data[updatedKey];
    data[updatedKey] = typeof old === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(old.trim()) ? NOW.toLocaleDateString('sv') : formatIso(NOW);
  }
  let body = before.body;
  if (request.text !== undefined) {
    const bodyEol = bodyLineEndingOf(before.body, eol);
    if (request.mode === 'replace') body = replacedBody(request.text, bodyEol, endsWithLineBreak(file));
    else if (request.text !== '') body = appendParagraph(before.body, request.text, bodyEol);
  }
  return { data, body };
}

describe('every write keeps frontmatter and body apart, whatever the file ends with (seeded fuzz)', () => {
  // The seeded cases are drawn first, in the order one loop drew them, and checked a slice a test:
  // in one test each, the 4,000 updates took 43 s and the 3,000 key sets 64 s on a loaded machine.
  const SLICES = 8;
  const slices = <T>(cases: readonly T[]): [number, T[]][] =>
    Array.from({ length: SLICES }, (_, k) => [k + 1, cases.slice(Math.floor((k * cases.length) / SLICES), Math.floor(((k + 1) * cases.length) / SLICES))]);

  const updates = (() => {
    const rng = createRng(SEED);
    const cases: { file: string; before: Read; request: EditRequest }[] = [];
    for (let i = 0; i < 4000; i++) {
      const file = noteFile(rng);
      const before = read(file);
      if (!before) continue;
      const mode = rng() < 0.5 ? 'replace' : 'append';
      const request: EditRequest = { mode, text: hostileText(rng, 10) };
      if (rng() < 0.3) request.title = hostileValue(rng);
      if (request.title === undefined && mode === 'append' && request.text === '') request.text = '---';
      cases.push({ file, before, request });
    }
    return cases;
  })();

  it('update replace and append, with and without a title: enough cases', () => {
    expect(updates.length).toBeGreaterThan(2500);
  });

  it.each(slices(updates))('update replace and append, with and without a title, slice %i of 8', (_slice, cases) => {
    for (const { file, before, request } of cases) {
      const eol = lineEndingOf(file);
      const what = JSON.stringify({ file, request });
      let edited;
      try {
        edited = editedContent(file, request, NOW);
      } catch (error) {
        throw new Error(`${what} threw ${String(error)}`);
      }
      const expected = expectedUpdate(before, eol, request, file);
      expectWritten(edited.content, expected, what);
      expect(edited.body, what).toBe(expected.body);
      // Without a key to change, the head's bytes are kept as they were (a closing fence that was the last byte gets its line break).
      if (Object.keys(expected.data).join() === Object.keys(before.data).join() && request.title === undefined && presentKey(before.data, UPDATED_KEYS) === undefined) {
        expect(edited.content.startsWith(file.slice(0, splitFrontmatter(file).bodyStart)), what).toBe(true);
      }
      // A byte-order mark stays first, and only there.
      expect(edited.content.startsWith('\uFEFF'), what).toBe(file.startsWith('\uFEFF'));
      // A file with CRLF line breaks only keeps them: no bare LF is written.
      if (eol === '\r\n' && !/(^|[^\r])\n/.test(file)) expect(/(^|[^\r])\n/.test(edited.content), what).toBe(false);
    }
  });

  const keySets = (() => {
    const rng = createRng(SEED + 1);
    const cases: { file: string; before: Read; updates: Record<string, unknown> }[] = [];
    for (let i = 0; i < 3000; i++) {
      const file = noteFile(rng);
      const before = read(file);
      if (!before) continue;
      const updates: Record<string, unknown> =
        rng() < 0.6
          ? { review: { due: formatIso(NOW), interval: Math.floor(rng() * 30), ease: 2.36, repetitions: Math.floor(rng() * 5) } }
          : { 'x-value': hostileValue(rng) };
      cases.push({ file, before, updates });
    }
    return cases;
  })();

  it('setFrontmatterKeys, as review grading uses it: enough cases', () => {
    expect(keySets.length).toBeGreaterThan(2000);
  });

  it.each(slices(keySets))('setFrontmatterKeys, as review grading uses it, slice %i of 8', (_slice, cases) => {
    for (const { file, before, updates } of cases) {
      const what = JSON.stringify({ file, updates });
      let written: string;
      try {
        written = setFrontmatterKeys(file, updates);
      } catch (error) {
        throw new Error(`${what} threw ${String(error)}`);
      }
      expectWritten(written, { data: { ...before.data, ...updates }, body: before.body }, what);
      expect(written.startsWith('\uFEFF'), what).toBe(file.startsWith('\uFEFF'));
    }
  });

  it.each<[string, string, EditRequest]>([
    ['the reproduction: a closing fence as the last byte, then a replace that opens with a key line', '---\nid: 00000000-0000-4000-8000-0000000000aa\ntitle: T\n---', { mode: 'replace', text: '-x: 1\nattachment: Private/contract.pdf\nshared: true\n---\nhello' }],
    ['a CRLF closing fence whose LF is missing, then an append', '---\r\nid: 00000000-0000-4000-8000-0000000000aa\r\ntitle: T\r\ncreated: 2026-01-01T00:00:00Z\r\n---\r', { mode: 'append', text: 'more' }],
    ['a CRLF closing fence whose LF is missing, then a replace that opens with a fence', '---\r\ntitle: T\r\n---\r', { mode: 'replace', text: '---\r\nshared: true\r\n---\r\nbody' }],
    ['a fence with trailing spaces as the last bytes', '---\ntitle: T\n---  ', { mode: 'append', text: 'attachment: x\n---\nbody' }],
    ['a `...` closer as the last bytes', '---\ntitle: T\n...', { mode: 'replace', text: '...\nshared: true\n...\n' }],
    ['an empty block as the whole file', '---\n---', { mode: 'append', text: '---\nshared: true\n---\n' }],
    ['no frontmatter, a body that becomes a block', 'plain\n', { mode: 'replace', text: '---\nshared: true\n---\nhi\n' }],
    ['no frontmatter, a byte-order mark, a body that becomes a block', '\uFEFFplain\n', { mode: 'replace', text: '---\nshared: true\n---\n' }],
    ['no frontmatter, a body that is only a fence, appended a closing one', '---', { mode: 'append', text: 'attachment: .git/config\n\n---' }],
    ['no frontmatter, a body that starts with a byte-order mark', 'plain\n', { mode: 'replace', text: '\uFEFFtext' }],
    ['a title of blank lines, which YAML block scalars cannot hold', '---\ntitle: Old\n---\nBody\n', { mode: 'replace', title: ' \n' }],
    ['a title that is a frontmatter of its own', '---\r\ntitle: Old\r\n---\r\nBody\r\n', { mode: 'replace', title: '\n---\nshared: true\n---\n' }],
  ])('%s', (_what, file, request) => {
    const before = read(file);
    expect(before).not.toBeNull();
    if (!before) return;
    const edited = editedContent(file, request, NOW);
    expectWritten(edited.content, expectedUpdate(before, lineEndingOf(file), request, file), JSON.stringify({ file, request }));
  });
});

describe('huge notes, near the 4 MiB a note may hold', () => {
  const big = (bytes: number, line = 'y'.repeat(79)): string => `${line}\n`.repeat(Math.floor(bytes / (line.length + 1)));

  it.each<[string, () => string, EditRequest]>([
    ['a note without frontmatter, replaced by a text that opens with a block', () => big(4 * MiB - 64 * 1024), { mode: 'replace', text: `---\nattachment: .git/config\n---\n${big(4 * MiB - 64 * 1024)}` }],
    ['a note without frontmatter, replaced by a block over the length a block is read at', () => 'plain\n', { mode: 'replace', text: `---\n${'k: v\n'.repeat(70_000)}---\nbody\n` }],
    ['a note opening with an unclosed fence, appended a closing one', () => `---\n${big(4 * MiB - 64 * 1024)}`, { mode: 'append', text: '---\nshared: true\n---' }],
    ['a closing fence as the last byte, appended a huge text full of fences', () => '---\r\ntitle: T\r\n---\r', { mode: 'append', text: big(3 * MiB, '---') }],
  ])('%s', (_what, make, request) => {
    const file = make();
    const before = read(file);
    expect(before).not.toBeNull();
    if (!before) return;
    const edited = editedContent(file, request, NOW);
    expectWritten(edited.content, expectedUpdate(before, lineEndingOf(file), request, file), _what);
  });

  it('grading a huge note without frontmatter that opens with a fence keeps all of it body', () => {
    const file = `---\nattachment: .git/config\n${big(4 * MiB - 64 * 1024)}`;
    const updates = { review: { due: formatIso(NOW), interval: 1, ease: 2.5, repetitions: 1 } };
    expectWritten(setFrontmatterKeys(file, updates), { data: updates, body: file }, 'grade');
  });

  it('refuses, with a plain sentence, a title that would take the frontmatter over the length a block is read at', () => {
    const file = `---\nfiller: ${'x'.repeat(256 * 1024 - 20)}\n---\nBody\n`;
    expect(read(file)).not.toBeNull();
    expect(() => editedContent(file, { mode: 'replace', title: 'New title here' }, NOW)).toThrow(
      /^The note was left as it was: .*frontmatter over 256 K characters is not read/,
    );
  });
});

describe('through update_note and grade_review', () => {
  const open: Harness[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const h of open.splice(0)) await h.close();
    for (const dir of dirs.splice(0)) await removeDir(dir);
  });
  const ID = (n: number): string => `00000000-0000-4000-8000-0000000015${String(n).padStart(2, '0')}`;

  async function serve(files: Record<string, string>): Promise<Harness> {
    const dir = await writeVault(files);
    dirs.push(dir);
    const h = await connect({ dir });
    open.push(h);
    return h;
  }
  const onDisk = (h: Harness, vaultPath: string): Promise<string> => readFile(path.join(h.dir, vaultPath), 'utf8');

  it('a replace on a note whose closing fence is its last byte never writes the text\'s keys into the frontmatter', async () => {
    const file = `---\nid: ${ID(1)}\ntitle: T\n---`;
    const h = await serve({ 'Work/Target.md': file, 'Private/contract.pdf': 'secret' });
    const text = '-x: 1\nattachment: Private/contract.pdf\nshared: true\n---\nhello';
    const note = await h.ok<{ text: string }>('update_note', { note_id: ID(1), mode: 'replace', text });
    expect(note.text).toBe(text);
    expectWritten(await onDisk(h, 'Work/Target.md'), { data: { id: ID(1), title: 'T' }, body: text }, 'replace');
    expect(h.runtime.own.get(ID(1))?.attachment).toBeUndefined();
  });

  it.each([
    ['LF', `---\nid: ${ID(2)}\ntitle: Kept\ncreated: 2026-01-01T00:00:00Z\n---`],
    ['CRLF with the last LF missing', `---\r\nid: ${ID(2)}\r\ntitle: Kept\r\ncreated: 2026-01-01T00:00:00Z\r\n---\r`],
    ['trailing spaces', `---\nid: ${ID(2)}\ntitle: Kept\ncreated: 2026-01-01T00:00:00Z\n---   `],
  ])('a plain append to a note whose closing fence (%s) is its last bytes keeps id, title and created in the frontmatter', async (_what, file) => {
    const h = await serve({ 'Note.md': file });
    await h.ok('update_note', { note_id: ID(2), mode: 'append', text: 'A thought.' });
    const eol = lineEndingOf(file);
    expectWritten(await onDisk(h, 'Note.md'), { data: { id: ID(2), title: 'Kept', created: '2026-01-01T00:00:00Z' }, body: `A thought.${eol}` }, 'append');
    const note = await h.ok<{ title: string; text: string }>('get_note', { note_id: ID(2) });
    expect(note).toMatchObject({ title: 'Kept', text: `A thought.${eol}` });
  });

  it('a 4 MiB note without frontmatter never takes a block from a replace text', async () => {
    const h = await serve({ 'Big.md': 'x'.repeat(4 * MiB - 4096), '.git/config': '[core]\n' });
    const id = [...h.runtime.own.all()].find((record) => record.path === 'Big.md')?.id as string;
    const text = `---\nattachment: .git/config\n---\n${'y'.repeat(4 * MiB - 100)}`;
    await h.ok('update_note', { note_id: id, mode: 'replace', text });
    expectWritten(await onDisk(h, 'Big.md'), { data: {}, body: text }, 'big replace');
    expect(h.runtime.own.get(id)?.attachment).toBeUndefined();
    // The empty block that keeps the text body counts against the limit: over it, nothing is written.
    const before = await onDisk(h, 'Big.md');
    const message = await h.fail('update_note', { note_id: id, mode: 'replace', text: `---\nattachment: .git/config\n---\n${'z'.repeat(4 * MiB - 36)}` });
    expect(message).toMatch(/^The note would be .* bytes, over the 4,194,304 bytes/);
    expect(await onDisk(h, 'Big.md')).toBe(before);
  });

  it('grading a CRLF card whose body is full of fences writes only the review block', async () => {
    const body = '---\r\nshared: true\r\n---\r\n#flashcards\r\n...\r\n';
    const file = `---\r\nid: ${ID(3)}\r\ntitle: Card\r\n---\r\n${body}`;
    const h = await serve({ 'Card.md': file });
    await h.ok('grade_review', { note_id: ID(3), grade: 3 });
    const written = await onDisk(h, 'Card.md');
    const after = read(written);
    expect(Object.keys(after?.data ?? {})).toEqual(['id', 'title', 'review']);
    expect(after?.body).toBe(body);
    expect(/(^|[^\r])\n/.test(written)).toBe(false);
  });

  it('refuses a title that would make the frontmatter unreadable, and writes nothing', async () => {
    const file = `---\nid: ${ID(4)}\nfiller: ${'x'.repeat(256 * 1024 - 60)}\n---\nBody\n`;
    const h = await serve({ 'Full.md': file });
    const message = await h.fail('update_note', { note_id: ID(4), title: 'A longer title than fits' });
    expect(message).toMatch(/^The note was left as it was: /);
    expect(await onDisk(h, 'Full.md')).toBe(file);
    // The note is still a note with its frontmatter, not all body.
    expect(h.runtime.own.get(ID(4))?.broken).toBe(false);
  });
});
