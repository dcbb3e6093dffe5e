import { mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { firstRootFolder, rootCandidates, type RootCandidate } from '../../src/cli/roots.js';
import { removeDir, tempDir } from '../support/helpers.js';

/**
 * The vault taken from a client's roots (issue 34): which folder each root
 * names (pure), and which of them is served (the first that passes the
 * checks --vault passes).
 */

describe('rootCandidates: the folder a root names, or why it names none', () => {
  const cases: [string, RootCandidate][] = [
    ['file:///home/me/Notes', { uri: 'file:///home/me/Notes', path: '/home/me/Notes' }],
    ['file:///home/me/Notes/', { uri: 'file:///home/me/Notes/', path: '/home/me/Notes/' }],
    ['file:///home/me/My%20Notes', { uri: 'file:///home/me/My%20Notes', path: '/home/me/My Notes' }],
    ['file:///home/me/Caf%C3%A9', { uri: 'file:///home/me/Caf%C3%A9', path: '/home/me/Café' }],
    ['file:///home/me/%23ideas', { uri: 'file:///home/me/%23ideas', path: '/home/me/#ideas' }],
    ['file://localhost/home/me/Notes', { uri: 'file://localhost/home/me/Notes', path: '/home/me/Notes' }],
    ['FILE:///home/me/Notes', { uri: 'FILE:///home/me/Notes', path: '/home/me/Notes' }],
    // A Windows client's drive path is, here, a POSIX path like any other (and most likely missing).
    ['file:///C:/Users/me/Notes', { uri: 'file:///C:/Users/me/Notes', path: '/C:/Users/me/Notes' }],
    ['file://server/share/Notes', { uri: 'file://server/share/Notes', skipped: 'it names a folder on another machine (server)' }],
    ['file:///home/me/a%2Fb', { uri: 'file:///home/me/a%2Fb', skipped: 'its path holds an escaped / (%2F), which names no single folder' }],
    ['file:///home/me/a%00b', { uri: 'file:///home/me/a%00b', skipped: 'its path holds a NUL character' }],
    ['file:///home/me/#ideas', { uri: 'file:///home/me/#ideas', skipped: "it has a query or a fragment (an unescaped ? or #), which a folder's URI does not" }],
    ['file:///home/me/Notes?x=1', { uri: 'file:///home/me/Notes?x=1', skipped: "it has a query or a fragment (an unescaped ? or #), which a folder's URI does not" }],
    ['https://example.com/notes', { uri: 'https://example.com/notes', skipped: 'its scheme is https, and only file:// roots name a folder' }],
    ['vscode-remote://ssh-remote%2Bbox/home/me', { uri: 'vscode-remote://ssh-remote%2Bbox/home/me', skipped: 'its scheme is vscode-remote, and only file:// roots name a folder' }],
    ['/home/me/Notes', { uri: '/home/me/Notes', skipped: 'it is not a URI' }],
    ['', { uri: '', skipped: 'it is not a URI' }],
  ];
  it.each(cases)('%j', (uri, expected) => {
    expect(rootCandidates([{ uri }])).toEqual([expected]);
  });

  it('keeps the client\'s order', () => {
    expect(rootCandidates([{ uri: 'https://a' }, { uri: 'file:///b' }, { uri: 'file:///c' }]).map((candidate) => candidate.uri)).toEqual(['https://a', 'file:///b', 'file:///c']);
  });
});

describe('firstRootFolder: the first root that is a folder, every other said in the log', () => {
  let dir: string;
  let lines: string[];
  const uri = (rel: string): string => pathToFileURL(path.join(dir, rel)).href;

  beforeEach(async () => {
    dir = await tempDir('dexi-roots-');
    lines = [];
    await mkdir(path.join(dir, 'One vault'));
    await mkdir(path.join(dir, 'Two'));
    await writeFile(path.join(dir, 'note.md'), '# A file\n');
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  const cases: [string, string[], string | undefined, string[]][] = [
    ['one folder', ['One vault'], 'One vault', []],
    ['the first of two', ['One vault', 'Two'], 'One vault', ['The client offered 2 roots; one server serves one vault, so the root after ROOT(One vault) is not served.']],
    ['after a missing one', ['gone', 'Two'], 'Two', ['Skipped the client\'s root ROOT(gone): The vault folder HERE/gone does not exist; give the vault with --vault DIR (or $DEXI_VAULT).']],
    ['after a file', ['note.md', 'Two'], 'Two', ['Skipped the client\'s root ROOT(note.md): The vault HERE/note.md is not a folder; give the vault with --vault DIR (or $DEXI_VAULT).']],
    ['none usable', ['gone', 'note.md'], undefined, [
      'Skipped the client\'s root ROOT(gone): The vault folder HERE/gone does not exist; give the vault with --vault DIR (or $DEXI_VAULT).',
      'Skipped the client\'s root ROOT(note.md): The vault HERE/note.md is not a folder; give the vault with --vault DIR (or $DEXI_VAULT).',
    ]],
    ['an empty list', [], undefined, []],
  ];
  it.each(cases)('%s', async (_what, roots, served, said) => {
    const folder = await firstRootFolder(roots.map((rel) => ({ uri: uri(rel) })), (line) => lines.push(line));
    expect(folder?.root).toBe(served === undefined ? undefined : await realpath(path.join(dir, served)));
    const shown = (line: string): string => line.replace(/ROOT\(([^)]+)\)/gu, (_match, rel: string) => uri(rel)).replaceAll('HERE', dir);
    expect(lines).toEqual(said.map(shown));
  });

  it('skips a URI that is no file:// one before looking at the disk', async () => {
    const folder = await firstRootFolder([{ uri: 'https://example.com/' }, { uri: uri('Two') }], (line) => lines.push(line));
    expect(folder?.root).toBe(await realpath(path.join(dir, 'Two')));
    expect(lines).toEqual(["Skipped the client's root https://example.com/: its scheme is https, and only file:// roots name a folder."]);
  });
});
