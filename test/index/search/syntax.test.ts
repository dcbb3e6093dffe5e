import { afterEach, describe, expect, it } from 'vitest';
import { FullTextIndex, type PhraseLookup } from '../../../src/index/fulltext/fulltext.js';
import { holdsPhrase } from '../../../src/index/fulltext/query-syntax.js';
import { phraseTerms } from '../../../src/index/fulltext/terms.js';
import type { NoteRecord } from '../../../src/vault/note.js';
import { connect, removeDir, writeVault, type Harness } from '../../support/helpers.js';

/** Issue 16: the query syntax people type, and ranking that keeps the README's promise. */

interface Page {
  items: { id: string; title: string; matched_terms?: string[] }[];
  total: number;
  total_approximate?: true;
  page: number;
}

const note = (id: number, title: string, body: string) => `---\nid: 00000000-0000-4000-8000-${String(id).padStart(12, '0')}\ntitle: ${title}\n---\n${body}\n`;

let h: Harness | undefined;
afterEach(async () => {
  if (h) {
    await h.close();
    await removeDir(h.dir);
    h = undefined;
  }
});

async function vault(notes: [title: string, body: string][], options: { folder?: string; paths?: string[] } = {}): Promise<Harness> {
  const files: Record<string, string> = {};
  notes.forEach(([title, body], i) => (files[options.paths?.[i] ?? `${title}.md`] = note(i + 1, title, body)));
  h = await connect({ dir: await writeVault(files), ...(options.folder === undefined ? {} : { folder: options.folder }) });
  return h;
}

const titles = async (s: Harness, query: string, size = 50): Promise<string[]> => (await s.ok<Page>('search_notes', { query, size })).items.map((item) => item.title);

/** The own index's hits for `query` without the tool, for their scores. */
function scores(s: Harness, query: string): Map<string, number> {
  const index = s.runtime.fulltext.get(s.runtime.own);
  if (!index) throw new Error('no index');
  return new Map(index.query(query, undefined, Infinity).hits.map((hit) => [s.runtime.own.get(hit.id)?.title ?? hit.id, hit.score]));
}

describe('ranking: a note holding every query word ranks above one holding fewer', () => {
  it('vim mode: the note with both words first, though a note full of "mode" scores higher', async () => {
    const s = await vault([
      ['Views and editing mode', 'Reading mode, editing mode and source mode. Switch the mode from the status bar; the default mode is set per pane.'],
      ['Keyboard setup', 'Enable vim key bindings in the editor, then use normal mode as in any vim.'],
      ['Vim plugins', 'Vim plugins worth a look.'],
    ]);
    const got = await titles(s, 'vim mode');
    expect(got[0]).toBe('Keyboard setup');
    expect(got).toHaveLength(3);
    // The scores alone (MiniSearch's order) would have put the other note first: the rule is what moved it.
    const byScore = scores(s, 'vim mode');
    expect(byScore.get('Views and editing mode')).toBeGreaterThan(byScore.get('Keyboard setup') ?? Infinity);
  });

  it('x86 assembly: the assembly-language note above "National Assembly"', async () => {
    const s = await vault([
      ['National Assembly', 'The National Assembly met; the assembly voted, and the assembly adjourned. Assembly records.'],
      ['Learning low-level code', 'Writing x86 assembly by hand: registers, the stack, calling conventions.'],
      ['x86 laptops', 'Which x86 laptop to buy.'],
    ]);
    const got = await titles(s, 'x86 assembly');
    expect(got.indexOf('Learning low-level code')).toBe(0);
    expect(got.indexOf('National Assembly')).toBeGreaterThan(0);
  });
});

describe('exclusions', () => {
  const notes: [string, string][] = [
    ['Sync Publish', 'Publish sync: sync, sync and sync again with Publish.'],
    ['Publishing a site', 'Sync, then publishing the site.'],
    ['Sync setup', 'Set up sync on a new device.'],
    ['Sync troubleshooting', 'When sync stops, check the log.'],
    ['Unrelated', 'Gardening.'],
  ];

  it('sync -publish: no note holding publish (or a word it begins) at all, and the total counts only the rest', async () => {
    const s = await vault(notes);
    // Without the exclusion a Publish note comes first.
    expect((await titles(s, 'sync'))[0]).toBe('Sync Publish');
    const page = await s.ok<Page>('search_notes', { query: 'sync -publish' });
    expect(page.items.map((item) => item.title).sort()).toEqual(['Sync setup', 'Sync troubleshooting']);
    expect(page.total).toBe(2);
  });

  it('-"publish" quoted leaves out the word itself only', async () => {
    const s = await vault(notes);
    expect((await titles(s, 'sync -"publish"')).sort()).toEqual(['Publishing a site', 'Sync setup', 'Sync troubleshooting']);
  });

  it('-"phrase" leaves out the notes holding the phrase, not those holding its words apart', async () => {
    const s = await vault([
      ['Soup day', 'Garden harvest became tomato soup.'],
      ['Apart', 'Garden: tomato plants, and soup later.'],
      ['Reversed', 'Garden soup with tomato.'],
      ['Plain', 'Garden beds.'],
    ]);
    const page = await s.ok<Page>('search_notes', { query: 'garden -"tomato soup"' });
    expect(page.items.map((item) => item.title).sort()).toEqual(['Apart', 'Plain', 'Reversed']);
    expect(page.total).toBe(3);
  });

  it('a hyphenated word is a word, and a doubled dash is not an exclusion', async () => {
    const s = await vault([
      ['Targets', 'Build for x86-64 and arm64.'],
      ['Git', 'git push --force rewrites the remote.'],
    ]);
    expect(await titles(s, 'x86-64')).toEqual(['Targets']);
    expect(await titles(s, '--force')).toEqual(['Git']);
    expect(await titles(s, 'push -x86-64')).toEqual(['Git']);
  });

  it('refuses a query that only leaves words out, in a plain sentence', async () => {
    const s = await vault(notes);
    for (const query of ['-publish', '-"tomato soup"', '-publish -sync', '-the']) {
      expect(await s.fail('search_notes', { query })).toBe(
        'A search needs at least one word to look for, not only words to leave out (-word); add one, or use list_notes to browse.',
      );
    }
    // A lone dash is not an exclusion: it finds nothing, as before.
    expect((await s.ok<Page>('search_notes', { query: '-' })).total).toBe(0);
  });
});

