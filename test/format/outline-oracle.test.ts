/**
 * outlineOf against the Markdown tree of mdast-util-from-markdown (CommonMark
 * + GFM) on random notes: the top-level headings, their levels and their
 * lines must agree. Obsidian's own `%%comments%%` and `$$math$$` are left out
 * of the notes here (the tree does not know them; outline.test.ts covers
 * them), and so are GFM tables, which outline.ts does not model (a table
 * row underlined with `===` reads there as a setext heading).
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { outlineOf } from '../../src/format/outline.js';
import { createRng, type Rng } from '../support/random.js';

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;

const LINES = [
  '# Title',
  '## Sub heading ##',
  '### Deep',
  '#tag not heading',
  '    # indented',
  'Plain text',
  'more text',
  '===',
  '---',
  '- item',
  '  continued',
  '1. first',
  '> # quoted',
  '> quote',
  '```',
  '~~~',
  '# inside?',
  '<!--',
  '-->',
  '***',
  '',
  '',
];

function randomNote(rng: Rng): string {
  const count = Math.floor(rng() * 14);
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(pick(rng, LINES));
  return lines.join('\n') + '\n';
}

function oracle(body: string): { level: number; line: number }[] {
  const tree = fromMarkdown(body, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  return tree.children.filter((node) => node.type === 'heading').map((node) => ({ level: (node as { depth: number }).depth, line: node.position?.start.line ?? 0 }));
}

describe('outlineOf agrees with the Markdown tree', () => {
  it('on 1,000 random notes', () => {
    const rng = createRng(302);
    for (let n = 0; n < 1000; n++) {
      const body = randomNote(rng);
      expect(outlineOf(body).map(({ level, line }) => ({ level, line })), JSON.stringify(body)).toEqual(oracle(body));
    }
  });
});
