import { afterEach, describe, expect, it } from 'vitest';
import { connect, removeDir, writeVault, type Harness } from '../../support/helpers.js';

interface Hit {
  id: string;
  title: string;
  matched_terms?: string[];
  source: string;
}
interface Page {
  items: Hit[];
  total: number;
  page: number;
}

const note = (id: number, title: string, body: string, extra = '') =>
  `---\nid: 00000000-0000-4000-8000-${String(id).padStart(12, '0')}\ntitle: ${title}\n${extra}---\n${body}\n`;

let h: Harness | undefined;
afterEach(async () => {
  if (h) {
    await h.close();
    await removeDir(h.dir);
    h = undefined;
  }
});

async function vault(files: Record<string, string>): Promise<Harness> {
  h = await connect({ dir: await writeVault(files) });
  return h;
}

describe('search_notes ranking', () => {
  it('ranks a title match above a passing mention', async () => {
    const s = await vault({
      'a.md': note(1, 'Weekly groceries', 'Milk, eggs, and a note that compost helps the beds.'),
      'b.md': note(2, 'Compost', 'Layers of greens and browns, turned weekly.'),
    });
    const page = await s.ok<Page>('search_notes', { query: 'compost' });
    expect(page.items.map((item) => item.title)).toEqual(['Compost', 'Weekly groceries']);
  });

  it('ranks notes with more of the query words higher, and still finds notes lacking one', async () => {
    const s = await vault({
      'a.md': note(1, 'Summer', 'Tomatoes need deep watering in the garden.'),
      'b.md': note(2, 'Balcony', 'The tomatoes on the balcony are ripe.'),
      'c.md': note(3, 'Unrelated', 'A note about trains.'),
    });
    const page = await s.ok<Page>('search_notes', { query: 'tomatoes garden watering' });
    expect(page.items.map((item) => item.title)).toEqual(['Summer', 'Balcony']);
    expect(page.total).toBe(2);
  });

  it('covers every source kind and reports the matched terms', async () => {
    const s = await vault({
      'a.md': note(1, 'Paper', 'About diffusion models.', 'source: bookmark\nsource_url: https://example.com\n'),
      'b.md': note(2, 'Mail', 'Diffusion reading group moved.', 'source: email\n'),
      'c.md': note(3, 'Feed', 'Diffusion everywhere.', 'source: feed\n'),
    });
    const page = await s.ok<Page>('search_notes', { query: 'diffusion' });
    expect(page.items.map((item) => item.source).sort()).toEqual(['bookmark', 'email', 'feed']);
    expect(page.items[0]?.matched_terms).toEqual(['diffusion']);
  });

  it('matches prefixes, small typos, accents and tags', async () => {
    const s = await vault({
      'a.md': note(1, 'Sourdough', 'Hydration and fermentation schedule. #baking'),
      'b.md': note(2, 'Café', 'Notes from the café in Lisbon.'),
    });
    expect((await s.ok<Page>('search_notes', { query: 'ferment' })).items.map((i) => i.title)).toEqual(['Sourdough']);
    expect((await s.ok<Page>('search_notes', { query: 'fermentatoin' })).items.map((i) => i.title)).toEqual(['Sourdough']);
    expect((await s.ok<Page>('search_notes', { query: 'cafe' })).items.map((i) => i.title)).toEqual(['Café']);
    expect((await s.ok<Page>('search_notes', { query: 'baking' })).items.map((i) => i.title)).toEqual(['Sourdough']);
  });

  it('treats regex metacharacters as text', async () => {
    const s = await vault({ 'a.md': note(1, 'Regex', 'Patterns like a.*b and (x|y).') });
    for (const query of ['.*', '(x|y)', '[', '\\', '$^', '+?']) {
      const page = await s.ok<Page>('search_notes', { query });
      expect(page.total).toBeGreaterThanOrEqual(0);
    }
  });

  it('paginates with total', async () => {
    const files: Record<string, string> = {};
    for (let i = 1; i <= 25; i++) files[`n${i}.md`] = note(i, `Note ${i}`, `shared word ${'x '.repeat(i)}`);
    const s = await vault(files);
    const first = await s.ok<Page>('search_notes', { query: 'shared', size: 10 });
    const third = await s.ok<Page>('search_notes', { query: 'shared', size: 10, page: 3 });
    expect(first.total).toBe(25);
    expect(third.items).toHaveLength(5);
    expect(third.page).toBe(3);
  });

  it.each([
    [{ query: '' }, 'query must be 1 to 200 characters'],
    [{ query: 'x'.repeat(201) }, 'query must be 1 to 200 characters'],
    [{}, 'query is required'],
    [{ query: 'x', size: 100 }, 'size must be between 1 and 50'],
  ])('rejects %j plainly', async (args, message) => {
    const s = await vault({ 'a.md': note(1, 'A', 'a') });
    expect(await s.fail('search_notes', args)).toBe(message);
  });
});

describe('search_notes before the index is ready', () => {
  it('says it is still being built instead of answering empty', async () => {
    const files: Record<string, string> = {};
    for (let i = 1; i <= 400; i++) files[`n${i}.md`] = note(i, `Note ${i}`, 'body text');
    const dir = await writeVault(files);
    h = await connect({ dir, waitLoaded: false });
    const result = await h.call('search_notes', { query: 'body' });
    if (result.isError) {
      expect((result.content[0] as { text: string }).text).toMatch(/^The search index is still being built( \(\d[\d,]* of 400 notes read\))?; try again in a few seconds\.$/);
    } else {
      // The read finished before the call: then the answer must be complete.
      expect((result.structuredContent as unknown as Page).total).toBe(400);
    }
    await h.runtime.loaded;
    expect((await h.ok<Page>('search_notes', { query: 'body' })).total).toBe(400);
  });
});
