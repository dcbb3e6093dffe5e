import { describe, expect, it } from 'vitest';
import type { Harness } from '../support/helpers.js';
import { sessions } from '../support/sessions.js';

/** Obsidian's own conventions, as a person who uses Obsidian expects them read. */

const FILES: Record<string, string> = {
  'Clippings/Postel.md': [
    '---',
    'title: "Postel\'s Law"',
    'source: "https://en.wikipedia.org/wiki/Robustness_principle"',
    'aliases:',
    '  - Robustness Principle',
    'created: 2025-02-03',
    'tags: [clippings]',
    '---',
    'Be conservative in what you send.',
    '',
  ].join('\n'),
  'Linking.md': 'I keep coming back to [[Interoperability Primer|that primer]] when designing protocols.\n',
  'Reading view.md': [
    '> [!warning] Careful here',
    '> The callout body.',
    '',
    'This is ==very important== text %%a private aside #secret%% for later.',
    '',
    'See [[Canvas]] and ![[Canvas.png]].',
    '',
    '- [ ] open task',
    '- [x] done task',
    '',
  ].join('\n'),
};

const session = sessions();
const serve = (): Promise<Harness> => session.serve(FILES);

type Hit = { title: string };

describe("Obsidian's conventions", () => {
  it('read a Web Clipper note as a bookmark of the clipped page', async () => {
    const h = await serve();
    const bookmarks = await h.ok<{ items: { title: string; source: string; source_url?: string }[] }>('list_notes', { source: 'bookmark' });
    expect(bookmarks.items).toEqual([
      expect.objectContaining({ title: "Postel's Law", source: 'bookmark', source_url: 'https://en.wikipedia.org/wiki/Robustness_principle' }),
    ]);
  });

  it('search aliases like the title', async () => {
    const h = await serve();
    const found = await h.ok<{ items: Hit[] }>('search_notes', { query: 'robustness principle' });
    expect(found.items[0]?.title).toBe("Postel's Law");
  });

  it('search the target words of a link shown under another name', async () => {
    const h = await serve();
    const found = await h.ok<{ items: Hit[] }>('search_notes', { query: 'interoperability primer' });
    expect(found.items.map((item) => item.title)).toEqual(['Linking']);
  });

  it('make snippets read like the reading view, and keep comments out of snippets, search and tags', async () => {
    const h = await serve();
    const note = h.runtime.own.atPath('Reading view.md');
    expect(note?.snippet).toBe('Careful here The callout body. This is very important text for later. See Canvas and. ☐ open task ☑ done task');
    expect(note?.tags).toEqual([]);
    const tags = await h.ok<{ tags: { tag: string }[] }>('list_tags', {});
    expect(tags.tags.map((entry) => entry.tag)).not.toContain('#secret');
    const aside = await h.ok<{ total: number }>('search_notes', { query: 'private aside' });
    expect(aside.total).toBe(0);
  });
});
