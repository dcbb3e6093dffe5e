import { describe, expect, it } from 'vitest';
import { checkProperties, PROPERTY_LIMITS, propertiesOf, propertiesOfContent, withProperties, type PropertyValue } from '../../src/vault/properties.js';
import { parseFrontmatter, splitFrontmatter } from '../../src/format/frontmatter.js';

const NOW = new Date('2026-12-02T10:30:00Z');

/** set_properties on `content`, as the tool asks for it (null removes a key). */
function set(content: string, properties: Record<string, PropertyValue>): string | undefined {
  return withProperties(content, checkProperties(properties), NOW)?.content;
}

describe('withProperties: only the lines of the keys asked for change, byte for byte', () => {
  // [what, before, properties, after]
  const cases: [string, string, Record<string, PropertyValue>, string][] = [
    ['a new key goes at the end', '---\nid: x\nstatus: draft\n---\nBody\n', { done: true }, '---\nid: x\nstatus: draft\ndone: true\n---\nBody\n'],
    ['a changed key keeps its place', '---\na: 1\nb: 2\nc: 3\n---\n', { b: 20 }, '---\na: 1\nb: 20\nc: 3\n---\n'],
    ['comments above, between and after keys stay', '---\n# top\na: 1\n# about b\nb: 2\n# end\n---\n', { b: 3, c: 'x' }, '---\n# top\na: 1\n# about b\nb: 3\n# end\nc: x\n---\n'],
    ['a trailing comment stays on a changed line', '---\nstatus: draft # keep me\n---\n', { status: 'done' }, '---\nstatus: done # keep me\n---\n'],
    ['double quotes stay double', '---\nstatus: "draft"\nother: \'x\'\n---\n', { status: 'done' }, '---\nstatus: "done"\nother: \'x\'\n---\n'],
    ['single quotes stay single', '---\nstatus: \'draft\'\nother: "x"\n---\n', { status: 'done' }, '---\nstatus: \'done\'\nother: "x"\n---\n'],
    ['plain stays plain', '---\nstatus: draft\n---\n', { status: 'in review' }, '---\nstatus: in review\n---\n'],
    ['text that would read as another type is quoted', '---\na: 1\n---\n', { b: '12', c: 'true', d: '2026-12-02' }, '---\na: 1\nb: "12"\nc: "true"\nd: 2026-12-02\n---\n'],
    ['removing a key with a comment on its line leaves the others', '---\na: 1 # one\nb: 2 # two\n---\nBody\n', { a: null }, '---\nb: 2 # two\n---\nBody\n'],
    ['removing a key keeps the comment line above the next key', '---\na: 1\n# about b\nb: 2\n---\n', { a: null }, '---\n# about b\nb: 2\n---\n'],
    ['removing a block list', '---\ntags:\n  - a\n  - b\nz: 1\n---\n', { tags: null }, '---\nz: 1\n---\n'],
    ['removing a block list at its key\'s indentation', '---\ntags:\n- a\n- b\nz: 1\n---\n', { tags: null }, '---\nz: 1\n---\n'],
    ['removing a flow list over two lines', '---\nc: [x,\n  y]\nd: 1\n---\n', { c: null }, '---\nd: 1\n---\n'],
    ['removing a multi-line value', '---\nm: |\n  line one\n  line two\nz: 1\n---\n', { m: null }, '---\nz: 1\n---\n'],
    ['removing the last key leaves an empty block', '---\nonly: 1\n---\nBody\n', { only: null }, '---\n---\nBody\n'],
    ['removing every key but id', '---\nid: x\na: 1\nb: [1, 2]\n---\n', { a: null, b: null }, '---\nid: x\n---\n'],
    ['a flow list stays a flow list', '---\ntags: [a, b] # mine\nz: 1\n---\n', { tags: ['a', 'b', 'c d', 'e, f'] }, '---\ntags: [a, b, c d, "e, f"] # mine\nz: 1\n---\n'],
    ['a block list stays a block list', '---\ntags:\n  - a\nz: 1\n---\n', { tags: ['a', 2] }, '---\ntags:\n  - a\n  - 2\nz: 1\n---\n'],
    ['a flow list over two lines becomes a block list', '---\ntags: [a,\n  b]\nz: 1\n---\n', { tags: ['c'] }, '---\ntags:\n  - c\nz: 1\n---\n'],
    ['text replacing a flow list', '---\ntags: [a, b]\n---\n', { tags: 'solo' }, '---\ntags: solo\n---\n'],
    ['numbers in a list', '---\n---\n', { scores: [1, 2.5, 'x'] }, '---\nscores:\n  - 1\n  - 2.5\n  - x\n---\n'],
    ['CRLF lines stay CRLF', '---\r\nid: x\r\na: 1 # c\r\nm: |\r\n  l1\r\n  l2\r\nz: 1\r\n---\r\nBody\r\n', { m: null, n: 3 }, '---\r\nid: x\r\na: 1 # c\r\nz: 1\r\nn: 3\r\n---\r\nBody\r\n'],
    ['a note without frontmatter gets one', 'Body\n', { status: 'todo' }, '---\nstatus: todo\n---\nBody\n'],
    ['an empty note gets one', '', { status: 'todo' }, '---\nstatus: todo\n---\n'],
    ['an empty block', '---\n---\nBody\n', { n: [1, 2] }, '---\nn:\n  - 1\n  - 2\n---\nBody\n'],
    ['a byte-order mark stays first', '\uFEFFBody\n', { n: 3 }, '\uFEFF---\nn: 3\n---\nBody\n'],
    ['a byte-order mark before a block', '\uFEFF---\na: 1\n---\nBody\n', { a: 2 }, '\uFEFF---\na: 2\n---\nBody\n'],
    ['a body that begins with a fence stays body', '---\n---\n---\nnot: frontmatter\n---\n', { a: 1 }, '---\na: 1\n---\n---\nnot: frontmatter\n---\n'],
    ['a body without a final line break', '---\na: 1\n---\nlast line', { a: 2 }, '---\na: 2\n---\nlast line'],
    ['text with a line break becomes a block scalar that reads back', '---\na: 1\n---\n', { note: 'one\ntwo' }, '---\na: 1\nnote: |-\n  one\n  two\n---\n'],
    ['a key that needs quoting', '---\na: 1\n---\n', { 'due date': '2026-12-10', 'a: b': 1 }, '---\na: 1\ndue date: 2026-12-10\n"a: b": 1\n---\n'],
    ['the review block and its comments are left alone', '---\nid: x\nreview:\n  # sm2\n  due: 2026-12-01\nz: 1\n---\n', { z: 2 }, '---\nid: x\nreview:\n  # sm2\n  due: 2026-12-01\nz: 2\n---\n'],
  ];
  it.each(cases)('%s', (_what, before, properties, after) => {
    expect(set(before, properties)).toBe(after);
  });

  it('writes nothing when no key would change', () => {
    expect(set('---\na: 1\nb: [x, y]\ns: "t"\n---\n', { a: 1, b: ['x', 'y'], s: 't', gone: null })).toBeUndefined();
    expect(set('Body\n', { absent: null })).toBeUndefined();
  });

  it('stamps the note\'s own updated key, the way it writes it, unless the call sets or removes it', () => {
    expect(set('---\nupdated: 2026-11-20T08:00:00+00:00\na: 1\n---\n', { a: 2 })).toBe('---\nupdated: 2026-12-02T10:30:00+00:00\na: 2\n---\n');
    // A date alone stays a date alone (in the server's time zone, as update_note writes it).
    expect(set('---\nmodified: 2026-11-20\na: 1\n---\n', { a: 2 })).toMatch(/^---\nmodified: 2026-12-0[23]\na: 2\n---\n$/);
    expect(set('---\nupdated: 2026-11-20\na: 1\n---\n', { updated: '2026-01-01' })).toBe('---\nupdated: 2026-01-01\na: 1\n---\n');
    expect(set('---\nupdated: 2026-11-20\na: 1\n---\n', { updated: null })).toBe('---\na: 1\n---\n');
    // No updated key is added to a note that had none.
    expect(set('---\na: 1\n---\n', { a: 2 })).toBe('---\na: 2\n---\n');
  });

  it('gives the frontmatter and body after the edit, for the tag guard', () => {
    const edited = withProperties('---\ntags: [a, b]\n---\nText #c\n', checkProperties({ tags: ['a'] }), NOW);
    expect(edited?.data).toEqual({ tags: ['a'] });
    expect(edited?.body).toBe('Text #c\n');
  });

  it('reads back as exactly what was asked, whatever the text', () => {
    const tricky = ['', ' ', 'a: b', '- x', '# not a comment', '"quoted"', "it's", 'line\r\nbreak', '\u2028', 'null', '~', '0x10', '1e3', '@at', '`tick`', '[x]', '{y}', 'trailing ', '\ttab'];
    for (const value of tricky) {
      for (const source of ['---\nk: old # c\nz: 1\n---\nB\n', '---\r\nk: "old"\r\n---\r\nB\r\n', 'B\n']) {
        const out = set(source, { k: value }) as string;
        const split = splitFrontmatter(out);
        const parsed = parseFrontmatter(split.yaml);
        expect(parsed.ok && parsed.data.k, JSON.stringify([source, value])).toBe(value);
        expect(split.body, JSON.stringify([source, value])).toBe(splitFrontmatter(source).body);
      }
    }
  });

  it('refuses a note whose frontmatter is not valid YAML', () => {
    expect(() => set('---\na: [\n---\n', { a: 1 })).toThrow(/not valid YAML/);
  });
});

