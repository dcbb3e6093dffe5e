import { describe, expect, it } from 'vitest';
import type { BodyLineEnding } from '../../src/format/body-edit.js';
import { applySplices, BodyEditError, bodySplices, editedBody, type BodyOperation } from '../../src/format/body-ops.js';
import { bodyLines, findTarget, OutlineTargetError, outlineOf } from '../../src/format/outline.js';
import { createRng, type Rng } from '../support/random.js';

const insert = (text: string, position: 'start' | 'end' = 'end', heading?: string): BodyOperation => ({ operation: 'insert', text, position, heading });
const section = (heading: string, text: string): BodyOperation => ({ operation: 'replace_section', heading, text });
const replace = (oldText: string, newText: string, all = false): BodyOperation => ({ operation: 'replace_text', oldText, newText, all });

/** Cases in LF; each runs again in CRLF and CR alone (the expected text converted the same way). */
const cases: [name: string, body: string, operation: BodyOperation, expected: string][] = [
  ['fix a word', 'The quick brwn fox\n', replace('brwn', 'brown'), 'The quick brown fox\n'],
  ['delete a word', 'a b c\n', replace(' b', ''), 'a c\n'],
  ['replace across lines', 'one\ntwo\nthree\n', replace('one\ntwo', 'uno\ndos'), 'uno\ndos\nthree\n'],
  ['replace every occurrence', 'cat cat cat\n', replace('cat', 'dog', true), 'dog dog dog\n'],
  ['replace inside code too (the text is exact)', '```\nx = 1\n```\n', replace('x = 1', 'x = 2'), '```\nx = 2\n```\n'],
  ['append at the end of the body', 'text\n', insert('more'), 'text\n\nmore\n'],
  ['append without a final newline', 'text', insert('more'), 'text\n\nmore'],
  ['append keeps trailing blank lines after', 'text\n\n\n', insert('more'), 'text\n\nmore\n\n\n'],
  ['prepend to the body', 'text\n', insert('first', 'start'), 'first\n\ntext\n'],
  ['prepend after leading blank lines', '\n# T\n', insert('first', 'start'), '\nfirst\n# T\n'],
  ['insert into an empty body', '', insert('only'), 'only\n'],
  ['a list item joins the list at the end', '- one\n- two\n', insert('- three'), '- one\n- two\n- three\n'],
  ['a list item joins a list with continuation lines', '- one\n  more of one\n', insert('- two'), '- one\n  more of one\n- two\n'],
  ['a paragraph after a list is set apart', '- one\n', insert('para'), '- one\n\npara\n'],
  ['a list item at the start of a list joins it', '- one\n', insert('- zero', 'start'), '- zero\n- one\n'],
  ['add a bullet under a heading', '# A\n- one\n\n# B\n- x\n', insert('- two', 'end', 'A'), '# A\n- one\n- two\n\n# B\n- x\n'],
  ['add at the start of a section', '# A\ntext\n# B\n', insert('new', 'start', 'A'), '# A\nnew\n\ntext\n# B\n'],
  ['add at the end of a section before an ATX heading', '# A\ntext\n# B\n', insert('new', 'end', 'a'), '# A\ntext\n\nnew\n# B\n'],
  ['add at the end of a section before a setext heading', '# A\n```\nc\n```\nB\n===\n', insert('new', 'end', 'A'), '# A\n```\nc\n```\n\nnew\n\nB\n===\n'],
  ['a level-2 setext heading is a subsection', '# A\ntext\n\nB\n---\n', insert('new', 'end', 'A'), '# A\ntext\n\nB\n---\nnew\n'],
  ['a section includes its subsections', '# A\ntext\n## A1\nsub\n# B\n', insert('new', 'end', 'A'), '# A\ntext\n## A1\nsub\n\nnew\n# B\n'],
  ['nested target', '# A\n## X\na\n# B\n## X\nb\n', insert('new', 'end', 'B#X'), '# A\n## X\na\n# B\n## X\nb\n\nnew\n'],
  ['empty section', '# A\n# B\n', insert('new', 'end', 'A'), '# A\nnew\n# B\n'],
  ['empty last section without a final newline', '# A', insert('new', 'end', 'A'), '# A\nnew'],
  ['blank section', '# A\n\n# B\n', insert('new', 'start', 'A'), '# A\nnew\n\n# B\n'],
  ['code fence with # lines is not a heading', '# A\n```\n# not\n```\n# B\n', insert('new', 'end', 'A'), '# A\n```\n# not\n```\n\nnew\n# B\n'],
  ['open fence at the end is closed first', '# A\n```js\ncode\n', insert('new', 'end', 'A'), '# A\n```js\ncode\n```\n\nnew\n'],
  ['open fence at the end without a final newline', 'x\n~~~\ncode', insert('new'), 'x\n~~~\ncode\n~~~\n\nnew'],
  ['insert text is trimmed of blank lines and gets the note\'s breaks', 'a\n', insert('\n\nb\nc\n\n'), 'a\n\nb\nc\n'],
  ['insert after a block', 'para ^p1\n\nmore text\n', insert('new', 'end', '^p1'), 'para ^p1\n\nnew\n\nmore text\n'],
  ['insert before a block', 'intro\n\npara\nline ^p1\n', insert('new', 'start', '^p1'), 'intro\n\nnew\n\npara\nline ^p1\n'],
  ['insert before a list block', '- a\n- b ^b\n- c\n', insert('- a2', 'start', '^b'), '- a\n- a2\n- b ^b\n- c\n'],
  ['insert after a list block', '- a\n- b ^b\n- c\n', insert('- b2', 'end', '^b'), '- a\n- b ^b\n- b2\n- c\n'],
  ['replace a section', '# A\nold\nolder\n\n# B\nkeep\n', section('A', 'new'), '# A\nnew\n\n# B\nkeep\n'],
  ['replace a section keeps its leading blank line', '# A\n\nold\n\n# B\n', section('A', 'new\ntext'), '# A\n\nnew\ntext\n\n# B\n'],
  ['replace the last section without a final newline', '# A\nold', section('A', 'new'), '# A\nnew'],
  ['empty a section', '# A\n\nold\n\n# B\n', section('A', ''), '# A\n\n# B\n'],
  ['empty the last section without a final newline', '# A\nold', section('A', ''), '# A'],
  ['replace an empty section', '# A\n# B\n', section('A', 'filled'), '# A\nfilled\n# B\n'],
  ['replace a section with subsections', '# A\nx\n## A1\ny\n# B\n', section('A', 'z'), '# A\nz\n# B\n'],
  ['replace a section before a setext heading', '# A\nx\n\nB\n===\n', section('A', 'y'), '# A\ny\n\nB\n===\n'],
  ['replace a block', 'intro\n\nold para\nline ^blk\n\nend\n', section('^blk', 'new para ^blk'), 'intro\n\nnew para ^blk\n\nend\n'],
  ['replace a list item block', '- a\n- b ^b\n- c\n', section('^b', '- B ^b'), '- a\n- B ^b\n- c\n'],
  ['remove a list item block', '- a\n- b ^b\n- c\n', section('^b', ''), '- a\n- c\n'],
];