describe('phrases', () => {
  const notes: [string, string][] = [
    ['Adjacent', 'The exact phrase appears here.'],
    ['Reversed', 'Phrase exact, in the other order.'],
    ['Apart', 'Exact words, and a phrase far from them.'],
    ['Across fields', 'phrase in the body only'],
    ['In the title: exact phrase', 'Nothing here.'],
    ['Case and accents', 'An EXACT Phrase, shouted.'],
    ['Other', 'Nothing to see.'],
  ];

  it('"exact phrase" finds only notes with the words adjacent and in order, in one field', async () => {
    const s = await vault(notes.map(([title, body]) => (title === 'Across fields' ? ['Exact', body] : [title, body])));
    const page = await s.ok<Page>('search_notes', { query: '"exact phrase"' });
    expect(page.items.map((item) => item.title).sort()).toEqual(['Adjacent', 'Case and accents', 'In the title: exact phrase']);
    expect(page.total).toBe(3);
    expect(page.total_approximate).toBeUndefined();
    expect(page.items[0]?.matched_terms?.sort()).toEqual(['exact', 'phrase']);
    // Without quotes, every note with either word.
    expect((await s.ok<Page>('search_notes', { query: 'exact phrase' })).total).toBe(6);
  });

  it('an unbalanced quote reads as a phrase to the end of the query', async () => {
    const s = await vault(notes);
    expect((await titles(s, '"exact phrase')).sort()).toEqual(['Adjacent', 'Case and accents', 'In the title: exact phrase']);
  });

  it('a phrase must be in every note found; other words rank among those', async () => {
    const s = await vault([
      ['One', 'The exact phrase, and appears.'],
      ['Two', 'The exact phrase.'],
      ['Three', 'Appears without it: exact words, phrase.'],
    ]);
    const page = await s.ok<Page>('search_notes', { query: '"exact phrase" appears' });
    expect(page.items.map((item) => item.title)).toEqual(['One', 'Two']);
    expect(page.total).toBe(2);
  });

  it('matches a phrase by the words in their places: punctuation between them does not part them', async () => {
    const s = await vault([
      ['Imports', 'Import the node:fs module first.'],
      ['Other', 'The module of fs, apart.'],
    ]);
    expect(await titles(s, '"fs module"')).toEqual(['Imports']);
    expect(await titles(s, '"node:fs module"')).toEqual(['Imports']);
  });

  it('keeps stop words inside a phrase: "art of war" is not "art in war"', async () => {
    const s = await vault([
      ['Book', 'Notes on the art of war.'],
      ['Other', 'War art, reversed.'],
      ['Near', 'The art in war.'],
    ]);
    expect(await titles(s, '"art of war"')).toEqual(['Book']);
  });

  it('a quoted word matches that word exactly, without prefixes or typos', async () => {
    const s = await vault([
      ['Garden', 'The garden.'],
      ['Gardening', 'Gardening tips.'],
      ['Warden', 'The warden.'],
    ]);
    expect((await titles(s, 'gardening')).length).toBeGreaterThan(0);
    expect(await titles(s, '"garden"')).toEqual(['Garden']);
    expect((await titles(s, 'garden')).sort()).toEqual(['Garden', 'Gardening', 'Warden']);
  });

  it('counts only the notes the connection sees: a phrase outside the boundary is neither shown nor counted', async () => {
    const s = await vault(
      [
        ['Inside', 'The exact phrase here.'],
        ['Outside', 'The exact phrase there.'],
        ['Outside too', 'Exact phrase again.'],
      ],
      { folder: 'Work', paths: ['Work/Inside.md', 'Private/Outside.md', 'Private/Outside too.md'] },
    );
    const page = await s.ok<Page>('search_notes', { query: '"exact phrase"' });
    expect(page.items.map((item) => item.title)).toEqual(['Inside']);
    expect(page.total).toBe(1);
  });
});