describe('checkProperties: plain refusals, and null as removal', () => {
  it('maps null to a removal and keeps the rest', () => {
    expect(checkProperties({ a: 'x', b: 1, c: false, d: ['x', 2], e: null })).toEqual({ a: 'x', b: 1, c: false, d: ['x', 2], e: undefined });
  });

  const long = (n: number): string => 'x'.repeat(n);
  const refusals: [string, Record<string, PropertyValue>, RegExp][] = [
    ['nothing asked', {}, /at least one property/],
    ['id', { id: 'y' }, /id is the note's identity/],
    ['id removed', { id: null }, /id is the note's identity/],
    ['review', { review: null }, /grade_review/],
    ['attachment', { attachment: 'Photos/me.jpg' }, /delete_note removes it/],
    ['an empty name', { '': 1 }, /must not be empty/],
    ['a blank name', { '  ': 1 }, /must not be empty/],
    ['a name with a line break', { 'a\nb': 1 }, /line break or a control character/],
    ['a long name', { [long(PROPERTY_LIMITS.keyLength + 1)]: 1 }, /at most 200 characters/],
    ['too many keys', Object.fromEntries(Array.from({ length: PROPERTY_LIMITS.keys + 1 }, (_, i) => [`k${i}`, i])), /at most 50 properties/],
    ['long text', { a: long(PROPERTY_LIMITS.textLength + 1) }, /at most 5,000 characters/],
    ['a long list', { a: Array.from({ length: PROPERTY_LIMITS.listItems + 1 }, (_, i) => i) }, /at most 100 items/],
    ['a long item', { a: [long(PROPERTY_LIMITS.itemLength + 1)] }, /Each item of the property a/],
    ['not finite', { a: Number.NaN }, /finite number/],
    ['too much in all', Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, long(5_000)])), /at most 50,000 characters in all/],
  ];
  it.each(refusals)('refuses %s', (_what, properties, message) => {
    expect(() => checkProperties(properties)).toThrow(message);
  });

  it('takes values at the limits', () => {
    expect(() => checkProperties({ [long(PROPERTY_LIMITS.keyLength)]: long(PROPERTY_LIMITS.textLength) })).not.toThrow();
    expect(() => checkProperties({ a: Array.from({ length: PROPERTY_LIMITS.listItems }, () => long(400)) })).not.toThrow();
    expect(() => checkProperties({ a: [long(PROPERTY_LIMITS.itemLength)] })).not.toThrow();
  });
});

