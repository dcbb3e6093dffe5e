import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withBoundaryTag } from '../../src/access/view-writes.js';
import { extractTags } from '../../src/format/markdown.js';
import { connect, removeDir, writeVault, type Harness } from '../support/helpers.js';

/**
 * Issue 15, finding 4: a `--tag '#work'` connection created notes outside
 * its boundary when the text left a block open, which swallowed the
 * appended tag. Now the tag always counts in the note it creates.
 */

const OPEN_BLOCKS = [
  ['a code fence', 'Notes\n\n```js\nconst x = 1;'],
  ['a tilde fence', '~~~\nplain'],
  ['<script>', 'Intro\n\n<script>\nlet a = 1;'],
  ['<pre>', '<pre>\npreformatted'],
  ['CDATA', '<![CDATA[\nraw'],
  ['<?php', '<?php\necho 1;'],
  ['<!DOCTYPE', '<!DOCTYPE html\nrest'],
  ['an HTML comment', 'Before\n\n<!-- open comment'],
  ['another tag first', '#personal\n\n```\nopen'],
] as const;

describe('withBoundaryTag', () => {
  it.each(OPEN_BLOCKS)('puts the tag where it counts after text with %s left open', (_what, text) => {
    const body = withBoundaryTag(text, '#work');
    expect(extractTags(body)).toContain('#work');
    // Nothing of the text is lost.
    expect(body).toContain(text);
  });

  it.each([
    ['plain text gets the tag as a last paragraph', 'Some words.\n', 'Some words.\n\n#work'],
    ['text with the tag stays as it is', 'About #work here', 'About #work here'],
    ['a nested tag counts', 'See #work/meetings', 'See #work/meetings'],
    ['empty text is the tag', '  \n', '#work'],
  ])('%s', (_what, text, want) => {
    expect(withBoundaryTag(text, '#work')).toBe(want);
  });

  it('leaves text alone without a tag boundary', () => {
    expect(withBoundaryTag('```\nopen', undefined)).toBe('```\nopen');
  });
});

describe('create_note from a --tag #work connection', () => {
  let h: Harness | undefined;
  let other: Harness | undefined;
  afterEach(async () => {
    await other?.close();
    other = undefined;
    if (h) {
      await h.close();
      await removeDir(h.dir);
      h = undefined;
    }
  });

  it.each(OPEN_BLOCKS)('makes a note it can see, whose tags hold #work, after text with %s left open', async (what, text) => {
    const dir = await writeVault({ 'Keep.md': 'keep\n' });
    h = await connect({ dir, tag: '#work' });
    const created = await h.ok<{ id: string; tags: string[]; text: string }>('create_note', { title: `Open ${what.replace(/[<>?!]/g, '')}`, text });
    expect(created.tags).toContain('#work');
    expect((await h.ok<{ id: string }>('get_note', { note_id: created.id })).id).toBe(created.id);
    const listed = await h.ok<{ items: { id: string }[] }>('list_notes', { size: 50 });
    expect(listed.items.map((item) => item.id)).toContain(created.id);
    // What was written is what the tool said.
    const files = await readFile(path.join(dir, `Open ${what.replace(/[<>?!]/g, '')}.md`), 'utf8');
    expect(files).toContain(text);
  });

  it('a note tagged #personal in its text is still inside #work', async () => {
    const dir = await writeVault({ 'Keep.md': 'keep\n' });
    h = await connect({ dir, tag: '#work' });
    const created = await h.ok<{ id: string; tags: string[] }>('create_note', { title: 'Mixed', text: '#personal\n\n```\nopen' });
    expect(created.tags).toEqual(expect.arrayContaining(['#work', '#personal']));
    other = await connect({ dir, tag: '#personal' });
    expect((await other.ok<{ id: string }>('get_note', { note_id: created.id })).id).toBe(created.id);
  });
});
