import { describe, expect, it } from 'vitest';
import { bodyLines, findTarget, outlineOf, OutlineTargetError } from '../../src/format/outline.js';

describe('bodyLines', () => {
  it.each([
    ['', []],
    ['a', ['a']],
    ['a\n', ['a']],
    ['a\nb', ['a', 'b']],
    ['a\r\nb\r\n', ['a', 'b']],
    ['a\rb\r', ['a', 'b']],
    ['a\n\nb', ['a', '', 'b']],
    ['\n', ['']],
    ['a\r\r\nb', ['a', '', 'b']],
  ] as const)('%j has lines %j', (body, texts) => {
    const lines = bodyLines(body);
    expect(lines.map((line) => line.text)).toEqual(texts);
    // The lines and their breaks cover the body, in order, with nothing left out.
    expect(lines.map((line) => body.slice(line.start, line.next)).join('')).toBe(body);
  });
});

describe('outlineOf', () => {
  it.each([
    ['no headings', 'just text\n', []],
    ['ATX levels', '# One\ntext\n## Two\n### Three\n', [['One', 1, 1], ['Two', 2, 3], ['Three', 3, 4]]],
    ['closing hashes and spaces', '  ## Two ##  \n#  Spaced   #\n', [['Two', 2, 1], ['Spaced', 1, 2]]],
    ['a tag is not a heading', '#tag\n####### seven\n    # indented code\n', []],
    ['empty ATX heading', '#\n## #\n', [['', 1, 1], ['', 2, 2]]],
    ['setext', 'Title\n=====\n\nSub\n---\n', [['Title', 1, 1], ['Sub', 2, 4]]],
    ['setext over two lines', 'one\ntwo\n===\n', [['one two', 1, 1]]],
    ['--- after a blank line is a break', 'text\n\n---\n', []],
    ['--- after a list item is a break', '- item\n---\n', []],
    ['fenced code hides headings', '# A\n```\n# not\n```\n# B\n', [['A', 1, 1], ['B', 1, 5]]],
    ['tilde fence, longer closing', '~~~~\n# not\n~~~\n# still not\n~~~~~\n# B\n', [['B', 1, 6]]],
    ['backtick fence info cannot hold a backtick', '``` a`b\n# real\n', [['real', 1, 2]]],
    ['unclosed fence hides the rest', '```\n# not\n', []],
    ['HTML comment', '<!--\n# not\n-->\n# B\n', [['B', 1, 4]]],
    ['one-line HTML comment', '<!-- x -->\n# B\n', [['B', 1, 2]]],
    ['%% comment %%', '%%\n# not\n%%\n# B\n', [['B', 1, 4]]],
    ['comment opening mid-line', 'text %% start\n# not\nend %%\n# B\n', [['B', 1, 4]]],
    ['a stray %% is text', '100%% sure\n# B\n', [['B', 1, 2]]],
    ['$$ math', '$$\n# not\n$$\n# B\n', [['B', 1, 4]]],
    ['one-line math', '$$x$$\n# B\n', [['B', 1, 2]]],
    ['indented code after a blank line', 'text\n\n    # code\n# B\n', [['B', 1, 4]]],
    ['headings in quotes and items are not in the outline', '> # quoted\n- # item\n# B\n', [['B', 1, 3]]],
    ['CRLF', '# A\r\ntext\r\n## B\r\n', [['A', 1, 1], ['B', 2, 3]]],
    ['CR alone', '# A\rtext\r## B\r', [['A', 1, 1], ['B', 2, 3]]],
  ] as const)('%s', (_name, body, expected) => {
    expect(outlineOf(body)).toEqual(expected.map(([heading, level, line]) => ({ heading, level, line })));
  });
});

