import { describe, expect, it } from 'vitest';
import { parseGitLog } from '../../../src/vault/git/git-log-parser.js';

// ---------------------------------------------------------------------------
// parseGitLog on hand-written git output

const Z = '\0';
const blob = (name: string): string => name.padEnd(40, '0');
const NO_BLOB = '0'.repeat(40);

/** One `:old new oldblob newblob status` change and its path(s), as `git log --raw -z` writes them. */
function change(status: string, newBlob: string, ...paths: string[]): string {
  const [oldMode, newMode] = status === 'A' ? ['000000', '100644'] : status === 'D' ? ['100644', '000000'] : ['100644', '100644'];
  return `:${oldMode} ${newMode} ${blob('f')} ${status === 'D' ? NO_BLOB : newBlob} ${status}${Z}${paths.join(Z)}${Z}`;
}

/** A merge's combined line (`-c`) for two parents. */
function combined(status: string, resultBlob: string, file: string): string {
  const resultMode = status === 'DD' ? '000000' : '100644';
  const parentModes = status === 'AA' ? '000000 000000' : '100644 100644';
  return `::${parentModes} ${resultMode} ${blob('e')} ${blob('f')} ${status === 'DD' ? NO_BLOB : resultBlob} ${status}${Z}${file}${Z}`;
}

/** A commit as `--format=%x01%ct -z` writes it: the header, then a newline before a normal commit's first change, an empty field before a merge's. */
function commit(seconds: number, ...changes: string[]): string {
  if (changes.length === 0) return `\x01${seconds}${Z}`;
  const merge = changes[0]?.startsWith('::') ?? false;
  return `\x01${seconds}${Z}${merge ? Z : '\n'}${changes.join('')}`;
}

function tree(entries: Record<string, string>, mode = '100644', type = 'blob'): string {
  return Object.entries(entries)
    .map(([file, id]) => `${mode} ${type} ${id}\t${file}${Z}`)
    .join('');
}

const s = (seconds: number): number => seconds * 1000;

interface ParseCase {
  name: string;
  log: string;
  tree: string;
  prefix?: string;
  /** path → [firstAdded seconds, lastCommit seconds] */
  expected: Record<string, [number, number]>;
}

