/**
 * Differential test: analyzeMarkdown, which reads a body once for its tags,
 * plain text, snippet and search text, and the functions built on the same
 * modules, must give for every body exactly what the scanner gave before it
 * was split (issue 14), when each of extractTags, toPlainText, makeSnippet
 * and toSearchText read the body on its own. The old scanner is kept, frozen,
 * in markdown-legacy.ts. The bodies: every input of the unit tables
 * (markdown-cases.ts), the documents of the remark oracle
 * (markdown-corpora.ts), more generated documents, some built where the one
 * walk's two jobs part ways or the snippet's source ends, the sample vault's
 * notes and a generated vault's.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateVault } from '../../bench/generate.js';
import { analyzeMarkdown, extractTags, makeSnippet, toPlainText, toSearchText } from '../../src/vault/markdown.js';
import { parseNoteFile } from '../../src/vault/parse.js';
import { removeDir, SAMPLE_VAULT, tempDir } from '../helpers.js';
import { OBSIDIAN_GROUPS, PLAIN_TEXT_CASES, SEARCH_TEXT_CASES, SNIPPET_CASES, TAG_GROUPS } from './markdown-cases.js';
import { COMMENT_HEAVY_FRAGMENTS, FRAGMENTS, generatedDocuments, HAND_WRITTEN } from './markdown-corpora.js';
import * as before from './markdown-legacy.js';

interface Answers {
  tags: string[];
  plain: string;
  snippet: string;
  searchText: string;
}

function answersBefore(body: string, limit?: number): Answers {
  return {
    tags: before.extractTags(body),
    plain: before.toPlainText(body),
    snippet: limit === undefined ? before.makeSnippet(body) : before.makeSnippet(body, limit),
    searchText: before.toSearchText(body),
  };
}

/** The ways a body's answers differ from those before the split, by what gave them. */
function differences(body: string, limit?: number): string[] {
  const expected = answersBefore(body, limit);
  const analysis = limit === undefined ? analyzeMarkdown(body) : analyzeMarkdown(body, limit);
  const separate: Answers = {
    tags: extractTags(body),
    plain: toPlainText(body),
    snippet: limit === undefined ? makeSnippet(body) : makeSnippet(body, limit),
    searchText: toSearchText(body),
  };
  const found: string[] = [];
  for (const key of ['tags', 'plain', 'snippet', 'searchText'] as const) {
    const want = JSON.stringify(expected[key]);
    if (JSON.stringify(analysis[key]) !== want) found.push(`analyzeMarkdown(${JSON.stringify(body)}).${key}: ${JSON.stringify(analysis[key])}, was ${want}`);
    if (JSON.stringify(separate[key]) !== want) found.push(`${key} alone of ${JSON.stringify(body)}: ${JSON.stringify(separate[key])}, was ${want}`);
  }
  return found;
}

function expectSameAsBefore(bodies: readonly string[], limit?: number): void {
  const found = bodies.flatMap((body) => differences(body, limit));
  expect(found.slice(0, 5)).toEqual([]);
}

/**
 * Fragments where a tag's reading runs past what the walk has visited: an
 * e-mail-like run after a sigil that holds the start of a bare URL (so the
 * walk and the tag rules part ways, and the tags are read again on their
 * own), `_` runs a tag ends inside, escapes in an address, and code, links
 * and comments for the parted readings to disagree about.
 */
const PARTING_FRAGMENTS: string[] = [
  '#a.b_www.x.@ex.com/`',
  '#a.b_www.x.@ex.com/``',
  '&#x_www.y.io/_a',
  'a@b_www.c.io/[x](y)',
  '#k.l_www.m.@n.io/_o',
  '@p_www.q.io/#r_',
  '#s\\_www.t.@u.io/`%%`',
  '#foo\\_bar@example.com',
  '#___x__',
  '#ml/_em_',
  '_see #tag_',
  '#a_b_ c_',
  '` %% `',
  '%% #in',
  '[#l](u "#t")',
  '`` #c ``',
];

