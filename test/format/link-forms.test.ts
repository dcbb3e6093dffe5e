/**
 * The forms a rewritten link takes (issue 30): the shortest end of the
 * target's path that no other note's path ends with, as Obsidian writes it;
 * the full vault path under a boundary (`'full'`); relative, absolute and
 * Markdown forms kept. And the rules of a name asked for by move_note.
 * Pure tables; the tools are in test/tools/rename.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { fileNameProblem } from '../../src/storage/filenames.js';
import { replacementLinkPath, rewriteLinks, uniqueForm, type FormRule } from '../../src/format/link-rewrite.js';
import { resolveLink } from '../../src/format/links.js';
import { askedName, nameTaken, pathHeld } from '../../src/vault/move-target.js';
import type { NoteRecord } from '../../src/vault/note.js';

/** Resolving among `paths`, and the shortest-unique rule over them. */
function world(paths: readonly string[]): { resolve: (linkPath: string, source: string) => string | undefined; unique: FormRule } {
  return {
    resolve: (linkPath, source) => resolveLink(linkPath, source, paths),
    unique: (form, target) => uniqueForm(form, target, paths),
  };
}

const TWO = ['Programming/Language.md', 'Philosophy/Language.md', 'Notes/Source.md'];
const ONE = ['Programming/Language.md', 'Notes/Source.md'];
const NESTED = ['A/B/Name.md', 'C/B/Name.md', 'D/Name.md', 'Notes/Source.md'];
const NESTED_ONE_B = ['A/B/Name.md', 'D/Name.md', 'Notes/Source.md'];

describe('replacementLinkPath: the shortest form that names the note unambiguously in the vault', () => {
  const cases: [string, readonly string[], { linkPath: string; kind: 'wiki' | 'markdown' }, string, string, string | undefined][] = [
    ['a bare name when no other note has it', ONE, { linkPath: 'Old', kind: 'wiki' }, 'Notes/Source.md', 'Programming/Language.md', 'Language'],
    ['the folder when another note has the name (Language/Language)', TWO, { linkPath: 'Old', kind: 'wiki' }, 'Notes/Source.md', 'Programming/Language.md', 'Programming/Language'],
    ['the folder even where the tie-break would pick the target', TWO, { linkPath: 'Old', kind: 'wiki' }, 'Programming/Source.md', 'Programming/Language.md', 'Programming/Language'],
    ['the other one likewise', TWO, { linkPath: 'Old', kind: 'wiki' }, 'Notes/Source.md', 'Philosophy/Language.md', 'Philosophy/Language'],
    ['nested: the two folders when one is shared', NESTED, { linkPath: 'Old', kind: 'wiki' }, 'Notes/Source.md', 'A/B/Name.md', 'A/B/Name'],
    ['nested: one folder when it tells them apart', NESTED_ONE_B, { linkPath: 'Old', kind: 'wiki' }, 'Notes/Source.md', 'A/B/Name.md', 'B/Name'],
    ['nested: the top-level note by its folder', NESTED, { linkPath: 'Old', kind: 'wiki' }, 'Notes/Source.md', 'D/Name.md', 'D/Name'],
    ['.md kept', TWO, { linkPath: 'Old.md', kind: 'wiki' }, 'Notes/Source.md', 'Programming/Language.md', 'Programming/Language.md'],
    ['.md kept on a bare name', ONE, { linkPath: 'Old.md', kind: 'wiki' }, 'Notes/Source.md', 'Programming/Language.md', 'Language.md'],
    ['names compared ignoring case', ['Programming/Language.md', 'philosophy/LANGUAGE.md'], { linkPath: 'Old', kind: 'wiki' }, 'Notes/Source.md', 'Programming/Language.md', 'Programming/Language'],
    ['a note at the top level beside a same-name one', ['Language.md', 'Philosophy/Language.md'], { linkPath: 'Old', kind: 'wiki' }, 'Notes/Source.md', 'Language.md', '/Language'],
    ['relative ./ stays relative', TWO, { linkPath: './Old', kind: 'wiki' }, 'Programming/Source.md', 'Programming/Language.md', './Language'],
    ['relative ../ stays relative', TWO, { linkPath: '../Old', kind: 'wiki' }, 'Notes/Source.md', 'Programming/Language.md', '../Programming/Language'],
    ['absolute stays absolute', ONE, { linkPath: '/Old', kind: 'wiki' }, 'Notes/Source.md', 'Programming/Language.md', '/Programming/Language'],
    ['a Markdown link relative to the linking note', TWO, { linkPath: 'Old.md', kind: 'markdown' }, 'Notes/Source.md', 'Programming/Language.md', '../Programming/Language.md'],
    ['a Markdown link beside it, ./ kept', TWO, { linkPath: './Old.md', kind: 'markdown' }, 'Programming/Source.md', 'Programming/Language.md', './Language.md'],
    ['a vault-absolute Markdown link', TWO, { linkPath: '/Old.md', kind: 'markdown' }, 'Notes/Source.md', 'Programming/Language.md', '/Programming/Language.md'],
  ];
  it.each(cases)('%s', (_what, paths, old, source, target, expected) => {
    const { resolve, unique } = world(paths);
    expect(replacementLinkPath(old, source, target, resolve, unique)).toBe(expected);
  });
});

