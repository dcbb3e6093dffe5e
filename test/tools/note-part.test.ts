import { describe, expect, it } from 'vitest';
import { bodyLines } from '../../src/format/outline.js';
import { boundedOutline, readPart, readSpan, requestedSpan, TEXT_LIMIT, type SpanRequest } from '../../src/tools/note-part.js';

/** readSpan over a body's own lines. */
const span = (body: string, from: number, to: number, limit?: number) => readSpan(body, bodyLines(body), { from, to }, limit);

describe('requestedSpan: the lines a request asks for', () => {
  const cases: [string, number, SpanRequest, { from: number; to: number } | RegExp][] = [
    ['nothing asked: the whole body', 10, {}, { from: 1, to: 10 }],
    ['from_line alone: to the end', 10, { fromLine: 4 }, { from: 4, to: 10 }],
    ['max_lines alone: from the start', 10, { maxLines: 3 }, { from: 1, to: 3 }],
    ['both', 10, { fromLine: 4, maxLines: 3 }, { from: 4, to: 6 }],
    ['max_lines past the end stops at the end', 10, { fromLine: 9, maxLines: 5 }, { from: 9, to: 10 }],
    ['the last line', 10, { fromLine: 10 }, { from: 10, to: 10 }],
    ['one past the end is refused', 10, { fromLine: 11 }, /^from_line 11 is past the end of the note, which has 10 lines; give a from_line from 1 to 10\.$/],
    ['one line: singular', 1, { fromLine: 3 }, /which has 1 line;/],
    ['an empty body: from_line 1 is the body', 0, { fromLine: 1 }, { from: 1, to: 0 }],
    ['an empty body: from_line 2 is refused', 0, { fromLine: 2 }, /^from_line 2 is past the end of the note, which is empty; leave out from_line\.$/],
    ['a section: from its first line to its last', 20, { section: { from: 5, to: 9, name: 'Plan' } }, { from: 5, to: 9 }],
    ['a section with max_lines', 20, { section: { from: 5, to: 9, name: 'Plan' }, maxLines: 2 }, { from: 5, to: 6 }],
    ['a section read on from a line within it', 20, { section: { from: 5, to: 9, name: 'Plan' }, fromLine: 8 }, { from: 8, to: 9 }],
    ['a section: max_lines does not run past its end', 20, { section: { from: 5, to: 9, name: 'Plan' }, fromLine: 8, maxLines: 10 }, { from: 8, to: 9 }],
    ['a section: a from_line after it is refused', 20, { section: { from: 5, to: 9, name: 'Plan' }, fromLine: 10 }, /^from_line 10 is outside "Plan", which is lines 5 to 9 of the note;/],
    ['a section: a from_line before it is refused', 20, { section: { from: 5, to: 9, name: 'Plan' }, fromLine: 4 }, /^from_line 4 is outside "Plan"/],
  ];
  it.each(cases)('%s', (_name, total, request, expected) => {
    if (expected instanceof RegExp) expect(() => requestedSpan(total, request)).toThrow(expected);
    else expect(requestedSpan(total, request)).toEqual(expected);
  });
});

