import { lstat, mkdir, readdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPolicy, PolicyError } from '../../src/access/policy.js';
import { endsWithLineBreak, replacedBody } from '../../src/format/body-edit.js';
import { parseFrontmatter, splitFrontmatter } from '../../src/format/frontmatter.js';
import { isWithin } from '../../src/storage/paths.js';
import { DexiError } from '../../src/vault/errors.js';
import { removeDir, tempDir, writeVault } from '../support/helpers.js';
import { createRandom, notPlain, openShared, textOf, withTimeout, type Connection, type Shared } from '../support/harness.js';

/**
 * Generated hostile input, from a seeded generator (the same seed gives the
 * same inputs, so a failure can be replayed): titles, folder names, note ids,
 * body text and search queries built from path tricks, control characters,
 * reserved names, very long names and Unicode normalisation pairs. No call
 * may escape the vault, crash, hang, or answer with anything but a plain
 * sentence when it refuses.
 */

const SEED = 8;
const CALL_MS = 5000;

const FRAGMENTS = [
  '..', '../', '../../etc/passwd', '/etc/passwd', '/', '\\', '..\\..\\Windows', 'C:\\Windows\\System32', 'C:', '\\\\server\\share\\x',
  '~', '~/', '$HOME', '%APPDATA%', '.', '.git', '.dexi', '.obsidian', 'node_modules', '.dexi-tmp-x',
  'CON', 'con.txt', 'PRN', 'AUX', 'NUL', 'COM1', 'LPT9', 'nul.md', 'x.md',
  '\0', '\u0001', '\u001f', '\u007f', '\n', '\r\n', '\t', ' ', '   ', '...', '#', '[[', ']]', '^', '|', '*', '?', '"', '<', '>', ':',
  'é', 'e\u0301', 'Å', 'A\u030a', '\u212b', 'ﬁ', '\u202e', '\u200b', '\ufeff', '\u2028', '\u0085', '\ud800', '\udc00',
  '😀', '𝔘', 'ß', 'İ', 'ǅ', '%2e%2e%2f', '---', 'id: x', '`', '${x}', '\'', 'a'.repeat(240), '字'.repeat(90), '😀'.repeat(70),
];

type Random = ReturnType<typeof createRandom>;

function hostile(rng: Random, maxParts = 5): string {
  let text = '';
  const parts = 1 + rng.int(maxParts);
  for (let i = 0; i < parts; i++) {
    if (rng.chance(0.75)) text += rng.pick(FRAGMENTS);
    else {
      // Any code point, surrogate halves included.
      const code = rng.chance(0.5) ? rng.int(0x80) : rng.int(0x30000);
      text += code >= 0xd800 && code <= 0xdfff ? String.fromCharCode(code) : String.fromCodePoint(code);
    }
  }
  return text;
}

const REGEXY = ['.*', '(a+)+$', '[', ']', '\\', '^$', '|||', '(?=x)', '\\d+', '$1', '{1000000}', '*', '+?', '(?<n>x)\\k<n>', '[^]', '\\u{1F600}', '%', '_', '"', "'"];

const stats = { titles: 0, pairs: 0, folders: 0, boundaries: 0, ids: 0, queries: 0, texts: 0, refused: 0, escapes: 0 };
let parent: string;
let vault: string;
let shared: Shared;
let client: Connection;

beforeAll(async () => {
  parent = await tempDir();
  vault = path.join(parent, 'vault');
  await mkdir(vault);
  await writeVault({ 'Work/Plan.md': '# Plan\nThe plan. #work\n', 'Home.md': 'home\n' }, vault);
  await mkdir(path.join(parent, 'outside'));
  shared = await openShared(vault);
  client = await shared.connect();
});