describe('OR', () => {
  const notes: [string, string][] = [
    ['Neovim modes', 'Neovim normal mode and insert mode.'],
    ['Vim plugins', 'Vim plugins.'],
    ['Vim and Neovim', 'Vim and neovim compared, vim neovim vim neovim.'],
    ['Mode settings', 'The mode setting.'],
    ['Emacs', 'Emacs only.'],
  ];

  it('vim OR neovim mode: either editor counts as the first word, so the note with an editor and mode ranks first', async () => {
    const s = await vault(notes);
    const page = await s.ok<Page>('search_notes', { query: 'vim OR neovim mode' });
    expect(page.items[0]?.title).toBe('Neovim modes');
    expect(page.items.map((item) => item.title).sort()).toEqual(['Mode settings', 'Neovim modes', 'Vim and Neovim', 'Vim plugins']);
    expect(page.total).toBe(4);
    // Without OR, holding both editors counts as two words: that note then comes first.
    expect((await titles(s, 'vim neovim mode'))[0]).toBe('Vim and Neovim');
  });

  it('"a b" OR "c d": notes with either phrase', async () => {
    const s = await vault([
      ['Insert', 'Press i for insert mode.'],
      ['Normal', 'Escape to normal mode.'],
      ['Neither', 'Mode normal insert, scrambled.'],
    ]);
    const page = await s.ok<Page>('search_notes', { query: '"insert mode" OR "normal mode"' });
    expect(page.items.map((item) => item.title).sort()).toEqual(['Insert', 'Normal']);
    expect(page.total).toBe(2);
  });

  it('lower-case or is a stop word, as before', async () => {
    const s = await vault(notes);
    expect((await titles(s, 'vim or emacs')).sort()).toEqual(['Emacs', 'Vim and Neovim', 'Vim plugins']);
  });
});

describe('phrases read from the notes, with a bounded number of reads', () => {
  /** 60 notes holding both words; the even ones hold them adjacent. */
  function index(): { index: FullTextIndex; texts: Map<string, string> } {
    const built = FullTextIndex.empty();
    const texts = new Map<string, string>();
    for (let i = 0; i < 60; i++) {
      const id = `n${String(i).padStart(3, '0')}`;
      const body = i % 2 === 0 ? `alpha beta ${'gamma '.repeat(i % 7)}` : `beta then alpha ${'gamma '.repeat(i % 5)}`;
      texts.set(id, body);
      built.upsert({ id, title: `note ${i}`, tags: [] } as unknown as NoteRecord, body);
    }
    return { index: built, texts };
  }
  const reader = (texts: Map<string, string>, counter: { reads: number }) => async (id: string, lookups: readonly PhraseLookup[]) => {
    counter.reads++;
    const words = phraseTerms(texts.get(id) ?? '');
    return lookups.map((lookup) => holdsPhrase(words, lookup.terms));
  };

  it('reads every candidate when the budget allows: an exact total', async () => {
    const { index: built, texts } = index();
    const counter = { reads: 0 };
    const page = await built.query('"alpha beta"', undefined, 10, reader(texts, counter), 1000);
    expect(page.total).toBe(30);
    expect(page.approximate).toBeUndefined();
    expect(page.hits).toHaveLength(10);
    expect(page.hits.every((hit) => Number(hit.id.slice(1)) % 2 === 0)).toBe(true);
    expect(counter.reads).toBe(60);
  });

  it('past the budget: every hit checked, the total estimated from an even sample and marked approximate', async () => {
    const { index: built, texts } = index();
    const counter = { reads: 0 };
    const page = await built.query('"alpha beta"', undefined, 5, reader(texts, counter), 20);
    expect(counter.reads).toBeLessThanOrEqual(20);
    expect(page.approximate).toBe(true);
    expect(page.hits).toHaveLength(5);
    expect(page.hits.every((hit) => Number(hit.id.slice(1)) % 2 === 0)).toBe(true);
    expect(Math.abs(page.total - 30)).toBeLessThanOrEqual(8);
    // The same page as with every note read.
    const full = await built.query('"alpha beta"', undefined, 5, reader(texts, { reads: 0 }), Infinity);
    expect(page.hits).toEqual(full.hits);
  });

  it('a query needing no reads answers without reading; without a reader a phrase query is refused', async () => {
    const { index: built, texts } = index();
    const counter = { reads: 0 };
    const page = await built.query('"alpha" -"gamma"', undefined, 100, reader(texts, counter));
    expect(counter.reads).toBe(0);
    expect(page.total).toBe(60 - [...texts.values()].filter((text) => text.includes('gamma')).length);
    expect(() => built.query('"alpha beta"', undefined, 10)).toThrow(/phrases/);
    expect(built.query('alpha -gamma', undefined, 100).total).toBe(page.total);
  });

  it('a note that can no longer be read is not found', async () => {
    const { index: built } = index();
    const page = await built.query('"alpha beta"', undefined, 10, async () => undefined);
    expect(page).toEqual({ total: 0, hits: [] });
  });
});
