import { describe, expect, it } from 'vitest';
import { FrontmatterLayoutError, joinNote, setFrontmatterKeys } from '../../src/format/frontmatter-edit.js';
import { parseFrontmatter, splitFrontmatter } from '../../src/format/frontmatter.js';

describe('splitFrontmatter', () => {
  it.each([
    ['---\na: 1\n---\nbody', 'a: 1\n', 'body'],
    ['---\r\na: 1\r\n---\r\nbody', 'a: 1\r\n', 'body'],
    ['---\n---\nbody', '', 'body'],
    ['---\na: 1\n...\nbody', 'a: 1\n', 'body'],
    ['---\na: 1\n---', 'a: 1\n', ''],
    ['no block', null, 'no block'],
    ['---\nnever closed\n', null, '---\nnever closed\n'],
    [' ---\na: 1\n---\n', null, ' ---\na: 1\n---\n'],
    ['\uFEFF---\na: 1\n---\nbody', 'a: 1\n', 'body'],
  ])('%j', (source, yaml, body) => {
    const split = splitFrontmatter(source);
    expect(split.yaml).toBe(yaml);
    expect(split.body).toBe(body);
  });
});

describe('parseFrontmatter', () => {
  it.each([
    ['a: 1\n', true],
    ['', true],
    ['tags: [unclosed\n', false],
    ['- a list\n', false],
    ['just a string\n', false],
    ['a: 1\na: 2\n', false],
    ['a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n', false],
  ])('%j ok=%s', (yaml, ok) => {
    expect(parseFrontmatter(yaml).ok).toBe(ok);
  });

  it('keeps dates as strings', () => {
    const parsed = parseFrontmatter('created: 2026-07-14T09:12:00+00:00\n');
    expect(parsed).toEqual({ ok: true, data: { created: '2026-07-14T09:12:00+00:00' } });
  });
});

describe('setFrontmatterKeys', () => {
  it.each([
    ['adds a block to a file without one', 'body\n', { id: 'x' }, '---\nid: x\n---\nbody\n'],
    ['puts a new id first', '---\ntitle: T\n---\nbody', { id: 'x' }, '---\nid: x\ntitle: T\n---\nbody'],
    ['appends other new keys', '---\ntitle: T\n---\nbody', { updated: '2026-01-01T00:00:00+00:00' }, '---\ntitle: T\nupdated: 2026-01-01T00:00:00+00:00\n---\nbody'],
    ['replaces a key in place, keeping comments and quoting around it', '---\n# note\ntitle: "T"\nupdated: 2020-01-01\nextra:   [a,  b]\n---\nbody', { updated: '2026-01-01T00:00:00+00:00' }, '---\n# note\ntitle: "T"\nupdated: 2026-01-01T00:00:00+00:00\nextra:   [a,  b]\n---\nbody'],
    ['replaces a block value with its continuation lines', '---\nreview:\n  due: 2020-01-01\n  interval: 1\nafter: 1\n---\n', { review: { due: 'x', interval: 6 } }, '---\nreview:\n  due: x\n  interval: 6\nafter: 1\n---\n'],
    ['replaces a sequence written at the same indentation', '---\ntags:\n- a\n- b\ntitle: T\n---\n', { tags: ['c'] }, '---\ntags:\n  - c\ntitle: T\n---\n'],
    ['removes a key given undefined', '---\na: 1\nb: 2\n---\n', { a: undefined }, '---\nb: 2\n---\n'],
    ['keeps CRLF line endings', '---\r\ntitle: T\r\n---\r\nbody\r\n', { id: 'x', updated: 'u' }, '---\r\nid: x\r\ntitle: T\r\nupdated: u\r\n---\r\nbody\r\n'],
    ['quotes a title YAML would misread', '---\n---\n', { title: 'Q3: plan' }, '---\ntitle: "Q3: plan"\n---\n'],
    ['fills an empty block', '---\n---\nbody', { id: 'x' }, '---\nid: x\n---\nbody'],
  ])('%s', (_name, source, updates, expected) => {
    expect(setFrontmatterKeys(source, updates)).toBe(expected);
  });

  it('never touches the body, even one that looks like frontmatter', () => {
    const source = '---\na: 1\n---\n---\nb: 2\n---\n';
    expect(setFrontmatterKeys(source, { a: 3 })).toBe('---\na: 3\n---\n---\nb: 2\n---\n');
  });

  it('refuses to rewrite broken YAML', () => {
    expect(() => setFrontmatterKeys('---\na: [\n---\n', { id: 'x' })).toThrow(/not valid YAML/);
  });

  it('falls back to the Document API for a key spread over an unusual layout', () => {
    const source = '---\n? title\n: T\n---\n';
    const result = setFrontmatterKeys(source, { title: 'New' });
    expect(parseFrontmatter(splitFrontmatter(result).yaml)).toEqual({ ok: true, data: { title: 'New' } });
  });
});

