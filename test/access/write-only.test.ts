/**
 * Issue 15, finding 8: a connection with notes:write but not notes:read used
 * update_note {mode: "append"} without text to read the whole body of any
 * note whose id it knew (and moved its `updated` on the way). Now an append
 * with no text is "Nothing to update" and writes nothing, and update_note
 * never hands a write-only connection note text it did not send: it gets a
 * receipt with the id, the new `updated` time, and the title and text it
 * sent (the text only when the whole body is exactly that text).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, removeDir, writeVault, type Harness } from '../support/helpers.js';

const SECRET_ID = '00000000-0000-4000-8000-000000000015';
const CRLF_ID = '00000000-0000-4000-8000-000000000016';
const SECRET = `---\nid: ${SECRET_ID}\ntitle: Salary negotiation\nsource: bookmark\nsource_url: https://example.com/pay\ntags: [hr]\ncreated: 2026-11-20T10:00:00+00:00\nupdated: 2026-11-20T10:00:00+00:00\n---\nPrivate numbers qxqjzv for the raise. #salarysecret\n`;
const CRLF = `---\r\nid: ${CRLF_ID}\r\nupdated: 2026-11-20T10:00:00+00:00\r\n---\r\nWindows qxqjzv body.\r\n`;
/** Words of the notes' own text and frontmatter that a write-only connection must never see. */
const OWN_WORDS = ['qxqjzv', 'Private numbers', 'Salary', 'salarysecret', '#hr', 'example.com', 'bookmark', 'Windows', '2026-11-20'];

const open: Harness[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

async function harness(scopes: ('notes:read' | 'notes:write')[]): Promise<Harness> {
  const dir = await writeVault({ 'Private/Salary.md': SECRET, 'Windows.md': CRLF });
  dirs.push(dir);
  const h = await connect({ dir, scopes });
  open.push(h);
  return h;
}

const file = (h: Harness, vaultPath: string): Promise<string> => readFile(path.join(h.dir, vaultPath), 'utf8');

/** The whole answer as the client received it: the text block and structuredContent. */
async function answer(h: Harness, args: Record<string, unknown>): Promise<{ json: string; structured: Record<string, unknown> }> {
  const result = await h.call('update_note', args);
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return { json: JSON.stringify(result), structured: result.structuredContent as Record<string, unknown> };
}

function expectNoOwnText(json: string): void {
  for (const word of OWN_WORDS) expect(json, word).not.toContain(word);
}

describe('a write-only connection', () => {
  it.each([
    ['no text', { mode: 'append' }],
    ['an empty text', { mode: 'append', text: '' }],
  ])('gets "Nothing to update" for an append with %s, and nothing is written', async (_what, args) => {
    const h = await harness(['notes:write']);
    expect(await h.fail('update_note', { note_id: SECRET_ID, ...args })).toBe('Nothing to update');
    // The same answer for an id it does not know: the refusal says nothing about the note.
    expect(await h.fail('update_note', { note_id: '00000000-0000-4000-8000-000000000099', ...args })).toBe('Nothing to update');
    expect(await file(h, 'Private/Salary.md')).toBe(SECRET);
  });

  it('gets only the id and the new updated time back from an append, never the body', async () => {
    const h = await harness(['notes:write']);
    h.clock.current = new Date('2026-12-02T08:00:00Z');
    const { json, structured } = await answer(h, { note_id: SECRET_ID, mode: 'append', text: 'Ask for 5%.' });
    expect(structured).toEqual({ id: SECRET_ID, updated: '2026-12-02T08:00:00+00:00' });
    expectNoOwnText(json);
    expect(await file(h, 'Private/Salary.md')).toBe(
      SECRET.replace('updated: 2026-11-20T10:00:00+00:00', 'updated: 2026-12-02T08:00:00+00:00') + '\nAsk for 5%.\n',
    );
  });

  it('gets back the text of a replace when the body is exactly what it sent, and the title it set', async () => {
    const h = await harness(['notes:write']);
    const { json, structured } = await answer(h, { note_id: SECRET_ID, mode: 'replace', title: 'Renamed', text: 'All new.\n' });
    expect(structured).toMatchObject({ id: SECRET_ID, title: 'Renamed', text: 'All new.\n' });
    expect(Object.keys(structured).sort()).toEqual(['id', 'text', 'title', 'updated']);
    expectNoOwnText(json);
  });

  it('gets back the text of a replace that the note\'s final newline was added to, as it sent it', async () => {
    const h = await harness(['notes:write']);
    const { json, structured } = await answer(h, { note_id: SECRET_ID, mode: 'replace', text: 'All new.' });
    expect(Object.keys(structured).sort()).toEqual(['id', 'text', 'updated']);
    expect(structured.text).toBe('All new.');
    expectNoOwnText(json);
    expect(await file(h, 'Private/Salary.md')).toMatch(/\n---\nAll new\.\n$/);
  });

  it('gets no text back when the stored body differs from what it sent (the note\'s CRLF line ending)', async () => {
    const h = await harness(['notes:write']);
    const { json, structured } = await answer(h, { note_id: CRLF_ID, mode: 'replace', text: 'one\ntwo\n' });
    expect(Object.keys(structured).sort()).toEqual(['id', 'updated']);
    expectNoOwnText(json);
    expect(await file(h, 'Windows.md')).toContain('---\r\none\r\ntwo\r\n');
  });

  it('gets the title it set from a title-only update, and nothing of the note', async () => {
    const h = await harness(['notes:write']);
    const { json, structured } = await answer(h, { note_id: SECRET_ID, mode: 'append', title: 'Pay' });
    expect(Object.keys(structured).sort()).toEqual(['id', 'title', 'updated']);
    expect(structured.title).toBe('Pay');
    expectNoOwnText(json);
  });
});

describe('a connection that may read', () => {
  it('still gets the updated note in full', async () => {
    const h = await harness(['notes:read', 'notes:write']);
    const { structured } = await answer(h, { note_id: SECRET_ID, mode: 'append', text: 'More.' });
    expect(structured).toMatchObject({ id: SECRET_ID, title: 'Salary negotiation', tags: ['#hr', '#salarysecret'], source: 'bookmark' });
    expect(structured.text).toBe('Private numbers qxqjzv for the raise. #salarysecret\n\nMore.\n');
  });

  it('gets "Nothing to update" for an append without text too, and nothing is written', async () => {
    const h = await harness(['notes:read', 'notes:write']);
    expect(await h.fail('update_note', { note_id: SECRET_ID, mode: 'append', text: '' })).toBe('Nothing to update');
    expect(await file(h, 'Private/Salary.md')).toBe(SECRET);
  });

  it('sees an output schema that declares every key a receipt may leave out', async () => {
    const h = await harness(['notes:read', 'notes:write']);
    const tool = (await h.client.listTools()).tools.find((t) => t.name === 'update_note');
    const schema = tool?.outputSchema as { required?: string[]; properties?: Record<string, unknown> } | undefined;
    expect(schema?.required?.sort()).toEqual(['id', 'updated']);
    expect(Object.keys(schema?.properties ?? {})).toEqual(expect.arrayContaining(['title', 'text', 'tags', 'source', 'created']));
  });
});