/** Long bodies whose leaves glue together after comments, so that the snippet's source ends inside a leaf. */
function gluedBodies(): string[] {
  const bodies: string[] = [];
  for (const piece of ['.😀', '.😀😀', '.', '. word', ',😀 x']) {
    for (const count of [99, 100, 101, 149, 150, 151, 200, 300, 301, 400]) {
      bodies.push('a %%' + `\n\n%%${piece} %%`.repeat(count) + '\n\n%%.');
      bodies.push('start here\n\n' + `x %%\n\n%%${piece}\n\n`.repeat(count));
    }
  }
  return bodies;
}

async function noteBodies(dir: string): Promise<string[]> {
  const bodies: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    for (const entry of await readdir(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory()) await walk(child);
      else if (entry.name.endsWith('.md')) {
        const content = await readFile(path.join(dir, child), 'utf8');
        bodies.push(parseNoteFile({ path: child, content, size: content.length, mtimeMs: 0, ctimeMs: 0, ino: 0, birthtimeMs: 0 }).body);
      }
    }
  };
  await walk('');
  return bodies.sort();
}

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

describe('analyzeMarkdown gives what the separate functions gave before the split', () => {
  it('on every input of the unit tables', () => {
    const bodies = [
      ...TAG_GROUPS.flatMap(([, cases]) => cases.map(([, input]) => input)),
      ...PLAIN_TEXT_CASES.map(([, input]) => input),
      ...OBSIDIAN_GROUPS.flatMap(([, cases]) => cases.map(([, input]) => input)),
      ...SEARCH_TEXT_CASES.map(([, input]) => input),
      ...SNIPPET_CASES.map(([, input]) => input),
    ];
    expect(bodies.length).toBeGreaterThan(250);
    expectSameAsBefore(bodies);
  });

  it.each(SNIPPET_CASES.filter(([, , limit]) => limit !== undefined))('with the snippet limit of the case %s', (_description, input, limit) => {
    expectSameAsBefore([input], limit);
  });

  it('with other snippet limits, on long and glued notes', () => {
    const bodies = [...HAND_WRITTEN, ...gluedBodies()];
    for (const limit of [1, 20, 40, 80, 299, 301]) expectSameAsBefore(bodies, limit);
  });

  it('on the hand-written documents of the oracle', () => {
    expectSameAsBefore(HAND_WRITTEN);
  });

  it('on the generated documents of the oracle', () => {
    expectSameAsBefore(generatedDocuments(300, 20240611));
    expectSameAsBefore(generatedDocuments(300, 20250817, COMMENT_HEAVY_FRAGMENTS));
  });

  it('on more generated documents, other seeds', () => {
    expectSameAsBefore(generatedDocuments(1500, 14));
    expectSameAsBefore(generatedDocuments(1500, 1414, COMMENT_HEAVY_FRAGMENTS));
  });

  it('where a tag reads past the walk, and where the two part ways', () => {
    expectSameAsBefore(PARTING_FRAGMENTS);
    expectSameAsBefore(generatedDocuments(1500, 2026, [...FRAGMENTS, ...PARTING_FRAGMENTS, ...PARTING_FRAGMENTS]));
    expectSameAsBefore(generatedDocuments(1500, 2027, [...COMMENT_HEAVY_FRAGMENTS, ...PARTING_FRAGMENTS, ...PARTING_FRAGMENTS]));
  });

  it('where the two readings part ways and disagree about what follows', () => {
    const bodies = [
      '#a.b_www.x.@ex.com/`` %% ``\n\nlater #u %% #t',
      '#a.b_www.x.@ex.com/` #hidden `',
      '#a.b_www.x.@ex.com/[x](y "#title") #after',
      '#a.b_www.x.@ex.com/_z ok_ #k',
    ];
    expectSameAsBefore(bodies);
    expect(analyzeMarkdown(bodies[0]!).tags).toEqual(before.extractTags(bodies[0]!));
  });

  it('on long glued notes, where the snippet is cut from the start of the text', () => {
    expectSameAsBefore(gluedBodies());
  });

  it("on the sample vault's notes", async () => {
    const bodies = await noteBodies(SAMPLE_VAULT);
    expect(bodies.length).toBeGreaterThan(30);
    expectSameAsBefore(bodies);
  });

  it("on a generated vault's notes", async () => {
    const dir = await tempDir('dexi-markdown-');
    dirs.push(dir);
    await generateVault(dir, { notes: 300, seed: 14 });
    const bodies = await noteBodies(dir);
    expect(bodies.length).toBe(300);
    expectSameAsBefore(bodies);
  });
});
