import { describe, expect, it } from 'vitest';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfm } from 'micromark-extension-gfm';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { appendParagraph, bodyLineEndingOf, endsWithLineBreak, lineEndingOf, replacedBody, withLineEnding } from '../../src/format/body-edit.js';
import { splitFrontmatter } from '../../src/format/frontmatter.js';

describe('lineEndingOf', () => {
  it.each([
    ['', '\n'],
    ['one line', '\n'],
    ['a\nb\n', '\n'],
    ['a\r\nb\r\n', '\r\n'],
    ['a\nb\r\n', '\r\n'],
    ['lone\rcarriage returns\r', '\n'],
    [`${'x'.repeat(5000)}\r\n`, '\n'],
  ])('%j is %j', (content, eol) => {
    expect(lineEndingOf(content)).toBe(eol);
  });

  it('is the ending splitFrontmatter reports', () => {
    for (const content of ['---\r\na: 1\r\n---\r\nbody', '---\na: 1\n---\nbody', 'no block\r\n']) {
      expect(splitFrontmatter(content).eol).toBe(lineEndingOf(content));
    }
  });
});

describe('withLineEnding', () => {
  it.each([
    ['a\nb\n', '\r\n', 'a\r\nb\r\n'],
    ['a\r\nb\r\n', '\n', 'a\nb\n'],
    ['a\r\nb', '\r\n', 'a\r\nb'],
    ['a\r\nb\nc\rd', '\r\n', 'a\r\nb\r\nc\r\nd'],
    ['a\r\nb\nc\rd', '\n', 'a\nb\nc\nd'],
    ['a\r\r\nb', '\n', 'a\n\nb'],
    ['no breaks', '\r\n', 'no breaks'],
    ['a\nb\r\nc\n', '\r', 'a\rb\rc\r'],
    ['a\rb\r', '\r', 'a\rb\r'],
    ['', '\r\n', ''],
  ] as const)('%j with %j', (text, eol, expected) => {
    expect(withLineEnding(text, eol)).toBe(expected);
  });
});

describe('bodyLineEndingOf', () => {
  it.each([
    ['', '\n', '\n'],
    ['a\nb\n', '\n', '\n'],
    ['a\r\nb\r\n', '\r\n', '\r\n'],
    ['old\rmac\r', '\n', '\r'],
    ['one line, no break', '\n', '\n'],
    // A lone CR among LF lines is a stray character, not the note's line ending.
    ['a\rb\nc\n', '\n', '\n'],
    // The frontmatter said CRLF: that is the note's line ending.
    ['a\rb\r', '\r\n', '\r\n'],
    [`${'x'.repeat(5000)}\r`, '\n', '\n'],
  ] as const)('%j in a %j file', (body, fileEol, expected) => {
    expect(bodyLineEndingOf(body, fileEol)).toBe(expected);
  });
});

describe('endsWithLineBreak', () => {
  it.each([
    ['', true],
    ['\uFEFF', true],
    ['a\n', true],
    ['a\r\n', true],
    ['a\r', true],
    ['---\ntitle: T\n---\n', true],
    ['a', false],
    ['---\ntitle: T\n---', false],
    ['a\n  ', false],
  ] as const)('%j: %s', (file, expected) => {
    expect(endsWithLineBreak(file)).toBe(expected);
  });
});

describe('replacedBody', () => {
  it.each([
    ['a note that ended with a line break gets one', 'new a\nnew b', '\n', true, 'new a\nnew b\n'],
    ['in CRLF', 'new a\nnew b', '\r\n', true, 'new a\r\nnew b\r\n'],
    ['in CR alone', 'new a\nnew b', '\r', true, 'new a\rnew b\r'],
    ['exactly one: trailing blank lines dropped', 'text\n\n \n', '\n', true, 'text\n'],
    ['a text that has its one line break keeps it', 'text\r\n', '\r\n', true, 'text\r\n'],
    ['a note without a final line break stays without', 'new a\nnew b\n', '\n', false, 'new a\nnew b'],
    ['without, trailing blank lines dropped too', 'text\n\n', '\r\n', false, 'text'],
    ['the trailing spaces of the last line stay (a hard break)', 'text  ', '\n', true, 'text  \n'],
    ['leading blank lines stay', '\n\ntext', '\n', true, '\n\ntext\n'],
    ['an empty text gives an empty body', '', '\n', true, ''],
    ['a text of blank lines gives an empty body', '\n \n', '\r\n', true, ''],
  ] as const)('%s', (_what, text, eol, finalBreak, expected) => {
    expect(replacedBody(text, eol, finalBreak)).toBe(expected);
  });
});

