import { describe, expect, it } from 'vitest';
import { freshVaults, type Harness, type HarnessOptions } from '../support/helpers.js';

/**
 * search_notes through the in-process client, for the words people type
 * (issue 33): stop words beside other words do not rank, quoted or alone
 * they are looked for, and a Korean word is found with the particles written
 * after it; inside a folder boundary nothing outside is shown or counted.
 */

const note = (title: string, body: string) => `---\ntitle: ${title}\n---\n${body}\n`;

const VAULT: Record<string, string> = {
  'Work/Cover letter.md': note('Cover letter', 'How does my experience fit your team? I would love to work with you, and I know how hard the work is. How does Monday sound? It does work for me.'),
  'Work/RSA.md': note('RSA', 'RSA encryption: a public key encrypts, the private key decrypts. Its security rests on factoring large numbers.'),
  'Work/Band.md': note('The Who', 'The Who played at Woodstock.'),
  'Work/Tutorial.md': note('Tutorial', 'How does a tutorial help? Step by step.'),
  'Work/Near.md': note('Near', 'Here is how it does its job.'),
  'Work/데이터.md': note('저장', '데이터를 저장합니다. 데이터는 로컬에 있습니다.'),
  'Work/형식.md': note('형식', '데이터의 형식과 Obsidian에서 쓰는 방법.'),
  'Work/탭.md': note('창', '새 탭에서 열거나 탭을 닫습니다.'),
  'Work/업데이트.md': note('업데이트', '업데이트를 설치합니다.'),
  'Private/Secret.md': note('Secret', 'How does the secret RSA key work? The Who knows. 데이터를 숨깁니다. 탭을 숨깁니다.'),
};

const vaults = freshVaults();
const harness = (options: Omit<HarnessOptions, 'dir'> = {}): Promise<Harness> => vaults.harness(VAULT, options);

interface Page {
  items: { title: string }[];
  total: number;
}

async function search(h: Harness, query: string): Promise<{ titles: string[]; total: number }> {
  const page = await h.ok<Page>('search_notes', { query, size: 50 });
  return { titles: page.items.map((item) => item.title), total: page.total };
}

describe('stop words', () => {
  it('rank a question by what it is about: the RSA note first, not the letter full of "how does … work"', async () => {
    const h = await harness();
    const { titles } = await search(h, 'how does RSA encryption work');
    expect(titles[0]).toBe('RSA');
  });

  it('are looked for when the query has nothing else', async () => {
    const h = await harness({ folder: 'Work' });
    const { titles } = await search(h, 'the who');
    expect(titles[0]).toBe('The Who');
  });

  it('are looked for where they stand when quoted', async () => {
    const h = await harness({ folder: 'Work' });
    expect((await search(h, '"how does"')).titles.sort()).toEqual(['Cover letter', 'Tutorial']);
    expect((await search(h, '"how does my"')).titles).toEqual(['Cover letter']);
  });

  it('inside a folder boundary, show and count only the notes inside', async () => {
    const h = await harness({ folder: 'Work' });
    for (const query of ['how does RSA encryption work', 'the who', '"how does"', 'rsa']) {
      const { titles, total } = await search(h, query);
      expect(titles, query).not.toContain('Secret');
      expect(total, query).toBe(titles.length);
    }
    expect((await search(h, 'rsa')).total).toBe(1);
  });
});

describe('Korean', () => {
  it.each([
    ['데이터', ['저장', '형식']],
    ['탭', ['창']],
    ['형식', ['형식']],
    ['obsidian', ['형식']],
  ])('%j is found with the particles written after it', async (query, expected) => {
    const h = await harness({ folder: 'Work' });
    const { titles, total } = await search(h, query);
    expect(titles.sort()).toEqual(expected);
    expect(total).toBe(expected.length);
  });

  it('finds the notes outside the boundary only for a connection that sees them', async () => {
    const everything = await harness();
    expect((await search(everything, '데이터')).titles.sort()).toEqual(['Secret', '저장', '형식']);
    const bounded = await vaults.another(everything.dir, { folder: 'Work' });
    expect((await search(bounded, '데이터')).total).toBe(2);
    expect((await search(bounded, '탭')).titles).toEqual(['창']);
  });
});