describe('setFrontmatterKeys keeps the comment on a line it rewrites', () => {
  it.each([
    ['a plain value', '---\ntitle: Foo # why this title\n---\n', { title: 'Bar' }, '---\ntitle: Bar # why this title\n---\n'],
    ['a quoted value keeps its quotes, escaping what it must', '---\ntitle: "Old"\n---\n', { title: 'Say "hi"' }, '---\ntitle: "Say \\"hi\\""\n---\n'],
    ['a double-quoted value, with its two spaces before #', '---\nupdated: "2024-01-01"  # set by hand\n---\n', { updated: '2026-07-14T09:12:00+00:00' }, '---\nupdated: "2026-07-14T09:12:00+00:00"  # set by hand\n---\n'],
    ['a double-quoted value holding #', '---\ntitle: "C# notes" # language\n---\n', { title: 'F# notes' }, '---\ntitle: "F# notes" # language\n---\n'],
    ['a double-quoted value holding " #", without a comment', '---\ntitle: "a # b"\n---\n', { title: 'c' }, '---\ntitle: "c"\n---\n'],
    ['a single-quoted value holding # and an escaped quote', "---\ntitle: 'it''s # no comment' # but this is\n---\n", { title: 'new' }, "---\ntitle: 'new' # but this is\n---\n"],
    ['a single-quoted value holding " #", without a comment', "---\ntitle: 'x # y'\n---\n", { title: 'z' }, "---\ntitle: 'z'\n---\n"],
    ['a plain value with # inside a word', '---\ntitle: a#b\n---\n', { title: 'c' }, '---\ntitle: c\n---\n'],
    ['a tab before #', '---\ntitle: T\t# tabbed\n---\n', { title: 'U' }, '---\ntitle: U\t# tabbed\n---\n'],
    ['a CRLF file', '---\r\ntitle: "a # b"  # why\r\nx: 1\r\n---\r\nbody\r\n', { title: 'new' }, '---\r\ntitle: "new"  # why\r\nx: 1\r\n---\r\nbody\r\n'],
    ['a value that becomes a sequence: the comment on its key line', '---\ntags: a # mine\n---\n', { tags: ['b', 'c'] }, '---\ntags: # mine\n  - b\n  - c\n---\n'],
    ['a value that becomes a block scalar: the comment on its header', '---\nnote: x # c\n---\n', { note: 'two\nlines' }, '---\nnote: |- # c\n  two\n  lines\n---\n'],
    ['a flow mapping replaced by a block one', '---\nreview: {due: x, interval: 1} # flow\n---\n', { review: { due: 'y', interval: 1 } }, '---\nreview: # flow\n  due: y\n  interval: 1\n---\n'],
    ['a sequence, with a comment after its items', '---\ntags: # mine\n  - a\n  # more later\ntitle: T\n---\n', { tags: ['c', 'd'] }, '---\ntags: # mine\n  - c\n  - d\n  # more later\ntitle: T\n---\n'],
    ['a block scalar, whose lines starting with # are text', '---\nnote: |\n  # heading\n  text\n  # last line\ntitle: T\n---\n', { note: 'x' }, '---\nnote: x\ntitle: T\n---\n'],
  ])('%s', (_name, source, updates, expected) => {
    expect(setFrontmatterKeys(source, updates)).toBe(expected);
  });

  it('leaves an unchanged key untouched, quoting and comment included', () => {
    const source = "---\ntitle: 'T'   # kept as typed\nupdated: 2020-01-01\n---\n";
    expect(setFrontmatterKeys(source, { title: 'T', updated: 'u' })).toBe("---\ntitle: 'T'   # kept as typed\nupdated: u\n---\n");
  });
});

