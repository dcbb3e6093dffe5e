import { describe, expect, it } from 'vitest';
import { extractLinks } from '../../src/format/markdown.js';
import { linkKey, linkPathOfDestination, linkPathOfWikilink, resolveLink } from '../../src/format/links.js';

describe('extractLinks: which spans of a body are note links, and their link paths', () => {
  const cases: [string, string, string[]][] = [
    ['a wikilink', 'See [[Other note]].', ['Other note']],
    ['with a folder', '[[Projects/Alpha/Plan]]', ['Projects/Alpha/Plan']],
    ['with .md', '[[Plan.md]]', ['Plan.md']],
    ['to a heading', '[[Plan#Next steps]]', ['Plan']],
    ['to a block', '[[Plan#^a1b2c3]] and [[Other^blockid]]', ['Plan', 'Other']],
    ['shown under another name', '[[Plan|the plan]]', ['Plan']],
    ['heading and alias', '[[Folder/Plan#Part|here]]', ['Folder/Plan']],
    ['an escaped bar in a table', '| a | b |\n|---|---|\n| [[Plan\\|the plan]] | x |', ['Plan']],
    ['an embed', '![[Diagram note]]', ['Diagram note']],
    ['an embedded attachment is no note link', '![[photo.png]] ![[paper.PDF]] [[board.canvas]]', []],
    ['a dotted name is a note', '[[Version 1.2]]', ['Version 1.2']],
    ['a link to the note itself', '[[#Heading]] [[^block]]', []],
    ['each once, in order', '[[B]] [[A]] [[B|again]] [[A#x]]', ['B', 'A']],
    ['a Markdown link to a note', '[the plan](Plan.md)', ['Plan.md']],
    ['URL-encoded', '[x](Projects/Big%20Plan.md)', ['Projects/Big Plan.md']],
    ['in angle brackets', '[x](<Projects/Big Plan.md>)', ['Projects/Big Plan.md']],
    ['relative', '[up](../Other.md) [here](./Same.md)', ['../Other.md', './Same.md']],
    ['vault-absolute', '[x](/Projects/Plan.md)', ['/Projects/Plan.md']],
    ['with a fragment and a title', '[x](Plan.md#part "Title")', ['Plan.md']],
    ['an image of a note', '![x](Plan.md)', ['Plan.md']],
    ['web links are not note links', '[x](https://example.com/Plan.md) [y](obsidian://open?file=Plan) [z](#part) <https://a.io>', []],
    ['other files are not note links', '[x](paper.pdf) [y](notes.txt)', []],
    ['a code span', 'Type `[[Not a link]]` to link.', []],
    ['a fenced block', '```\n[[Not a link]]\n[x](No.md)\n```\nafter [[Real]]', ['Real']],
    ['an indented block', 'para\n\n    [[Not a link]]\n', []],
    ['a comment', 'a %%[[Hidden]]%% b', []],
    ['a comment across lines', '%%\n[[Hidden]]\n%%\n[[Shown]]', ['Shown']],
    ['an HTML block', '<div>\n[[In html]]\n</div>', []],
    ['a wikilink cannot span lines', '[[One\nTwo]]', []],
    ['[[x]](text) is a wikilink followed by text', '[[x]](https://example.com) [[y]](Other.md) [[z]] (w.md)', ['x', 'y', 'z']],
    ['in a block quote and a list', '> quoted [[Q]]\n- item [[L]]\n  1. nested [[N]]', ['Q', 'L', 'N']],
    ['in a heading', '# About [[Topic]]', ['Topic']],
    ['Unicode, NFC', '[[Cafe\u0301]]', ['Caf\u00e9']],
  ];
  it.each(cases)('%s', (_what, body, expected) => {
    expect(extractLinks(body)).toEqual(expected);
  });
});