describe('readSpan: lines with their own line breaks, whole lines up to the limit', () => {
  const cases: [string, string, number, number, number | undefined, { text: string; lines: { from: number; to: number; total: number }; truncated: boolean }][] = [
    ['an empty body', '', 1, 0, undefined, { text: '', lines: { from: 0, to: 0, total: 0 }, truncated: false }],
    ['the whole body, final break kept', 'a\nb\n', 1, 2, undefined, { text: 'a\nb\n', lines: { from: 1, to: 2, total: 2 }, truncated: false }],
    ['no final break: no extra line', 'a\nb', 1, 2, undefined, { text: 'a\nb', lines: { from: 1, to: 2, total: 2 }, truncated: false }],
    ['a blank last line counts', 'a\n\n', 2, 2, undefined, { text: '\n', lines: { from: 2, to: 2, total: 2 }, truncated: false }],
    ['CRLF: one break, kept', 'a\r\nb\r\nc', 2, 3, undefined, { text: 'b\r\nc', lines: { from: 2, to: 3, total: 3 }, truncated: false }],
    ['CR alone (old Mac)', 'a\rb\rc\r', 2, 2, undefined, { text: 'b\r', lines: { from: 2, to: 2, total: 3 }, truncated: false }],
    ['mixed endings', 'a\r\nb\rc\nd', 1, 4, undefined, { text: 'a\r\nb\rc\nd', lines: { from: 1, to: 4, total: 4 }, truncated: false }],
    ['LF CR is two breaks', 'a\n\rb', 1, 3, undefined, { text: 'a\n\rb', lines: { from: 1, to: 3, total: 3 }, truncated: false }],
    ['exactly the limit fits', 'abc\nde\n', 1, 2, 7, { text: 'abc\nde\n', lines: { from: 1, to: 2, total: 2 }, truncated: false }],
    ['one over: whole lines only', 'abc\ndef\n', 1, 2, 7, { text: 'abc\n', lines: { from: 1, to: 1, total: 2 }, truncated: true }],
    ['a line break counts toward the limit', 'abc\r\ndef', 1, 2, 5, { text: 'abc\r\n', lines: { from: 1, to: 1, total: 2 }, truncated: true }],
    ['from a later line', 'a\nbb\ncc\ndd\n', 2, 4, 6, { text: 'bb\ncc\n', lines: { from: 2, to: 3, total: 4 }, truncated: true }],
    ['a first line longer than the limit comes cut', 'abcdefgh\nij', 1, 2, 5, { text: 'abcde', lines: { from: 1, to: 1, total: 2 }, truncated: true }],
    ['a cut never splits a surrogate pair', 'abcd😀\n', 1, 1, 5, { text: 'abcd', lines: { from: 1, to: 1, total: 1 }, truncated: true }],
  ];
  it.each(cases)('%s', (_name, body, from, to, limit, expected) => {
    expect(span(body, from, to, limit)).toEqual(expected);
  });

  const totals: [string, number][] = [
    ['', 0],
    ['x', 1],
    ['x\n', 1],
    ['\n', 1],
    ['\n\n', 2],
    ['a\r\n', 1],
    ['a\r\n\r\n', 2],
    ['a\r', 1],
    ['a\rb', 2],
    ['a\n\rb', 3],
  ];
  it.each(totals)('counts the lines of %j as %i, as edit_note does (a final line break starts no line)', (body, total) => {
    expect(readPart(body).lines.total).toBe(total);
    expect(bodyLines(body)).toHaveLength(total);
  });

  it('caps a large body at 50,000 characters of whole lines, and paging gives it back exactly', () => {
    const line = (n: number) => `${'x'.repeat(n % 97)} line ${n}${n % 3 === 0 ? '\r\n' : '\n'}`;
    const body = Array.from({ length: 6000 }, (_, n) => line(n)).join('');
    expect(body.length).toBeGreaterThan(3 * TEXT_LIMIT);
    let read = '';
    let from = 1;
    let pages = 0;
    for (;;) {
      const part = readPart(body, { fromLine: from });
      expect(part.text.length).toBeLessThanOrEqual(TEXT_LIMIT);
      // Whole lines: each page ends where a line ends.
      expect(part.text).toMatch(/\n$/);
      read += part.text;
      pages++;
      if (part.lines.to === part.lines.total) {
        expect(part.truncated).toBe(false);
        break;
      }
      expect(part.truncated).toBe(true);
      // The next line would not have fitted.
      expect(part.text.length + line(part.lines.to).length).toBeGreaterThan(TEXT_LIMIT);
      from = part.lines.to + 1;
    }
    expect(read).toBe(body);
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(body.length / TEXT_LIMIT));
  });

  it('reads a 4 MiB single-line body as its first 50,000 characters', () => {
    const body = 'y'.repeat(4 * 1024 * 1024);
    const part = readPart(body);
    expect(part).toMatchObject({ text: 'y'.repeat(TEXT_LIMIT), lines: { from: 1, to: 1, total: 1 }, truncated: true });
  });
});