describe('setFrontmatterKeys edits a review block key by key', () => {
  const graded = { due: '2026-01-09T00:00:00+00:00', interval: 6, ease: 2.6, repetitions: 2 };
  it.each([
    [
      'keeps comment lines, trailing comments and what follows',
      '---\nreview:\n  due: 2026-01-01T00:00:00+00:00  # first try\n  # keep this comment\n  interval: 1\n  ease: 2.5\n  repetitions: 1\nafter: x # also kept\n---\nbody\n',
      { review: graded },
      '---\nreview:\n  due: 2026-01-09T00:00:00+00:00  # first try\n  # keep this comment\n  interval: 6\n  ease: 2.6\n  repetitions: 2\nafter: x # also kept\n---\nbody\n',
    ],
    [
      'keeps its indentation and header comment, adds missing keys at its end, removes keys no longer there',
      '---\nreview:    # SM-2 state\n    due: a  # first try\n    # keep\n    interval: 1\n    extra: z\ntitle: T\n---\n',
      { review: { due: 'b', interval: 1, ease: 2.5, repetitions: 0 } },
      '---\nreview:    # SM-2 state\n    due: b  # first try\n    # keep\n    interval: 1\n    ease: 2.5\n    repetitions: 0\ntitle: T\n---\n',
    ],
    [
      'keeps CRLF on every line',
      '---\r\nreview:\r\n  due: a # first\r\n  # keep\r\n  interval: 1\r\n---\r\nbody\r\n',
      { review: { due: 'b', interval: 6, ease: 2.5 } },
      '---\r\nreview:\r\n  due: b # first\r\n  # keep\r\n  interval: 6\r\n  ease: 2.5\r\n---\r\nbody\r\n',
    ],
    [
      'keeps a blank line and a comment at the margin inside it',
      '---\nreview:\n  due: x\n\n# at the margin\n  interval: 1\n---\n',
      { review: { due: 'y', interval: 2 } },
      '---\nreview:\n  due: y\n\n# at the margin\n  interval: 2\n---\n',
    ],
    [
      'edits a nested block mapping inside it the same way',
      '---\nreview:\n  due: x\n  history:  # by hand\n    first: a # one\n    last: b\n---\n',
      { review: { due: 'y', history: { first: 'a', last: 'c' } } },
      '---\nreview:\n  due: y\n  history:  # by hand\n    first: a # one\n    last: c\n---\n',
    ],
    [
      'writes an empty object as {} rather than leaving a null',
      '---\nreview:\n  due: x # gone\n---\n',
      { review: {} },
      '---\nreview: {}\n---\n',
    ],
    [
      'replaces a block with an anchor on its key line as a whole',
      '---\nreview: &r\n  due: x\n---\n',
      { review: { due: 'y' } },
      '---\nreview:\n  due: y\n---\n',
    ],
  ])('%s', (_name, source, updates, expected) => {
    expect(setFrontmatterKeys(source, updates)).toBe(expected);
  });

  it('falls back to the Document API, still key by key, for a quoted key', () => {
    const source = '---\n"review":\n  due: x # first\n  # keep\n  interval: 1\n---\n';
    expect(setFrontmatterKeys(source, { review: { due: 'y', interval: 6 } })).toBe('---\n"review":\n  due: y # first\n  # keep\n  interval: 6\n---\n');
  });

  it('falls back to the Document API keeping a trailing comment', () => {
    expect(setFrontmatterKeys('---\n? title\n: T # why\n---\n', { title: 'New' })).toBe('---\ntitle: New # why\n---\n');
  });
});