describe("replacementLinkPath under a boundary ('full'): the target's whole path, whatever other notes there are", () => {
  const cases: [string, readonly string[], string, string, string | undefined][] = [
    ['alone', ONE, 'Notes/Source.md', 'Programming/Language.md', 'Programming/Language'],
    ['beside a same-name note', TWO, 'Notes/Source.md', 'Programming/Language.md', 'Programming/Language'],
    ['nested', NESTED, 'Notes/Source.md', 'A/B/Name.md', 'A/B/Name'],
    ['at the top level', ['Language.md', 'Notes/Source.md'], 'Notes/Source.md', 'Language.md', 'Language'],
    ['absolute when a note beside the linking one would take the path', ['B/Name.md', 'X/B/Name.md', 'X/Source.md'], 'X/Source.md', 'B/Name.md', '/B/Name'],
  ];
  it.each(cases)('%s', (_what, paths, source, target, expected) => {
    expect(replacementLinkPath({ linkPath: 'Old', kind: 'wiki' }, source, target, world(paths).resolve, 'full')).toBe(expected);
  });
});

describe('rewriteLinks: only the link path changes', () => {
  const targets = new Map([['Old', 'Programming/Language.md']]);
  const cases: [string, string, string][] = [
    ['heading and alias kept', 'See [[Old#Part|shown]] now.\n', 'See [[Programming/Language#Part|shown]] now.\n'],
    ['a block reference kept', '[[Old#^abc]]\n', '[[Programming/Language#^abc]]\n'],
    ['an embed', '![[Old]]\n', '![[Programming/Language]]\n'],
    ['a wikilink followed by text', '[[Old]](see here)\n', '[[Programming/Language]](see here)\n'],
    ['a code span left', '`[[Old]]` [[Old]]\n', '`[[Old]]` [[Programming/Language]]\n'],
    ['frontmatter left', '---\nup: "[[Old]]"\n---\n[[Old]]\r\n', '---\nup: "[[Old]]"\n---\n[[Programming/Language]]\r\n'],
  ];
  it.each(cases)('%s', (_what, content, expected) => {
    const { resolve, unique } = world(TWO);
    expect(rewriteLinks(content, 'Notes/Source.md', targets, resolve, unique)).toBe(expected);
  });
});

describe('uniqueForm', () => {
  it.each([
    ['Language', 'Programming/Language.md', TWO, false],
    ['Programming/Language', 'Programming/Language.md', TWO, true],
    ['Language', 'Programming/Language.md', ONE, true],
    ['ramming/Language', 'Programming/Language.md', ['Programming/Language.md', 'Xramming/Language.md'], true],
    ['B/Name.md', 'A/B/Name.md', NESTED, false],
  ] as const)('%s for %s', (form, target, paths, expected) => {
    expect(uniqueForm(form, target, paths)).toBe(expected);
  });
});