describe('readPart: a heading, a block, the outline', () => {
  const body = ['# Intro', 'hello', '## Plan', 'step one', 'step two ^s2', '', '## Plan B', 'other', '', 'Setext', '======', 'after', ''].join('\n');

  it('reads a section with its heading line, up to the next heading of the same or a higher level', () => {
    expect(readPart(body, { heading: 'plan' })).toMatchObject({ text: '## Plan\nstep one\nstep two ^s2\n\n', lines: { from: 3, to: 6, total: 12 }, truncated: false });
    expect(readPart(body, { heading: 'Intro#Plan B' }).text).toBe('## Plan B\nother\n\n');
    expect(readPart(body, { heading: 'Intro' }).lines).toEqual({ from: 1, to: 9, total: 12 });
  });

  it('reads a setext heading with its underline, and a block by its id', () => {
    expect(readPart(body, { heading: 'setext' })).toMatchObject({ text: 'Setext\n======\nafter\n', lines: { from: 10, to: 12, total: 12 } });
    expect(readPart(body, { heading: '^s2' })).toMatchObject({ text: 'step one\nstep two ^s2\n', lines: { from: 4, to: 5, total: 12 } });
  });

  it('pages a section with from_line and max_lines', () => {
    expect(readPart(body, { heading: 'Plan', fromLine: 4, maxLines: 1 })).toMatchObject({ text: 'step one\n', lines: { from: 4, to: 4, total: 12 } });
    expect(() => readPart(body, { heading: 'Plan', fromLine: 7 })).toThrow(/^from_line 7 is outside "Plan", which is lines 3 to 6 of the note;/);
  });

  it('refuses a heading that is not there, or names several, in outline.ts sentences', () => {
    expect(() => readPart(body, { heading: 'Nope' })).toThrow(/^Heading not found: Nope$/);
    const twice = '# A\n## Same\nx\n# B\n## Same\ny\n';
    expect(() => readPart(twice, { heading: 'same' })).toThrow(/matches 2 headings.*Parent#Child/);
    expect(readPart(twice, { heading: 'B#Same' }).text).toBe('## Same\ny\n');
  });

  it('outlines the whole body whatever part it reads', () => {
    const outline = [
      { heading: 'Intro', level: 1, line: 1 },
      { heading: 'Plan', level: 2, line: 3 },
      { heading: 'Plan B', level: 2, line: 7 },
      { heading: 'Setext', level: 1, line: 10 },
    ];
    expect(readPart(body).outline).toEqual(outline);
    expect(readPart(body, { fromLine: 12 })).toMatchObject({ outline, outlineCut: false, text: 'after\n' });
  });
});

describe('boundedOutline: the deepest levels go first', () => {
  const h = (level: number, line: number) => ({ heading: `H${line}`, level, line });
  const cost = (headings: { heading: string; level: number; line: number }[]) => headings.reduce((sum, heading) => sum + JSON.stringify(heading).length + 1, 0);
  const outline = [h(1, 1), h(2, 2), h(3, 3), h(3, 4), h(2, 5), h(3, 6), h(3, 7)];

  it('keeps everything that fits', () => {
    expect(boundedOutline(outline, cost(outline))).toEqual({ outline, cut: false });
  });
  it('drops the deepest level when all does not fit', () => {
    expect(boundedOutline(outline, cost(outline) - 1)).toEqual({ outline: [h(1, 1), h(2, 2), h(2, 5)], cut: true });
  });
  it('keeps only level 1 when level 2 does not fit either', () => {
    expect(boundedOutline(outline, cost([h(1, 1), h(2, 2), h(2, 5)]) - 1)).toEqual({ outline: [h(1, 1)], cut: true });
  });
  it('keeps the first headings of the shallowest level when that level alone does not fit', () => {
    const flat = [h(2, 1), h(2, 2), h(2, 3), h(3, 4)];
    expect(boundedOutline(flat, cost([h(2, 1), h(2, 2)]))).toEqual({ outline: [h(2, 1), h(2, 2)], cut: true });
  });
  it('keeps a 10,000-heading outline under its limit', () => {
    const many = Array.from({ length: 10_000 }, (_, n) => ({ heading: `Section ${n}`, level: n % 50 === 0 ? 1 : 2, line: n + 1 }));
    const bounded = boundedOutline(many);
    expect(bounded.cut).toBe(true);
    expect(bounded.outline).toEqual(many.filter((heading) => heading.level === 1));
    expect(JSON.stringify(bounded.outline).length).toBeLessThanOrEqual(20_000);
  });
});
