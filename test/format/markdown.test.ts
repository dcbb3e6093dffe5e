import { describe, expect, it } from 'vitest';
import { extractTags, makeSnippet, toPlainText, toSearchText } from '../../src/format/markdown.js';
import { OBSIDIAN_GROUPS, PLAIN_TEXT_CASES, SEARCH_TEXT_CASES, SNIPPET_CASES, TAG_GROUPS } from './markdown-cases.js';

describe('extractTags', () => {
  for (const [group, cases] of TAG_GROUPS) {
    describe(group, () => {
      it.each(cases)('%s', (_description, input, expected) => {
        expect(extractTags(input)).toEqual(expected);
      });
    });
  }
});

describe('toPlainText', () => {
  it.each(PLAIN_TEXT_CASES)('%s', (_description, input, expected) => {
    expect(toPlainText(input)).toBe(expected);
  });
});

describe('toPlainText, as Obsidian reads it', () => {
  for (const [group, cases] of OBSIDIAN_GROUPS) {
    describe(group, () => {
      it.each(cases)('%s', (_description, input, expected) => {
        expect(toPlainText(input)).toBe(expected);
      });
    });
  }

  it('leaves no doubled space and no space before punctuation where something was left out', () => {
    const body = 'A ![[a.png]] ![[b.png]], then %%x%%; and [[L|l]] ![[c]]!\n\n- [ ] t %%y%%.\n\n> [!note] ![[d]] %%e%% (![[f]])';
    const text = toPlainText(body);
    expect(text).toBe('A, then; and l! ☐ t. ()');
    expect(text).not.toMatch(/ {2}/);
  });
});

describe('toSearchText', () => {
  it.each(SEARCH_TEXT_CASES)('%s', (_description, input, expected) => {
    expect(toSearchText(input)).toBe(expected);
  });

  it('starts with toPlainText', () => {
    const bodies = [
      '# Notes\n\n> [!tip] Use [[Search|search]]\n> %%later%% often.\n\n- [ ] ask [[People/Ann|Ann]]',
      'Plain words only.',
      '| [[X\\|y]] | ==z== |\n|---|---|\n| `[[C|c]]` | ![[i.png]] |',
    ];
    for (const body of bodies) expect(toSearchText(body).startsWith(toPlainText(body))).toBe(true);
  });
});

describe('makeSnippet', () => {
  it.each(SNIPPET_CASES)('%s', (_description, input, limit, expected) => {
    const snippet = limit === undefined ? makeSnippet(input) : makeSnippet(input, limit);
    expect(snippet).toBe(expected);
  });

  it('is the start of toPlainText even when a long note defines its references at the end', () => {
    const body = '[Label][ref] opens the note.\n\n' + 'Another paragraph of words.\n\n'.repeat(200) + '[ref]: https://example.com';
    const snippet = makeSnippet(body, 40);
    expect(snippet).toBe('Label opens the note. Another paragraph…');
    expect(toPlainText(body).startsWith(snippet.slice(0, -1))).toBe(true);
  });

  it('never exceeds the limit plus the ellipsis, counted in code points', () => {
    const text = Array.from({ length: 200 }, (_, k) => (k % 7 === 0 ? '😀' : 'word') + (k % 3 ? ' ' : '')).join('');
    for (const limit of [1, 10, 50, 100, 299]) {
      const snippet = makeSnippet(text, limit);
      expect([...snippet].length).toBeLessThanOrEqual(limit + 1);
      expect(snippet.endsWith('…')).toBe(true);
      expect(snippet).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    }
  });
});