describe('findTarget', () => {
  const note = [
    '# Project', // 1
    'intro', // 2
    '## Tasks', // 3
    '- one', // 4
    '- two ^t2', // 5
    '', // 6
    '### Done', // 7
    '- old', // 8
    '## Notes', // 9
    'A paragraph', // 10
    'over two lines ^para', // 11
    '', // 12
    '## Empty', // 13
    '# Other', // 14
    '## Tasks', // 15
    '```', // 16
    'code ^incode', // 17
    '```', // 18
    'Setext', // 19
    '------', // 20
    'under setext', // 21
  ].join('\n');

  it.each([
    ['Project', { kind: 'section', headingLine: 1, from: 2, to: 13 }],
    ['project', { kind: 'section', headingLine: 1, from: 2, to: 13 }],
    ['Project#Tasks', { kind: 'section', headingLine: 3, from: 4, to: 8 }],
    ['  project # tasks ', { kind: 'section', headingLine: 3, from: 4, to: 8 }],
    ['Project#Done', { kind: 'section', headingLine: 7, from: 8, to: 8 }],
    ['Tasks#Done', { kind: 'section', headingLine: 7, from: 8, to: 8 }],
    ['Done', { kind: 'section', headingLine: 7, from: 8, to: 8 }],
    ['Notes', { kind: 'section', headingLine: 9, from: 10, to: 12 }],
    ['Empty', { kind: 'section', headingLine: 13, from: 14, to: 13 }],
    ['Other#Tasks', { kind: 'section', headingLine: 15, from: 16, to: 18 }],
    ['Project#Tasks#Done', { kind: 'section', headingLine: 7, from: 8, to: 8 }],
    ['Setext', { kind: 'section', headingLine: 19, from: 21, to: 21 }],
    ['^t2', { kind: 'block', from: 5, to: 5 }],
    ['^para', { kind: 'block', from: 10, to: 11 }],
  ] as const)('%j', (target, span) => {
    expect(findTarget(note, target)).toEqual(span);
  });

  it.each([
    ['Missing', 'Heading not found: Missing'],
    ['Other#Done', 'Heading not found: Other#Done'],
    ['^nope', 'Heading not found: ^nope'],
    ['^incode', 'Heading not found: ^incode'],
    ['^bad id!', 'Heading not found: ^bad id!'],
    ['#', 'Heading not found: #'],
    ['Tasks', '"Tasks" matches 2 headings in the note; name the one you mean with the heading above it, as Parent#Child.'],
  ])('%j is refused', (target, message) => {
    expect(() => findTarget(note, target)).toThrow(new OutlineTargetError(message));
  });

  it('Parent#Child names the direct child when the name also occurs deeper under Parent', () => {
    const body = '# A\n## X\n## B\n### X\n';
    expect(findTarget(body, 'A#X')).toEqual({ kind: 'section', headingLine: 2, from: 3, to: 2 });
    expect(findTarget(body, 'B#X')).toEqual({ kind: 'section', headingLine: 4, from: 5, to: 4 });
    expect(() => findTarget(body, 'X')).toThrow(new OutlineTargetError('"X" matches 2 headings in the note; name the one you mean with the heading above it, as Parent#Child.'));
    expect(() => findTarget('# A\n## B\n### X\n## C\n### X\n', 'A#X')).toThrow(/matches 2 headings/);
  });

  it('an empty last section ends at the last line', () => {
    expect(findTarget('# A\n', 'A')).toEqual({ kind: 'section', headingLine: 1, from: 2, to: 1 });
    expect(findTarget('# A', 'A')).toEqual({ kind: 'section', headingLine: 1, from: 2, to: 1 });
  });

  it('a block id counts only at the end of its block', () => {
    expect(() => findTarget('para ^x\nlazy continuation\n', '^x')).toThrow(new OutlineTargetError('Heading not found: ^x'));
    expect(findTarget('para ^x\n- item\n', '^x')).toEqual({ kind: 'block', from: 1, to: 1 });
  });

  it('a list item block goes back to its marker line', () => {
    expect(findTarget('para\n\n- item\n  continued ^x\n- next\n', '^x')).toEqual({ kind: 'block', from: 3, to: 4 });
  });
});
