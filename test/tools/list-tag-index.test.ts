import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, removeDir, waitFor, writeVault, type Harness } from '../support/helpers.js';
import { noteHasTag, tagFilterCandidates } from '../../src/format/tags.js';
import { createRng, type Rng } from '../support/random.js';

/*
 * list_notes with a tag filter visits only the notes the vaults' tag indexes
 * give for it. Its answers must be exactly those of the full pass it
 * replaced: every visible note (list_notes without a tag filter, which still
 * walks them all) with the tag test applied to each, then paged. Compared
 * over a generated vault with random tags, folders, sources and dates, a
 * teammate's shared vault, and the boundaries a connection may have; then
 * again after notes are created, retagged and deleted, through the tools
 * and from outside.
 */

interface Item {
  id: string;
  tags: string[];
  folder?: string;
  shared?: boolean;
}
interface Page {
  items: Item[];
  total: number;
  page: number;
}

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;

/** Tags as written: nested, in other cases, look-alikes under case folding (`ß`/`ss`, the Kelvin sign). */
const WRITTEN_TAGS = ['ml', 'ML', 'ml/papers', 'ML/Papers/2024', 'ml/talks', 'mlops', 'work', 'Work/x', 'wor\u212A', 'straße', 'STRASSE/y', 'garden', 'bob'];
const FOLDERS = ['', '', 'Work', 'Work/Deep', 'work', 'Reading', 'Straße'];
const SOURCES = ['', '', 'bookmark', 'email', 'feed', 'note'];
/** Few distinct times, so that many notes tie on their sort timestamp. */
const TIMES = ['2026-11-30T09:00:00+00:00', '2026-11-29T09:00:00+00:00', '2026-11-25T10:00:00+00:00', '2026-11-20T10:00:00+00:00', '2026-10-01T00:00:00+00:00'];

function generatedNote(rng: Rng, id: string, shared: boolean): string {
  const front = [`id: ${id}`];
  const source = pick(rng, SOURCES);
  if (source !== '') front.push(`source: ${source}`);
  if (rng() < 0.85) front.push(`created: ${pick(rng, TIMES)}`);
  if (rng() < 0.85) front.push(`updated: ${pick(rng, TIMES)}`);
  if (shared) front.push('shared: true');
  const listed = Array.from({ length: Math.floor(rng() * 3) }, () => pick(rng, WRITTEN_TAGS));
  if (listed.length > 0) front.push(`tags: [${listed.join(', ')}]`);
  const inline = Array.from({ length: Math.floor(rng() * 3) }, () => `${rng() < 0.7 ? '#' : '@'}${pick(rng, WRITTEN_TAGS)}`);
  return `---\n${front.join('\n')}\n---\nNote ${id}. ${inline.join(' ')}\n`;
}

function generatedVault(seed: number, notes: number, prefix: string, sharedShare: number): Record<string, string> {
  const rng = createRng(seed);
  const files: Record<string, string> = {};
  for (let i = 0; i < notes; i++) {
    const folder = pick(rng, FOLDERS);
    files[`${folder === '' ? '' : `${folder}/`}${prefix}${i}.md`] = generatedNote(rng, `${prefix}-${i}`, rng() < sharedShare);
  }
  return files;
}

const TAG_FILTERS = ['ml', '#ml', '@ml', '#ML', '#ml/papers', 'ml/papers/2024', 'work', '#WORK', '#work/x', '#straße', 'strasse', '#mlops', 'garden', 'bob', '@bob', '#nothing'];

function randomArgs(rng: Rng): Record<string, unknown> {
  const args: Record<string, unknown> = { tag: pick(rng, TAG_FILTERS), sort: pick(rng, ['created', 'updated']) };
  const [page, size] = pick(rng, [[1, 10], [1, 50], [2, 7], [3, 5], [9, 50]] as const);
  args.page = page;
  args.size = size;
  if (rng() < 0.3) args.source = pick(rng, ['bookmark', 'email', 'note', 'all']);
  if (rng() < 0.3) args.folder = pick(rng, ['unfiled', 'Work', 'work', 'Work/Deep', 'reading']);
  if (rng() < 0.2) args.period = pick(rng, ['today', 'week']);
  return args;
}

const dirs: string[] = [];
const harnesses: Harness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.close();
  for (const dir of dirs) await removeDir(dir);
});

const OWN_FILES = generatedVault(1, 220, 'n', 0);

async function open(options: { folder?: string; tag?: string } = {}): Promise<Harness> {
  const dir = await writeVault(OWN_FILES);
  const teammate = await writeVault(generatedVault(2, 60, 't', 0.5));
  dirs.push(dir, teammate);
  const h = await connect({ dir, ...options, shared: [{ owner: 'alice', dir: teammate }], settings: { noteCap: null } });
  harnesses.push(h);
  return h;
}

/** What a call answered: its structured result, or its error message. */
function answer(result: CallToolResult): Page | { error: string } {
  if (result.isError) return { error: (result.content[0] as { text: string }).text };
  return result.structuredContent as unknown as Page;
}