const parseCases: ParseCase[] = [
  {
    name: 'an add and later edits: first add, last commit',
    log: commit(100, change('A', blob('a1'), 'a.md')) + commit(200, change('M', blob('a2'), 'a.md'), change('A', blob('b1'), 'b.md')) + commit(300, change('M', blob('b2'), 'b.md')),
    tree: tree({ 'a.md': blob('a2'), 'b.md': blob('b2') }),
    expected: { 'a.md': [100, 200], 'b.md': [200, 300] },
  },
  {
    name: 'commits that touch nothing, back to back',
    log: commit(100, change('A', blob('a1'), 'a.md')) + commit(150) + commit(160) + commit(200, change('M', blob('a2'), 'a.md')),
    tree: tree({ 'a.md': blob('a2') }),
    expected: { 'a.md': [100, 200] },
  },
  {
    name: 'a pure rename keeps the first add; the rename is the last commit',
    log: commit(100, change('A', blob('a1'), 'old.md')) + commit(200, change('R100', blob('a1'), 'old.md', 'new.md')),
    tree: tree({ 'new.md': blob('a1') }),
    expected: { 'new.md': [100, 200] },
  },
  {
    name: 'a rename with an edit (similarity score) and a move into a folder',
    log: commit(100, change('A', blob('a1'), 'a.md')) + commit(200, change('R087', blob('a2'), 'a.md', 'dir/b.md')) + commit(300, change('R100', blob('a2'), 'dir/b.md', 'dir/c.md')),
    tree: tree({ 'dir/c.md': blob('a2') }),
    expected: { 'dir/c.md': [100, 300] },
  },
  {
    name: 'deleted and added again at the same path keeps the first add',
    log: commit(100, change('A', blob('a1'), 'a.md')) + commit(200, change('D', NO_BLOB, 'a.md')) + commit(300, change('A', blob('a1'), 'a.md')),
    tree: tree({ 'a.md': blob('a1') }),
    expected: { 'a.md': [100, 300] },
  },
  {
    name: 'a new file where one was renamed away from is a new file',
    log: commit(100, change('A', blob('u1'), 'Untitled.md')) + commit(200, change('R100', blob('u1'), 'Untitled.md', 'Idea.md')) + commit(300, change('A', blob('u2'), 'Untitled.md')),
    tree: tree({ 'Idea.md': blob('u1'), 'Untitled.md': blob('u2') }),
    expected: { 'Idea.md': [100, 200], 'Untitled.md': [300, 300] },
  },
  {
    name: 'a copy is a new file',
    log: commit(100, change('A', blob('a1'), 'a.md')) + commit(200, change('C075', blob('b1'), 'a.md', 'b.md')),
    tree: tree({ 'a.md': blob('a1'), 'b.md': blob('b1') }),
    expected: { 'a.md': [100, 100], 'b.md': [200, 200] },
  },
  {
    name: 'a merge: side-branch commits keep their own times; a conflict resolution is the merge',
    log:
      commit(100, change('A', blob('a1'), 'a.md'), change('A', blob('k1'), 'keep.md')) +
      commit(200, change('A', blob('s1'), 'side.md'), change('M', blob('k2'), 'keep.md')) + // side branch
      commit(250, change('M', blob('a2'), 'a.md')) + // side branch
      commit(300, change('M', blob('a3'), 'a.md')) + // main
      commit(400, combined('MM', blob('a4'), 'a.md')),
    tree: tree({ 'a.md': blob('a4'), 'side.md': blob('s1'), 'keep.md': blob('k2') }),
    expected: { 'a.md': [100, 400], 'side.md': [200, 200], 'keep.md': [100, 200] },
  },
  {
    name: 'a merge that adds a file or removes one itself',
    log: commit(100, change('A', blob('a1'), 'a.md'), change('A', blob('g1'), 'gone.md')) + commit(200, change('M', blob('a2'), 'a.md')) + commit(300, combined('AA', blob('n1'), 'new.md'), combined('DD', NO_BLOB, 'gone.md')),
    tree: tree({ 'a.md': blob('a2'), 'new.md': blob('n1') }),
    expected: { 'a.md': [100, 200], 'new.md': [300, 300] },
  },
  {
    name: 'the same path added on two branches: the earlier add',
    log: commit(100, change('A', blob('x1'), 'x.md')) + commit(200, change('A', blob('x2'), 'x.md')) + commit(300, combined('MM', blob('x3'), 'x.md')),
    tree: tree({ 'x.md': blob('x3') }),
    expected: { 'x.md': [100, 300] },
  },
  {
    name: 'both branches edited; the merge took the earlier edit, which stays the last commit',
    log: commit(100, change('A', blob('a1'), 'a.md')) + commit(200, change('M', blob('a2'), 'a.md')) + commit(300, change('M', blob('a3'), 'a.md')) + commit(400),
    tree: tree({ 'a.md': blob('a2') }),
    expected: { 'a.md': [100, 200] },
  },
  {
    name: 'deleted on one branch, still edited on the other and kept by the merge',
    log: commit(100, change('A', blob('a1'), 'a.md')) + commit(200, change('D', NO_BLOB, 'a.md')) + commit(300, change('M', blob('a2'), 'a.md')) + commit(400),
    tree: tree({ 'a.md': blob('a2') }),
    expected: { 'a.md': [100, 300] },
  },
  {
    name: 'renamed on one branch while the other still edits the old path',
    log: commit(100, change('A', blob('a1'), 'a.md')) + commit(200, change('R100', blob('a1'), 'a.md', 'b.md')) + commit(300, change('M', blob('a2'), 'a.md')) + commit(400),
    tree: tree({ 'a.md': blob('a2'), 'b.md': blob('a1') }),
    expected: { 'a.md': [100, 300], 'b.md': [100, 200] },
  },
  {
    name: 'content changed back to an earlier version: the change back is the last commit',
    log: commit(100, change('A', blob('a1'), 'a.md')) + commit(200, change('M', blob('a2'), 'a.md')) + commit(300, change('M', blob('a1'), 'a.md')),
    tree: tree({ 'a.md': blob('a1') }),
    expected: { 'a.md': [100, 300] },
  },
  {
    name: 'a skewed committer clock: created is never after the last commit',
    log: commit(500, change('A', blob('a1'), 'a.md')) + commit(400, change('M', blob('a2'), 'a.md')),
    tree: tree({ 'a.md': blob('a2') }),
    expected: { 'a.md': [400, 400] },
  },
  {
    name: 'spaces, quotes, a tab, Japanese and accents come through exactly, decomposed names as NFC',
    log: commit(100, change('A', blob('j1'), '日本語 ノート.md'), change('A', blob('q1'), 'say "hi"\tnow.md'), change('A', blob('c1'), 'cafe\u0301 notes.md')),
    tree: tree({ '日本語 ノート.md': blob('j1'), 'say "hi"\tnow.md': blob('q1'), 'cafe\u0301 notes.md': blob('c1') }),
    expected: { '日本語 ノート.md': [100, 100], 'say "hi"\tnow.md': [100, 100], 'café notes.md': [100, 100] },
  },
  {
    name: 'a vault in a folder: keys relative to it, nothing outside, a move in from outside keeps its first add',
    prefix: 'notes/',
    log:
      commit(100, change('A', blob('o1'), 'README.md'), change('A', blob('d1'), 'drafts/plan.md')) +
      commit(200, change('A', blob('n1'), 'notes/a.md')) +
      commit(300, change('R100', blob('d1'), 'drafts/plan.md', 'notes/plan.md')),
    tree: tree({ 'notes/a.md': blob('n1'), 'notes/plan.md': blob('d1') }),
    expected: { 'a.md': [200, 200], 'plan.md': [100, 300] },
  },
  {
    name: 'only notes: no attachments, dot-folders, links or submodules',
    log: commit(100, change('A', blob('a1'), 'a.md'), change('A', blob('p1'), 'pic.png'), change('A', blob('o1'), '.obsidian/x.md'), change('A', blob('l1'), 'link.md')),
    tree: tree({ 'a.md': blob('a1'), 'pic.png': blob('p1'), '.obsidian/x.md': blob('o1') }) + tree({ 'link.md': blob('l1') }, '120000') + tree({ 'sub.md': blob('m1') }, '160000', 'commit'),
    expected: { 'a.md': [100, 100] },
  },
  {
    name: 'a HEAD file the history never shows (a history cut short) gets no dates',
    log: commit(100, change('A', blob('a1'), 'a.md')),
    tree: tree({ 'a.md': blob('a1'), 'unseen.md': blob('u1') }),
    expected: { 'a.md': [100, 100] },
  },
];

