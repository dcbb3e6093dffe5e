import { describe, expect, it } from 'vitest';
import { parseFrontmatter, setFrontmatterKeys, splitFrontmatter } from '../../src/files/frontmatter.js';

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