afterAll(async () => {
  await shared.close();
  await removeDir(parent);
  console.log(
    `[hardening] fuzz: ${stats.titles} create_note titles, ${stats.pairs} NFC/NFD pairs, ${stats.folders} folder names, ${stats.boundaries} boundary folders, ` +
      `${stats.ids} note ids, ${stats.texts} note bodies, ${stats.queries} search queries; ${stats.refused} plain refusals, ` +
      `${stats.escapes} escapes from the vault, 0 crashes, 0 hangs (every call under ${CALL_MS} ms)`,
  );
});

/** Where a created note's file is, checked from the file system's side: inside the vault, a plain file, not hidden. */
async function checkPlacement(id: string, folder: string | null): Promise<string[]> {
  const record = shared.runtime.own.get(id);
  if (!record) return [`note ${id} is not in the vault model`];
  const problems: string[] = [];
  const segments = record.path.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..' || segment.startsWith('.'))) problems.push(`path ${JSON.stringify(record.path)} has a bad segment`);
  if (!record.path.endsWith('.md')) problems.push(`path ${JSON.stringify(record.path)} is not a .md file`);
  if (record.folder !== folder) problems.push(`note is in ${JSON.stringify(record.folder)}, not ${JSON.stringify(folder)}`);
  const abs = path.join(vault, ...segments);
  const info = await lstat(abs).catch(() => undefined);
  if (!info?.isFile()) problems.push(`${JSON.stringify(record.path)} is not a plain file`);
  else if (!isWithin(await realpath(vault), await realpath(abs))) problems.push(`${JSON.stringify(record.path)} resolves outside the vault`);
  if (Buffer.byteLength(segments.at(-1) as string) > 255) problems.push(`file name of ${JSON.stringify(record.path)} is over 255 bytes`);
  if (problems.length > 0) stats.escapes++;
  return problems;
}

/** The parent of the vault holds only the vault and an untouched folder beside it. */
async function nothingOutside(): Promise<void> {
  expect((await readdir(parent)).sort()).toEqual(['outside', 'vault']);
  expect(await readdir(path.join(parent, 'outside'))).toEqual([]);
}

function refusal(text: string): void {
  stats.refused++;
  expect(notPlain(text), text).toBeUndefined();
}