describe('link paths of a target or destination', () => {
  it.each([
    ['Plan', 'Plan'],
    ['  Plan  ', 'Plan'],
    ['Plan|alias', 'Plan'],
    ['Folder\\Plan', 'Folder/Plan'],
    ['', undefined],
    ['Folder/', undefined],
  ])('wikilink %j', (inner, expected) => {
    expect(linkPathOfWikilink(inner)).toBe(expected);
  });
  it.each([
    ['Plan.md', 'Plan.md'],
    ['Plan.MD', 'Plan.MD'],
    ['a%2Fb.md', 'a/b.md'],
    ['100%.md', '100%.md'],
    ['Plan', undefined],
    ['mailto:x@y.z', undefined],
    ['Big\\(1\\).md', 'Big(1).md'],
  ])('destination %j', (dest, expected) => {
    expect(linkPathOfDestination(dest)).toBe(expected);
  });
});

describe('resolveLink: which note a link path stands for', () => {
  const notes = [
    'Plan.md',
    'Projects/Plan.md',
    'Projects/Alpha/Plan.md',
    'Archive/Plan.md',
    'Projects/Alpha/Notes.md',
    'Inbox/Idea.md',
    'Deep/A/B/Idea.md',
    'Café.md',
    'Mixed/Case Name.md',
    'Mixed/case name.md',
  ];
  const cases: [string, string, string, string | undefined][] = [
    ['a bare name from the root', 'Plan', 'Index.md', 'Plan.md'],
    ['a bare name prefers the linking note\'s folder', 'Plan', 'Projects/Alpha/Notes.md', 'Projects/Alpha/Plan.md'],
    ['else the closest folder', 'Plan', 'Projects/Beta/X.md', 'Projects/Plan.md'],
    ['closest from a sibling of Archive', 'Plan', 'Archive/Sub/X.md', 'Archive/Plan.md'],
    ['ties go to the shorter path', 'Idea', 'Other/X.md', 'Inbox/Idea.md'],
    ['a folder-qualified name', 'Alpha/Plan', 'Index.md', 'Projects/Alpha/Plan.md'],
    ['a full path', 'Archive/Plan', 'Projects/Alpha/Notes.md', 'Archive/Plan.md'],
    ['with .md', 'Projects/Plan.md', 'X.md', 'Projects/Plan.md'],
    ['relative to the linking note', 'Alpha/Plan', 'Projects/X.md', 'Projects/Alpha/Plan.md'],
    ['in any case', 'projects/alpha/PLAN', 'X.md', 'Projects/Alpha/Plan.md'],
    ['exact case wins over a look-alike', 'case name', 'Mixed/X.md', 'Mixed/case name.md'],
    ['exact case wins over a look-alike (2)', 'Case Name', 'Mixed/X.md', 'Mixed/Case Name.md'],
    ['NFC and NFD are one name', 'Cafe\u0301', 'X.md', 'Café.md'],
    ['./ is relative', './Plan', 'Projects/X.md', 'Projects/Plan.md'],
    ['../ is relative', '../Plan.md', 'Projects/Alpha/Notes.md', 'Projects/Plan.md'],
    ['relative only', './Idea', 'Projects/X.md', undefined],
    ['above the root', '../../Plan', 'Projects/X.md', undefined],
    ['/ is vault-absolute', '/Plan', 'Projects/Alpha/Notes.md', 'Plan.md'],
    ['absolute only', '/Alpha/Plan', 'X.md', undefined],
    ['no such note', 'Missing', 'X.md', undefined],
    ['a partial name is no match', 'lan', 'X.md', undefined],
    ['a partial folder is no match', 'pha/Plan', 'X.md', undefined],
  ];
  it.each(cases)('%s', (_what, link, source, expected) => {
    const candidates = notes.filter((note) => linkKey(note) === linkKey(link));
    expect(resolveLink(link, source, candidates)).toBe(expected);
    // Candidates beyond the link's key never change the answer.
    expect(resolveLink(link, source, notes)).toBe(expected);
  });
});