describe('appendParagraph', () => {
  it.each([
    ['an empty body', '', 'Text', '\n', 'Text\n'],
    ['a body of blank lines', '\n  \n\t\n', 'Text', '\n', 'Text\n'],
    ['a body without a final newline', 'Para', 'Text', '\n', 'Para\n\nText\n'],
    ['a body with a final newline', 'Para\n', 'Text', '\n', 'Para\n\nText\n'],
    ['a body with several trailing blank lines', 'Para\n\n\n  \n\n', 'Text', '\n', 'Para\n\nText\n'],
    ['a last line ending in a hard break', 'Para  \n', 'Text', '\n', 'Para  \n\nText\n'],
    ['a body ending in a list', '- a\n- b', 'Text', '\n', '- a\n- b\n\nText\n'],
    ['a body ending in a list, with a newline', '- a\n- b\n', 'Text', '\n', '- a\n- b\n\nText\n'],
    ['a body ending in a block quote', '> quote', 'Text', '\n', '> quote\n\nText\n'],
    ['a CRLF body', 'Para\r\n', 'Text', '\r\n', 'Para\r\n\r\nText\r\n'],
    ['a CRLF body with trailing blank lines, LF text', 'Para\r\n\r\n\r\n', 'one\ntwo\n\n', '\r\n', 'Para\r\n\r\none\r\ntwo\r\n'],
    ['text with CRLF and trailing newlines in an LF note', 'Para\n', 'one\r\ntwo\r\n\r\n', '\n', 'Para\n\none\ntwo\n'],
    ['text with a stray carriage return', 'Para', 'one\rtwo', '\n', 'Para\n\none\ntwo\n'],
    ['text with leading blank lines', 'Para', '\n \nText', '\n', 'Para\n\nText\n'],
    ['text whose first line is indented (code): the indentation stays', 'Para', '\n    code', '\n', 'Para\n\n    code\n'],
    ['text that begins with a list', 'Para', '- x\n- y\n', '\n', 'Para\n\n- x\n- y\n'],
    ['text that begins with a list, after a list (which it continues)', '- a\n- b\n', '- c', '\n', '- a\n- b\n\n- c\n'],
    ['text of blank lines only: nothing changes', 'Para\n\n', '\n \n', '\n', 'Para\n\n'],
    ['a body ending in an open fence', '```js\nlet a;\n', 'Text', '\n', '```js\nlet a;\n```\n\nText\n'],
    ['a body ending in an open fence, CRLF', '```\r\ncode\r\n', 'Text', '\r\n', '```\r\ncode\r\n```\r\n\r\nText\r\n'],
    ['a body ending in an open fence whose last line is a shorter fence', '~~~~\ncode\n~~~\n', 'Text', '\n', '~~~~\ncode\n~~~\n~~~~\n\nText\n'],
    ['a body ending in an open indented fence', '  ```\n  code', 'Text', '\n', '  ```\n  code\n  ```\n\nText\n'],
    ['a body ending in a closed fence', '```\ncode\n```\n', 'Text', '\n', '```\ncode\n```\n\nText\n'],
    ['a body ending in a closed fence of a list item', '- ```js\n  code\n  ```\n', 'Text', '\n', '- ```js\n  code\n  ```\n\nText\n'],
    ['a body ending in an open fence of a list item', '- ```js\n  code\n', 'Text', '\n', '- ```js\n  code\n  ```\n\nText\n'],
    ['a list item fence ended by the end of its item', '- ```\n  code\n\nafter\n', 'Text', '\n', '- ```\n  code\n\nafter\n\nText\n'],
    ['a backtick line whose info string holds a backtick (no fence)', '``` a`b\n', 'Text', '\n', '``` a`b\n\nText\n'],
    ['a CR-only body', 'old\rmac\r', 'added a\nadded b', '\r', 'old\rmac\r\radded a\radded b\r'],
    ['a CR-only body ending in an open fence', '```\rcode\r', 'Text', '\r', '```\rcode\r```\r\rText\r'],
  ] as const)('%s', (_name, body, text, eol, expected) => {
    expect(appendParagraph(body, text, eol)).toBe(expected);
  });

  /** A Markdown tree without positions, to compare what two texts mean. */
  const tree = (markdown: string): unknown =>
    JSON.parse(
      JSON.stringify(fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }), (key, value: unknown) =>
        key === 'position' ? undefined : value,
      ),
    );
  const childrenOf = (markdown: string): unknown[] => (tree(markdown) as { children: unknown[] }).children;

  // The oracle: remark reads the result as the body's own blocks, unchanged,
  // followed by one paragraph holding the text.
  it.each([
    ['- a\n- b'],
    ['1. a\n2. b\n'],
    ['- a\n\n  continued'],
    ['* [ ] task'],
    ['> quote\n> more'],
    ['| a | b |\n| - | - |\n| 1 | 2 |'],
    ['Para  '],
    ['<div>\nhtml\n</div>'],
    ['```js\nlet a;'],
    ['  ~~~\n  code\n'],
    ['- ```js\n  code\n'],
    ['- a\n  - ```\n    code\n'],
    ['    indented code\n\n\n'],
  ])('%j: the text is a paragraph of its own after the body', (body) => {
    const result = appendParagraph(body, 'Appended *text*.', '\n');
    const paragraph = { type: 'paragraph', children: [{ type: 'text', value: 'Appended ' }, { type: 'emphasis', children: [{ type: 'text', value: 'text' }] }, { type: 'text', value: '.' }] };
    expect(childrenOf(result)).toEqual([...childrenOf(body), paragraph]);
  });
});