describe('fuzz: hostile input never escapes, crashes or hangs', () => {
  it('create_note takes any title up to 500 characters, files it inside the vault, and keeps the title', async () => {
    const rng = createRandom(SEED);
    const problems: string[] = [];
    for (let i = 0; i < 150; i++) {
      const title = i % 25 === 24 ? `${hostile(rng, 30)}${'x'.repeat(501)}` : hostile(rng);
      stats.titles++;
      const result = await withTimeout(client.call('create_note', { title, text: `body ${i}` }), CALL_MS, `create_note #${i}`);
      // The contract counts characters (code points), as the schema does.
      if ([...title].length > 500) {
        expect(result.isError).toBe(true);
        expect(textOf(result)).toBe('title must be at most 500 characters');
        refusal(textOf(result));
        continue;
      }
      if (result.isError) {
        problems.push(`#${i} ${JSON.stringify(title)} refused: ${textOf(result)}`);
        continue;
      }
      const note = result.structuredContent as { id: string; title: string; text: string };
      problems.push(...(await checkPlacement(note.id, null)).map((p) => `#${i} ${JSON.stringify(title)}: ${p}`));
      // The title comes back as given, but for surrounding blanks (a blank title is the file name).
      const expected = title.trim();
      if (expected !== '' && note.title !== expected) problems.push(`#${i} title ${JSON.stringify(title)} came back as ${JSON.stringify(note.title)}`);
      const read = await withTimeout(client.call('get_note', { note_id: note.id }), CALL_MS, 'get_note');
      if ((read.structuredContent as { title?: string } | undefined)?.title !== note.title) problems.push(`#${i} get_note disagrees on the title`);
      if ((read.structuredContent as { text?: string } | undefined)?.text !== `body ${i}`) problems.push(`#${i} get_note disagrees on the text`);
    }
    expect(problems).toEqual([]);
    await nothingOutside();
  }, 90_000);

  it('titles that differ only in Unicode normalisation or case make separate notes, never one overwriting the other', async () => {
    const pairs = [['Café', 'Cafe\u0301'], ['Ångström', 'A\u030angstro\u0308m'], ['\u212b', 'Å'], ['Straße', 'STRASSE'], ['Mixed', 'mixed']];
    for (const [a, b] of pairs) {
      stats.pairs++;
      const first = (await client.call('create_note', { title: a as string, text: 'first' })).structuredContent as { id: string };
      const second = (await client.call('create_note', { title: b as string, text: 'second' })).structuredContent as { id: string };
      expect(first.id).not.toBe(second.id);
      const one = shared.runtime.own.get(first.id);
      const two = shared.runtime.own.get(second.id);
      expect(one?.path).not.toBe(two?.path);
      expect(one?.path.normalize('NFC').toLowerCase()).not.toBe(two?.path.normalize('NFC').toLowerCase());
      expect(((await client.call('get_note', { note_id: first.id })).structuredContent as { text: string }).text).toBe('first');
      expect(((await client.call('get_note', { note_id: second.id })).structuredContent as { text: string }).text).toBe('second');
    }
  });

  it('a folder given to the vault directly is created inside it or refused plainly', async () => {
    const rng = createRandom(SEED + 1);
    const problems: string[] = [];
    for (let i = 0; i < 50; i++) {
      const folder = i % 2 === 0 ? hostile(rng, 3) : `Deep/${hostile(rng, 2)}/x`;
      stats.folders++;
      try {
        const note = await withTimeout(shared.runtime.own.create({ title: `in folder ${i}`, text: 'x', folder }), CALL_MS, 'create');
        problems.push(...(await checkPlacement(note.record.id, folder)).map((p) => `folder ${JSON.stringify(folder)}: ${p}`));
      } catch (error) {
        if (!(error instanceof DexiError)) problems.push(`folder ${JSON.stringify(folder)}: ${(error as Error).message}`);
        else refusal(error.message);
      }
    }
    expect(problems).toEqual([]);
    await nothingOutside();
  }, 60_000);

  it('a boundary folder is refused plainly, or confines create_note to a folder inside the vault', async () => {
    const rng = createRandom(SEED + 2);
    const problems: string[] = [];
    for (let i = 0; i < 25; i++) {
      const folder = hostile(rng, 3);
      stats.boundaries++;
      let policy;
      try {
        policy = createPolicy({ folder });
      } catch (error) {
        if (!(error instanceof PolicyError)) throw error;
        refusal(error.message);
        continue;
      }
      const bounded = await shared.connect({ policy });
      const result = await withTimeout(bounded.call('create_note', { title: hostile(rng), text: 'inside' }), CALL_MS, 'create_note');
      if (result.isError) refusal(textOf(result));
      else {
        const id = (result.structuredContent as { id: string }).id;
        const record = shared.runtime.own.get(id);
        problems.push(...(await checkPlacement(id, record?.folder ?? null)).map((p) => `boundary ${JSON.stringify(folder)}: ${p}`));
        if (record?.folder?.toLowerCase() !== policy.folder?.toLowerCase()) problems.push(`boundary ${JSON.stringify(folder)}: filed in ${record?.folder}`);
      }
      const listed = await withTimeout(bounded.call('list_notes', { folder: hostile(rng, 2) }), CALL_MS, 'list_notes');
      if (listed.isError) refusal(textOf(listed));
      await bounded.close();
    }
    expect(problems).toEqual([]);
    await nothingOutside();
  }, 60_000);

  it('note ids that are paths, control characters or very long find nothing and change nothing', async () => {
    const rng = createRandom(SEED + 3);
    const before = shared.runtime.own.size;
    for (let i = 0; i < 60; i++) {
      const id = i % 10 === 9 ? 'x'.repeat(201) : hostile(rng, 3);
      stats.ids++;
      for (const [tool, args] of [
        ['get_note', { note_id: id }],
        ['update_note', { note_id: id, text: 'no', mode: 'append' }],
        ['delete_note', { note_id: id }],
        ['grade_review', { note_id: id, grade: 3 }],
      ] as const) {
        const result = await withTimeout(client.call(tool, args), CALL_MS, tool);
        expect(result.isError, `${tool} ${JSON.stringify(id)}`).toBe(true);
        expect(textOf(result)).toMatch(/^(Note not found|note_id must be 1 to 200 characters)$/);
        refusal(textOf(result));
      }
    }
    expect(shared.runtime.own.size).toBe(before);
  }, 60_000);

  it('any body text is stored as the body: frontmatter look-alikes, NULs and CRLF never change the note\'s id', async () => {
    const rng = createRandom(SEED + 4);
    const made = (await client.call('create_note', { title: 'Target', text: 'start' })).structuredContent as { id: string };
    const other = (await client.call('create_note', { title: 'Other', text: 'other' })).structuredContent as { id: string };
    const specials = [`---\nid: ${other.id}\n---\nhijack`, `\r\n---\r\nid: x\r\n---\r\n`, '---', '\0\0\0', '\ud800 lone', '...\n---\n', 'a'.repeat(20_000)];
    for (let i = 0; i < 30; i++) {
      const text = i < specials.length ? (specials[i] as string) : hostile(rng, 8);
      stats.texts++;
      const file = (): Promise<string> => readFile(path.join(vault, ...(shared.runtime.own.get(made.id)?.path ?? 'missing').split('/')), 'utf8');
      const before = await file();
      const result = await withTimeout(client.call('update_note', { note_id: made.id, text, mode: i % 3 === 0 ? 'append' : 'replace' }), CALL_MS, 'update_note');
      expect(result.isError, textOf(result)).toBeFalsy();
      const content = await file();
      const parsed = parseFrontmatter(splitFrontmatter(content).yaml);
      expect(parsed.ok && parsed.data.id).toBe(made.id);
      // A replace writes the text in the note's own line ending (LF: create_note made it), ending as the note ended.
      if (i % 3 !== 0) expect(splitFrontmatter(content).body).toBe(replacedBody(text.replace(/[\ud800-\udfff]/gu, '\ufffd'), '\n', endsWithLineBreak(before)));
    }
    // The other note is still itself.
    expect(((await client.call('get_note', { note_id: other.id })).structuredContent as { text: string }).text).toBe('other');
  }, 60_000);

  it('search_notes answers regex metacharacters, long tokens and odd Unicode quickly, as words', async () => {
    const rng = createRandom(SEED + 5);
    for (let i = 0; i < 150; i++) {
      const parts = Array.from({ length: 1 + rng.int(4) }, () => (rng.chance(0.6) ? rng.pick(REGEXY) : hostile(rng, 2)));
      let query = parts.join(rng.chance(0.5) ? ' ' : '');
      if (i % 15 === 0) query = rng.pick(['a', 'ж', '😀', 'q']).repeat(200);
      if (i % 15 === 1) query = Array.from({ length: 40 }, () => 'ferment').join(' ').slice(0, 200);
      stats.queries++;
      const started = performance.now();
      const result = await withTimeout(client.call('search_notes', { query, size: 50 }), CALL_MS, `search_notes ${JSON.stringify(query)}`);
      expect(performance.now() - started).toBeLessThan(CALL_MS);
      if (result.isError) {
        // Only the contract's length rule may refuse a query, and a query of exclusions alone (-word) says what is missing.
        expect(['query must be 1 to 200 characters', 'A search needs at least one word to look for, not only words to leave out (-word); add one, or use list_notes to browse.'], JSON.stringify(query)).toContain(textOf(result));
        refusal(textOf(result));
      }
    }
  }, 60_000);
});