describe('parseGitLog', () => {
  it.each(parseCases)('$name', ({ log, tree: lsTree, prefix, expected }) => {
    const files = parseGitLog(log, lsTree, prefix);
    const got = Object.fromEntries([...files].map(([file, dates]) => [file, [dates.firstAddedMs, dates.lastCommitMs]]));
    expect(got).toEqual(Object.fromEntries(Object.entries(expected).map(([file, [first, last]]) => [file, [s(first), s(last)]])));
  });

  it('gives each file its blob at HEAD', () => {
    const files = parseGitLog(commit(100, change('A', blob('a1'), 'a.md')) + commit(200, change('M', blob('a2'), 'a.md')), tree({ 'a.md': blob('a2') }));
    expect(files.get('a.md')?.blob).toBe(blob('a2'));
  });

  it('reads output split anywhere, even inside a character, as it reads it whole', () => {
    const log = Buffer.from(commit(100, change('A', blob('j1'), 'ノート.md')) + commit(200, change('R100', blob('j1'), 'ノート.md', '日本/ノート.md')), 'utf8');
    const lsTree = Buffer.from(tree({ '日本/ノート.md': blob('j1') }), 'utf8');
    const whole = parseGitLog(log, lsTree);
    expect(whole.get('日本/ノート.md')).toEqual({ firstAddedMs: s(100), lastCommitMs: s(200), blob: blob('j1') });
    const bytes = (buffer: Buffer): Uint8Array[] => [...buffer].map((byte) => Uint8Array.of(byte));
    expect(parseGitLog(bytes(log), bytes(lsTree))).toEqual(whole);
  });

  it.each([
    ['a field that is neither a commit nor a change', 'garbage'],
    ['a change line with missing fields', `\x01100${Z}\n:100644 A${Z}a.md${Z}`],
    ['output that ends inside a rename', `\x01100${Z}\n:100644 100644 ${blob('a')} ${blob('b')} R100${Z}a.md${Z}`],
    ['a commit time that is not a number', `\x01soon${Z}`],
  ])('throws on %s', (_what, log) => {
    expect(() => parseGitLog(log, tree({ 'a.md': blob('a') }))).toThrow();
  });
});
