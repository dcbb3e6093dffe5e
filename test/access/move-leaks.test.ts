import { mkdir, readdir, readFile, utimes } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { shownFolder } from '../../src/access/view-writes.js';
import { connect, removeDir, writeVault, type Harness } from '../support/helpers.js';

/**
 * Findings 1, 2 and 4 of the second red-team report (issue 29), as written
 * there: a move under a boundary rewrote the moved note's own links by the
 * whole vault's notes, numbered its file name (` 2`) and answered with it
 * when a hidden note held the name, and corrected a folder's spelling to a
 * hidden folder's (or made a case-variant twin beside it).
 */

const open: Harness[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

async function serve(files: Record<string, string>, boundary: { folder?: string; tag?: string }, emptyFolders: string[] = []): Promise<Harness> {
  const dir = await writeVault(files);
  dirs.push(dir);
  for (const folder of emptyFolders) await mkdir(path.join(dir, folder), { recursive: true });
  const h = await connect({ dir, ...boundary });
  open.push(h);
  return h;
}

interface Note {
  id: string;
  title: string;
  folder?: string;
  text: string;
  links: { notes: { id: string; title: string }[]; unresolved: string[] };
}

const VAULT = {
  'Work/plan.md': 'The plan. #work\n',
  'Private/secret.md': 'Secret.\n',
  'Private/other.md': 'Other.\n',
  'Private/HR/salary.md': 'Salary.\n',
};

describe('finding 1: a move repairs the moved note\'s own links among the notes the connection sees', () => {
  it('repro A: a link whose target is outside is left as an unresolved one is', async () => {
    const h = await serve(VAULT, { folder: 'Work' });
    const text = 'A [a](../Private/secret.md) B [b](../Private/nothere.md) C [[../Private/other]] D [[../Private/nope]]';
    const n = await h.ok<Note>('create_note', { title: 'probe', text });
    expect(n.links.unresolved).toEqual(['../Private/secret.md', '../Private/nothere.md', '../Private/other', '../Private/nope']);
    const m = await h.ok<Note>('move_note', { note_id: n.id, folder: 'Work/sub' });
    expect(m.text).toBe(text);
    expect(await readFile(path.join(h.dir, 'Work/sub/probe.md'), 'utf8')).toContain(text);
  });

  it('repro B: a name that resolved inside is never rewritten to an outside note\'s path', async () => {
    const h = await serve(VAULT, { folder: 'Work' });
    const decoy = await h.ok<Note>('create_note', { title: 'salary', text: 'decoy' });
    await h.ok('move_note', { note_id: decoy.id, folder: 'Work/x/y/z/w' });
    const n = await h.ok<Note>('create_note', { title: 'linker', text: 'see [[salary]] and [[nonexistent-name]]' });
    expect(n.links.notes.map((note) => note.id)).toEqual([decoy.id]);
    const m = await h.ok<Note>('move_note', { note_id: n.id, folder: 'Work/x/y/z/w' });
    expect(m.text).toBe('see [[salary]] and [[nonexistent-name]]');
    expect(m.links.notes.map((note) => note.id)).toEqual([decoy.id]);
  });
});

/** A move's answer with what differs from call to call (id, dates) taken out. */
function shape(note: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, created: _created, updated: _updated, ...rest } = note;
  return rest;
}

describe('finding 2: under a tag boundary a move answers the same whether or not a hidden note holds the name', () => {
  async function probe(withHidden: boolean): Promise<{ h: Harness; answer: Record<string, unknown> }> {
    const files: Record<string, string> = { 'Work/plan.md': 'The plan. #work\n' };
    if (withHidden) files['Private/secret.md'] = 'Hidden secret.\n';
    else files['Private/unrelated.md'] = 'Something else.\n';
    const h = await serve(files, { tag: '#work' });
    const n = await h.ok<Note>('create_note', { title: 'secret', text: 'probe' });
    const answer = await h.ok<Record<string, unknown>>('move_note', { note_id: n.id, folder: 'Private' });
    return { h, answer };
  }

  it('keeps the title and never touches the hidden note', async () => {
    const without = await probe(false);
    const withHidden = await probe(true);
    expect(shape(withHidden.answer)).toEqual(shape(without.answer));
    expect(withHidden.answer.title).toBe('secret');
    expect(await readFile(path.join(withHidden.h.dir, 'Private/secret.md'), 'utf8')).toBe('Hidden secret.\n');
    const got = await withHidden.h.ok<Note>('get_note', { note_id: withHidden.answer.id as string });
    expect(got.title).toBe('secret');
    expect(got.text).toBe(without.answer.text);
  });

  it('keeps the dates of a note moved onto a hidden note\'s name, as a move to a free name does', async () => {
    const moveOld = async (withHidden: boolean): Promise<Record<string, unknown>> => {
      const files: Record<string, string> = { 'Drafts/secret.md': 'An old note. #work\n' };
      files[withHidden ? 'Private/secret.md' : 'Private/unrelated.md'] = 'Hidden.\n';
      const dir = await writeVault(files);
      dirs.push(dir);
      const old = new Date('2024-01-01T00:00:00Z');
      await utimes(path.join(dir, 'Drafts/secret.md'), old, old);
      const h = await connect({ dir, tag: '#work' });
      open.push(h);
      const listed = await h.ok<{ items: { id: string }[] }>('list_notes', {});
      const id = listed.items[0]?.id as string;
      await h.ok('move_note', { note_id: id, folder: 'Private' });
      const { id: _id, ...rest } = await h.ok<Record<string, unknown>>('get_note', { note_id: id });
      return rest;
    };
    const without = await moveOld(false);
    expect(without.updated).toMatch(/^2024-01-01/);
    expect(await moveOld(true)).toEqual(without);
  });

  it('create_note answers the same too', async () => {
    const answers: Record<string, unknown>[] = [];
    for (const withHidden of [false, true]) {
      const h = await serve(withHidden ? { 'secret.md': 'Hidden secret at the top.\n' } : { 'other.md': 'x\n' }, { tag: '#work' });
      answers.push(shape(await h.ok<Record<string, unknown>>('create_note', { title: 'secret', text: 'probe' })));
      if (withHidden) expect(await readFile(path.join(h.dir, 'secret.md'), 'utf8')).toBe('Hidden secret at the top.\n');
    }
    expect(answers[1]).toEqual(answers[0]);
  });
});