const inEnding = (text: string, eol: BodyLineEnding): string => text.replace(/\n/g, eol);
const convert = (operation: BodyOperation, eol: BodyLineEnding): BodyOperation =>
  operation.operation === 'replace_text'
    ? operation // `\n` in old_text and new_text stands for the note's own ending: the same operation must work in every ending.
    : { ...operation, text: inEnding(operation.text, eol) };

describe('bodySplices', () => {
  for (const eol of ['\n', '\r\n', '\r'] as const) {
    it.each(cases)(`%s (${JSON.stringify(eol)})`, (_name, body, operation, expected) => {
      expect(editedBody(inEnding(body, eol), convert(operation, eol), eol, true)).toBe(inEnding(expected, eol));
    });
  }

  it('a frontmatter-only note (empty body) ends as the file did', () => {
    expect(editedBody('', insert('x'), '\n', true)).toBe('x\n');
    expect(editedBody('', insert('x'), '\n', false)).toBe('x');
    expect(() => editedBody('', section('A', 'x'), '\n', true)).toThrow(new OutlineTargetError('Heading not found: A'));
  });

  it.each([
    ['absent text', 'abc\n', replace('xyz', 'q'), 'Text not found in the note'],
    ['a line break where the note has none', 'a b\r\n', replace('a\nb', 'q'), 'Text not found in the note'],
    ['twice', 'cat cat\n', replace('cat', 'dog'), 'The text occurs 2 times in the note; add surrounding text to old_text so that it occurs once, or set all to true to replace every occurrence.'],
    ['empty old text', 'a\n', replace('', 'b'), 'old_text is empty; give the text to replace.'],
    ['empty insert', 'a\n', insert('\n \n'), 'The text to insert is empty; nothing was written.'],
  ])('refuses %s', (_name, body, operation, message) => {
    expect(() => bodySplices(body, operation, '\n', true)).toThrow(new BodyEditError(message));
  });

  it.each([
    ['# A\n', insert('x', 'end', 'B'), 'Heading not found: B'],
    ['# A\n# A\n', section('A', 'x'), '"A" matches 2 headings in the note; name the one you mean with the heading above it, as Parent#Child.'],
    ['```\n# A\n```\n', section('A', 'x'), 'Heading not found: A'],
  ])('refuses a heading in %j', (body, operation, message) => {
    expect(() => bodySplices(body, operation, '\n', true)).toThrow(new OutlineTargetError(message));
  });
});

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
const NAMES = ['Tasks', 'Notes', 'Done', 'Ideas'];