/** The answer of the full pass: every visible note listed without the tag filter, the tag test applied to each, then the page cut. */
async function fullPass(h: Harness, args: Record<string, unknown>, listed: Map<string, Item[] | { error: string }>): Promise<Page | { error: string }> {
  const { tag, page, size, ...rest } = args;
  const key = JSON.stringify(rest);
  let all = listed.get(key);
  if (!all) {
    const items: Item[] = [];
    for (let next = 1; ; next++) {
      const got = answer(await h.call('list_notes', { ...rest, page: next, size: 50 }));
      if ('error' in got) {
        all = got;
        break;
      }
      items.push(...got.items);
      if (got.items.length === 0 || items.length >= got.total) {
        expect(items).toHaveLength(got.total);
        all = items;
        break;
      }
    }
    listed.set(key, all);
  }
  if ('error' in all) return all;
  const candidates = tagFilterCandidates(tag as string) ?? [];
  const matching = all.filter((item) => noteHasTag(item.tags, candidates));
  const start = ((page as number) - 1) * (size as number);
  return { items: matching.slice(start, start + (size as number)), total: matching.length, page: page as number };
}

/** Compares `calls` random tag-filtered calls with the full pass; returns how many notes they listed in all. */
async function compareWithFullPass(h: Harness, seed: number, calls: number, admits: (item: Item) => boolean): Promise<number> {
  const rng = createRng(seed);
  const listed = new Map<string, Item[] | { error: string }>();
  let shown = 0;
  for (let i = 0; i < calls; i++) {
    const args = randomArgs(rng);
    const got = answer(await h.call('list_notes', args));
    expect(got, JSON.stringify(args)).toEqual(await fullPass(h, args, listed));
    if ('error' in got) continue;
    for (const item of got.items) expect(admits(item), `${JSON.stringify(args)} listed ${item.id}, outside the boundary`).toBe(true);
    shown += got.items.length;
  }
  return shown;
}

const inWork = (item: Item): boolean => item.shared !== true && (item.folder === 'Work' || item.folder?.startsWith('Work/') === true);
const taggedMl = (item: Item): boolean => item.shared !== true && noteHasTag(item.tags, ['#ml']);
const taggedWork = (item: Item): boolean => noteHasTag(item.tags, ['#work']);

describe('list_notes through the tag index answers as the full pass did', () => {
  it.each([
    ['no boundary, with a teammate', {}, () => true],
    ['a folder boundary', { folder: 'Work' }, inWork],
    ['a tag boundary', { tag: '#ml' }, taggedMl],
    ['a folder and a tag boundary', { folder: 'Work', tag: 'work' }, (item: Item) => inWork(item) && taggedWork(item)],
  ])('%s', async (_what, boundary, admits) => {
    const h = await open(boundary);
    expect(await compareWithFullPass(h, 3, 120, admits)).toBeGreaterThan(100);
  });

  it('after notes are created, retagged and deleted, through the tools and from outside', async () => {
    const h = await open();
    const ids = async (tag: string): Promise<string[]> => {
      const found: string[] = [];
      for (let page = 1; ; page++) {
        const got = await h.ok<Page>('list_notes', { tag, size: 50, page });
        found.push(...got.items.map((item) => item.id));
        if (got.items.length === 0 || found.length >= got.total) return found;
      }
    };
    const created = await h.ok<Item>('create_note', { title: 'Fresh', text: 'A fresh note. #ml/new @bob' });
    const [first, second, third] = (await h.ok<Page>('list_notes', { tag: 'ml', size: 50 })).items.filter((item) => item.shared !== true);
    if (!first || !second || !third) throw new Error('the generated vault has too few own #ml notes');
    // Frontmatter tags stay through a body edit: what the note holds afterwards decides.
    const retagged = await h.ok<Item>('update_note', { note_id: first.id, text: 'Retagged. #garden #ML/Other' });
    const untagged = await h.ok<Item>('update_note', { note_id: second.id, text: 'No tags in the body.' });
    await h.ok('delete_note', { note_id: third.id });
    const gone = Object.keys(OWN_FILES).find((file) => path.basename(file) === 'n1.md') as string;
    await rm(path.join(h.dir, gone));
    await writeFile(path.join(h.dir, 'Outside.md'), '---\nid: outside\ntags: [mlops, Work/x]\n---\nWritten by another program. @ml\n');
    await writeFile(path.join(h.dir, 'Reading', 'Retagged outside.md'), '---\nid: outside-2\n---\nFirst #straße.\n');
    await waitFor(async () => (await ids('#straße')).includes('outside-2'), 5000, 'the second outside note');
    await writeFile(path.join(h.dir, 'Reading', 'Retagged outside.md'), '---\nid: outside-2\n---\nThen #garden only.\n');
    await waitFor(async () => (await ids('#garden')).includes('outside-2') && (await ids('#mlops')).includes('outside') && (await h.call('get_note', { note_id: 'n-1' })).isError === true, 5000, 'the outside changes');

    expect(await ids('#straße')).not.toContain('outside-2');
    expect(await ids('@ml')).toContain('outside');
    expect(await ids('#ml/new')).toEqual([created.id]);
    expect((await ids('#ml')).includes(retagged.id)).toBe(true);
    expect((await ids('#garden')).includes(retagged.id)).toBe(true);
    expect((await ids('#ml')).includes(untagged.id)).toBe(noteHasTag(untagged.tags, ['#ml']));
    expect(await ids('ml')).not.toContain(third.id);
    expect(await compareWithFullPass(h, 4, 120, () => true)).toBeGreaterThan(200);
  });
});