describe('finding 4: under a tag boundary a move neither corrects a hidden folder\'s spelling nor makes a look-alike beside it', () => {
  async function moveInto(folder: string, files: Record<string, string>, empty: string[] = []): Promise<{ h: Harness; answer: Record<string, unknown> }> {
    const h = await serve({ 'Work/plan.md': 'The plan. #work\n', ...files }, { tag: '#work' }, empty);
    const n = await h.ok<Note>('create_note', { title: 'probe', text: 'probe' });
    return { h, answer: await h.ok<Record<string, unknown>>('move_note', { note_id: n.id, folder }) };
  }

  it('answers a hidden folder named in another case as it was named', async () => {
    const hidden = await moveInto('private', { 'Private/secret.md': 'Secret.\n' });
    const none = await moveInto('private', {});
    expect(shape(hidden.answer)).toEqual(shape(none.answer));
    expect(hidden.answer.folder).toBe('private');
    // No twin: the note is in the folder that was there.
    expect((await readdir(hidden.h.dir)).filter((name) => name.toLowerCase() === 'private')).toEqual(['Private']);
    expect(await readdir(path.join(hidden.h.dir, 'Private'))).toEqual(expect.arrayContaining(['secret.md', 'probe.md']));
  });

  it('makes no case-variant twin beside an existing empty folder', async () => {
    const hidden = await moveInto('wOrK2', {}, ['WORK2']);
    const none = await moveInto('wOrK2', {});
    expect(shape(hidden.answer)).toEqual(shape(none.answer));
    expect((await readdir(hidden.h.dir)).filter((name) => name.toLowerCase() === 'work2')).toEqual(['WORK2']);
    expect(await readdir(path.join(hidden.h.dir, 'WORK2'))).toEqual(['probe.md']);
  });
});

describe('finding 7: move_note refuses folder names a title would have made safe', () => {
  it.each([
    ['a\u202Eexe.md', 'Cannot move the note into the folder "a\\u202Eexe.md": it contains invisible or text-direction characters.'],
    ['con', 'Cannot move the note into the folder "con": "con" is a name Windows reserves for a device.'],
    ['Work/Lpt1.log', 'Cannot move the note into the folder "Work/Lpt1.log": "Lpt1.log" is a name Windows reserves for a device.'],
    [`Work/${'d/'.repeat(200)}`, `Cannot move the note into the folder "Work/${'d/'.repeat(199)}d": it is 201 folders deep, and folders may be at most 16 deep.`],
  ])('%j is refused in a sentence, and nothing is made', async (folder, message) => {
    const h = await serve({ 'Work/plan.md': '---\nid: 00000000-0000-4000-8000-000000000001\n---\nThe plan.\n' }, {});
    expect(await h.fail('move_note', { note_id: '00000000-0000-4000-8000-000000000001', folder })).toBe(message);
    expect((await readdir(h.dir)).filter((name) => !name.startsWith('.')).sort()).toEqual(['Work']);
    expect(await readdir(path.join(h.dir, 'Work'))).toEqual(['plan.md']);
  });
});

describe('a folder named in another case', () => {
  it('is the existing one, shown as the connection sees it, with the new part as named', async () => {
    const h = await serve({ 'Work/plan.md': '---\nid: 00000000-0000-4000-8000-000000000001\n---\nThe plan.\n' }, {});
    const moved = await h.ok<Note>('move_note', { note_id: '00000000-0000-4000-8000-000000000001', folder: 'work/New Part' });
    expect(moved.folder).toBe('Work/New Part');
    expect(await readdir(h.dir)).not.toContain('work');
    expect(await readdir(path.join(h.dir, 'Work/New Part'))).toEqual(['plan.md']);
  });
});

describe('shownFolder', () => {
  it('names what the connection saw as it is spelt, and the rest as it was named', () => {
    const visible = new Set(['Work/Sub', 'Home']);
    expect(shownFolder('private/x', 'Private/x', visible)).toBe('private/x');
    expect(shownFolder('work/new', 'Work/new', visible)).toBe('Work/new');
    expect(shownFolder('work/sub/new', 'Work/Sub/new', visible)).toBe('Work/Sub/new');
    expect(shownFolder('home/private', 'Home/Private', visible)).toBe('Home/private');
    expect(shownFolder('Other', 'Elsewhere', visible)).toBe('Elsewhere');
  });
});