describe('propertiesOf: every key but id and review, as written', () => {
  const cases: [string, string, Record<string, unknown> | undefined][] = [
    ['dates stay text', '---\nid: x\ncreated: 2026-11-20\nat: 2026-11-20T08:00:00+00:00\n---\n', { created: '2026-11-20', at: '2026-11-20T08:00:00+00:00' }],
    ['types as YAML gives them, in order', '---\nb: true\nn: 3\nl: [a, 1]\ns: "12"\nnone:\n---\n', { b: true, n: 3, l: ['a', 1], s: '12', none: null }],
    ['review and id left out', '---\nid: x\nreview:\n  due: 2026-12-01\nkeep: 1\n---\n', { keep: 1 }],
    ['title left out: the note\'s own title gives it', '---\ntitle: Big plan\nkeep: 1\n---\n', { keep: 1 }],
    ['nested values as JSON', '---\nm:\n  a: 1\n  b: [x]\n---\n', { m: { a: 1, b: ['x'] } }],
    ['an explicit timestamp becomes its ISO text', '---\nt: !!timestamp 2026-11-20\n---\n', { t: '2026-11-20T00:00:00.000Z' }],
    ['no frontmatter', 'Body\n', {}],
    ['broken frontmatter', '---\na: [\n---\n', undefined],
  ];
  it.each(cases)('%s', (_what, content, expected) => {
    expect(propertiesOfContent(content)).toEqual(expected);
    if (expected) expect(Object.keys(propertiesOfContent(content) ?? {})).toEqual(Object.keys(expected));
  });

  it('takes a key named __proto__ as any other key', () => {
    const shown = propertiesOf(JSON.parse('{"__proto__": 1, "a": 2}') as Record<string, unknown>);
    expect(JSON.stringify(shown)).toBe('{"__proto__":1,"a":2}');
  });
});