/** A random note body in LF: headings (some repeated), paragraphs, lists, code with `#` lines, comments, block ids, blank lines. */
function randomBody(rng: Rng): string {
  const blocks: string[] = [];
  let ids = 0;
  const id = (): string => (rng() < 0.3 ? ` ^b${++ids}` : '');
  for (let count = Math.floor(rng() * 9); count > 0; count--) {
    const kind = Math.floor(rng() * 7);
    if (kind === 0) blocks.push(`${'#'.repeat(1 + Math.floor(rng() * 3))} ${pick(rng, NAMES)}`);
    else if (kind === 1) blocks.push(`${pick(rng, NAMES)}\n${rng() < 0.5 ? '===' : '---'}`);
    else if (kind === 2) blocks.push(`Some text here${rng() < 0.5 ? '\nand a second line' : ''}${id()}`);
    else if (kind === 3) blocks.push(['- one', '- two', '  continued', '- three'].slice(0, 1 + Math.floor(rng() * 4)).join('\n') + id());
    else if (kind === 4) blocks.push(`\`\`\`\n# not a heading\n- nor a list${rng() < 0.8 ? '\n```' : ''}`);
    else if (kind === 5) blocks.push('%%\n# hidden\n%%');
    else blocks.push('');
    if (rng() < 0.7) blocks.push('');
  }
  return blocks.join('\n') + (rng() < 0.7 ? '\n' : '');
}

/** A random edit of `body`: a text it holds, or a target it names (or may not), with text that holds no heading. */
function randomOperation(rng: Rng, body: string): BodyOperation {
  const texts = ['new para', '- new item', 'two\nlines', '- a\n- b', 'x'];
  const ids = [...body.matchAll(/\^b\d+/g)].map((match) => match[0]);
  const headings = outlineOf(body).map((heading) => heading.heading);
  const targets = [...ids, ...headings, 'Missing', ...headings.map((heading) => `Tasks#${heading}`)];
  const kind = Math.floor(rng() * 3);
  if (kind === 0 && body.length > 0) {
    const at = Math.floor(rng() * body.length);
    return replace(body.slice(at, at + 1 + Math.floor(rng() * 6)).replace(/\r\n?/g, '\n'), pick(rng, ['', 'X', 'a\nb']), rng() < 0.5);
  }
  if (kind === 1) return insert(pick(rng, texts), rng() < 0.5 ? 'start' : 'end', rng() < 0.3 || targets.length === 0 ? undefined : pick(rng, targets));
  return section(targets.length === 0 ? 'Missing' : pick(rng, targets), pick(rng, [...texts, '']));
}

/** The byte range of the body an edit of `target` may touch: the section's lines (from just after its heading), or the block's. */
function targetRange(body: string, target: string | undefined): [number, number] {
  const lines = bodyLines(body);
  if (target === undefined) return [0, body.length];
  const span = findTarget(body, target);
  const start = span.from - 2 >= 0 && span.kind === 'section' ? (lines[span.from - 2]?.next ?? 0) : (lines[span.from - 1]?.start ?? 0);
  const lastLine = lines[Math.max(span.to, span.from - 1) - 1];
  return [Math.min(start, lastLine?.end ?? 0), lastLine?.next ?? body.length];
}

describe('random edits change only what they target', () => {
  it('holds over 400 random notes, five edits each, in every line ending', () => {
    const rng = createRng(20261202);
    let applied = 0;
    let refused = 0;
    for (let note = 0; note < 400; note++) {
      const eol = pick(rng, ['\n', '\r\n', '\r'] as const);
      let body = inEnding(randomBody(rng), eol);
      for (let step = 0; step < 5; step++) {
        const operation = randomOperation(rng, body);
        let splices;
        try {
          splices = bodySplices(body, operation, eol, true);
        } catch (error) {
          expect(error instanceof BodyEditError || error instanceof OutlineTargetError).toBe(true);
          refused++;
          continue;
        }
        const context = JSON.stringify({ body, operation, splices });
        const finalBreak = /[\r\n]$/.test(body);
        if (operation.operation === 'replace_text') {
          const old = inEnding(operation.oldText, eol);
          for (const splice of splices) expect(body.slice(splice.at, splice.at + splice.removed), context).toBe(old);
        } else {
          const [lo, hi] = targetRange(body, operation.heading);
          for (const splice of splices) {
            expect(splice.at, context).toBeGreaterThanOrEqual(lo);
            expect(splice.at + splice.removed, context).toBeLessThanOrEqual(hi);
            // Line breaks written are the note's own.
            expect(splice.inserted.replace(new RegExp(eol === '\r\n' ? '\\r\\n' : eol === '\r' ? '\\r' : '\\n', 'g'), ''), context).not.toMatch(/[\r\n]/);
          }
        }
        for (let i = 1; i < splices.length; i++) expect((splices[i] as { at: number }).at, context).toBeGreaterThanOrEqual((splices[i - 1] as { at: number }).at + (splices[i - 1] as { removed: number }).removed);
        const next = applySplices(body, splices);
        if (operation.operation !== 'replace_text') {
          // The text holds no heading: the outline stays (a replaced section's subsections aside), and the body ends as it did.
          const before = outlineOf(body).map((heading) => `${heading.level} ${heading.heading}`);
          const after = outlineOf(next).map((heading) => `${heading.level} ${heading.heading}`);
          if (operation.operation === 'insert') expect(after, context).toEqual(before);
          else expect(before, context).toEqual(expect.arrayContaining(after));
          if (next !== '') expect(/[\r\n]$/.test(next), context).toBe(finalBreak || body === '');
        }
        body = next;
        applied++;
      }
    }
    // The generator exercises both outcomes.
    expect(applied).toBeGreaterThan(900);
    expect(refused).toBeGreaterThan(100);
  });
});