describe('setFrontmatterKeys adding a key keeps every other byte', () => {
  const lf = "---\n# top comment\ntitle:   'T'   # spaced\ntags: [a,  b]\nreview:\n  due: x # d\n\n  interval: 1\n---\nbody  \n\n";
  const crlf = lf.replace(/\n/g, '\r\n');
  it.each([
    ['LF, a key at the end', lf, { updated: 'u' }, 'updated: u\n', lf.indexOf('---\nbody')],
    ['LF, an id at the start', lf, { id: 'x' }, 'id: x\n', 4],
    ['CRLF, a key at the end', crlf, { updated: 'u' }, 'updated: u\r\n', crlf.indexOf('---\r\nbody')],
    ['CRLF, an id at the start', crlf, { id: 'x' }, 'id: x\r\n', 5],
  ])('%s', (_name, source, updates, line, at) => {
    const result = setFrontmatterKeys(source, updates);
    expect(Buffer.from(result)).toEqual(Buffer.from(source.slice(0, at) + line + source.slice(at)));
  });
});

describe('joinNote: a head and a body that split again into exactly themselves', () => {
  it.each<[string, string, string, '\n' | '\r\n', string]>([
    ['a head ending in its line break', '---\na: 1\n---\n', 'body', '\n', '---\na: 1\n---\nbody'],
    ['a closing fence as the last byte', '---\na: 1\n---', '---\nb: 2\n---\n', '\n', '---\na: 1\n---\n---\nb: 2\n---\n'],
    ['a closing fence and a lone carriage return as the last bytes', '---\r\na: 1\r\n---\r', 'x\r\n', '\r\n', '---\r\na: 1\r\n---\r\nx\r\n'],
    ['a `...` closer as the last bytes', '---\na: 1\n...', 'x', '\n', '---\na: 1\n...\nx'],
    ['an empty body after a last-byte fence', '---\na: 1\n---', '', '\n', '---\na: 1\n---'],
    ['no block, a plain body', '', 'text', '\n', 'text'],
    ['no block, a body that would read as one', '', '---\nshared: true\n---\n', '\n', '---\n---\n---\nshared: true\n---\n'],
    ['no block, a byte-order mark, a body that would read as one', '\uFEFF', '---\r\nx: 1\r\n...\r\n', '\r\n', '\uFEFF---\r\n---\r\n---\r\nx: 1\r\n...\r\n'],
    ['no block, an unclosed fence stays as it is', '', '---\nnever closed\n', '\n', '---\nnever closed\n'],
  ])('%s', (_what, head, body, eol, expected) => {
    const joined = joinNote(head, body, eol);
    expect(joined).toBe(expected);
    expect(splitFrontmatter(joined).body).toBe(body);
  });

  it.each([
    ['a head that still holds a body', '---\na: 1\n---\nbody'],
    ['a head whose YAML holds a fence line', '---\na: 1\n---\nb: 2\n---\n'],
    ['text that is no head', 'plain'],
  ])('refuses %s', (_what, head) => {
    expect(() => joinNote(head, 'x', '\n')).toThrow(FrontmatterLayoutError);
  });
});

describe('setFrontmatterKeys writes values that read back exactly', () => {
  it.each([' \n', '  \t\n', 'a\rb', '---\r\nid: x\n \n', '%%c%%\r\t- item\nattachment: x\n \n', '\u2028---', '\ufeff', '\ud800', '"\'\\'])('%j', (value) => {
    for (const source of ['---\ntitle: Old\n---\nbody', '---\r\ntitle: "Old"\r\n---\r\nbody', "---\ntitle: 'Old' # c\n---\nbody", 'body']) {
      const result = setFrontmatterKeys(source, { title: value });
      const split = splitFrontmatter(result);
      expect(parseFrontmatter(split.yaml)).toEqual({ ok: true, data: { title: value } });
      expect(split.body).toBe('body');
    }
  });

  it('refuses a change that would take the block over the length a block is read at', () => {
    const source = `---\nfiller: ${'x'.repeat(256 * 1024 - 20)}\n---\nbody`;
    expect(() => setFrontmatterKeys(source, { title: 'long enough' })).toThrow(FrontmatterLayoutError);
  });
});