describe('the name move_note is asked for', () => {
  it.each([
    ['Budget 2027', undefined],
    ['Café notes', undefined],
    ['Version 1.2', undefined],
    ['', 'it is empty'],
    ['a/b', 'it contains "/", which file names or links cannot hold'],
    ['What? Now: #1', 'it contains "?", ":", "#", which file names or links cannot hold'],
    ['[[x]] | y', 'it contains "[", "]", "|", which file names or links cannot hold'],
    ['tab\there', 'it contains control, invisible or text-direction characters'],
    ['a\u202Eexe', 'it contains control, invisible or text-direction characters'],
    ['.hidden', 'it starts with a dot or a space (a leading dot hides the file from the vault)'],
    ['trailing.', 'it ends with a dot or a space, which Windows drops'],
    ['two  spaces', 'it contains line breaks, tabs, doubled spaces or other spacing than single spaces'],
    ['no\u00a0break', 'it contains line breaks, tabs, doubled spaces or other spacing than single spaces'],
    ['x'.repeat(201), 'it is 201 bytes long, and a file name may be at most 200'],
    ['é'.repeat(101), 'it is 202 bytes long, and a file name may be at most 200'],
    ['CON', '"CON" is a name Windows reserves for a device'],
    ['lpt1.txt', '"lpt1.txt" is a name Windows reserves for a device'],
  ])('%j', (name, expected) => {
    expect(fileNameProblem(name)).toBe(expected);
  });

  it('is taken in NFC, without the spaces around it or a trailing .md; a broken one is refused in a plain sentence', () => {
    expect(askedName('  Cafe\u0301 plan.md ')).toBe('Caf\u00e9 plan');
    expect(askedName('Notes.MD')).toBe('Notes');
    expect(() => askedName('a/b')).toThrow('Cannot rename the note to "a/b": it contains "/", which file names or links cannot hold. Give a name without those, e.g. "Meeting notes 2026-12".');
    expect(() => askedName('x\u202E')).toThrow('Cannot rename the note to "x\\u202E": it contains control, invisible or text-direction characters.');
  });
});

describe('nameTaken: a name another note the connection sees has in the folder', () => {
  const record = (id: string, path: string, title: string, tag = ''): NoteRecord => ({ id, path, title, tags: tag ? [tag] : [] }) as unknown as NoteRecord;
  const notes = [
    record('self', 'A/Plan.md', 'Plan'),
    record('seen', 'B/Plan.md', 'Plan', 'work'),
    record('hidden', 'C/plan.md', 'plan', 'private'),
    record('titled', 'D/Budget.md', 'A long budget title', 'work'),
    record('numbered', 'E/Topic 2.md', 'Topic', 'work'),
    record('under', 'E/Topic.md', 'Topic', 'private'),
  ];
  const sees = (r: NoteRecord): boolean => !r.tags.includes('private');
  it.each([
    ['its own name, in another case', 'plan', 'A/plan.md', undefined, false],
    ['a seen note\'s name, in any case', 'PLAN', 'B/PLAN.md', sees, true],
    ['a hidden note\'s name, under a boundary', 'Plan', 'C/Plan.md', sees, false],
    ['a hidden note\'s name, unbounded (every note seen)', 'Plan', 'C/Plan.md', undefined, true],
    ['a free folder', 'Plan', 'F/Plan.md', undefined, false],
    ['a seen note\'s title', 'a long BUDGET title', 'D/a long BUDGET title.md', sees, true],
    ['a file name whose note has another title: unbounded', 'Budget', 'D/Budget.md', undefined, true],
    ['a file name whose note has another title: bounded, titles only', 'Budget', 'D/Budget.md', sees, false],
    ['a numbered seen note\'s title', 'topic', 'E/topic.md', sees, true],
    ['a numbered seen note\'s file name: bounded, titles only', 'Topic 2', 'E/Topic 2.md', sees, false],
  ] as const)('%s', (_what, name, toPath, visible, expected) => {
    expect(nameTaken(name, toPath, 'self', notes, visible)).toBe(expected);
  });

  it('pathHeld: another note at the path in any case numbers a move', () => {
    expect(pathHeld('C/PLAN.md', 'self', notes)).toBe(true);
    expect(pathHeld('A/PLAN.md', 'self', notes)).toBe(false);
    expect(pathHeld('F/Plan.md', 'self', notes)).toBe(false);
  });
});
