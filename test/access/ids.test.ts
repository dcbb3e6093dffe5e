import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { teammateNoteId } from '../../src/format/identity.js';
import { connect, removeDir, writeVault, type Harness } from '../support/helpers.js';

/**
 * Issue 15, finding 7: a teammate's shared note that claimed the id of one
 * of the person's notes stood for it, and `update_note` on that id wrote the
 * person's note where "shared by alice" was expected. A teammate's notes now
 * have ids of their own (per owner); duplicates inside one vault follow
 * identity.ts's rule and never make a write reach a note outside the
 * connection's boundary.
 */

const X = '00000000-0000-4000-8000-00000000c0de';
const note = (title: string, body: string, extra = ''): string => `---\nid: ${X}\ntitle: ${title}\n${extra}---\n${body}\n`;

const harnesses: Harness[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

async function open(options: Parameters<typeof connect>[0]): Promise<Harness> {
  const h = await connect(options);
  harnesses.push(h);
  return h;
}

describe("a teammate's note claiming one of your ids", () => {
  it('is a note of its own: yours keeps the id, theirs is read-only under an id of its owner', async () => {
    const mine = await writeVault({ 'Mine.md': note('My plan', 'my words') });
    const theirs = await writeVault({ 'Copy.md': note('Alice copy', 'her words', 'shared: true\n') });
    dirs.push(mine, theirs);
    const h = await open({ dir: mine, shared: [{ owner: 'alice', dir: theirs }] });
    const aliceId = teammateNoteId('alice', X);
    expect(aliceId).not.toBe(X);

    const listed = await h.ok<{ items: { id: string; title: string; owner?: string }[] }>('list_notes', { size: 10 });
    expect(listed.items.map((item) => [item.id, item.title, item.owner]).sort()).toEqual(
      [[X, 'My plan', undefined], [aliceId, 'Alice copy', 'alice']].sort(),
    );
    expect(await h.ok('get_note', { note_id: X })).toMatchObject({ title: 'My plan' });
    expect(await h.ok('get_note', { note_id: aliceId })).toMatchObject({ title: 'Alice copy', shared: true, owner: 'alice' });

    const herFile = await readFile(path.join(theirs, 'Copy.md'), 'utf8');
    expect(await h.fail('update_note', { note_id: aliceId, mode: 'append', text: 'mine now' })).toBe('This note is shared by alice; it can be read but not changed.');
    expect(await h.fail('delete_note', { note_id: aliceId })).toBe('This note is shared by alice; it can be read but not changed.');
    await h.ok('update_note', { note_id: X, mode: 'append', text: 'more of mine' });
    expect(await readFile(path.join(mine, 'Mine.md'), 'utf8')).toContain('more of mine');
    expect(await readFile(path.join(theirs, 'Copy.md'), 'utf8')).toBe(herFile);
  });
});

describe('two files of one vault claiming one id, met on a start without cache', () => {
  it.each([
    // The shorter path keeps the id: here the copy inside the boundary.
    ['the copy inside the boundary keeps it', 'Work/P.md', 'Private/Original plan.md'],
    // Here the original outside keeps it, and the copy is known by its path id.
    ['the original outside keeps it', 'Work/Copy of the plan.md', 'Private/P.md'],
  ])('%s: a --folder Work connection writes only its own copy', async (_what, inside, outside) => {
    const dir = await writeVault({ [inside]: note('Plan', 'inside words'), [outside]: note('Plan', 'outside words') });
    dirs.push(dir);
    const before = await readFile(path.join(dir, outside), 'utf8');
    const h = await open({ dir, folder: 'Work' });
    const [item] = (await h.ok<{ items: { id: string }[] }>('list_notes', { size: 10 })).items;
    if (!item) throw new Error('the copy inside the boundary is not listed');
    expect(item.id === X).toBe(inside === 'Work/P.md');
    await h.ok('update_note', { note_id: item.id, mode: 'replace', text: 'rewritten inside' });
    if (item.id !== X) expect(await h.fail('update_note', { note_id: X, mode: 'replace', text: 'reach outside' })).toBe('Note not found');
    await h.ok('delete_note', { note_id: item.id });
    // The note outside was never written, whichever of the two held the id.
    expect(await readFile(path.join(dir, outside), 'utf8')).toBe(before);
  });
});
