import { mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { clientVaultFolder, firstRootFolder, rootCandidates, type RootCandidate } from '../../src/cli/roots.js';
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

describe('clientVaultFolder: the root, else the current folder, and why', () => {
  let dir: string;
  let lines: string[];

  beforeEach(async () => {
    dir = await tempDir('dexi-client-roots-');
    lines = [];
    await mkdir(path.join(dir, 'vault'));
    await mkdir(path.join(dir, 'here'));
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  /** A stand-in for the SDK server: the client's capabilities, and its answer to roots/list read with the schema the server is given. */
  function client(roots: boolean, answer: () => unknown): Server {
    return {
      getClientCapabilities: () => (roots ? { roots: {} } : {}),
      request: async (_request: unknown, schema: z.ZodType) => schema.parse(answer()),
    } as unknown as Server;
  }

  const timeout = (): never => {
    throw new McpError(ErrorCode.RequestTimeout, 'Request timed out');
  };
  const cases: [string, boolean, (vault: string) => unknown, string, string, string[]][] = [
    ['a client without roots', false, () => timeout(), 'here', 'the current folder (the client offers no roots, and neither --vault nor $DEXI_VAULT names a vault)', []],
    ['a root that is a folder', true, (vault) => ({ roots: [{ uri: pathToFileURL(vault).href, name: 'notes' }] }), 'vault', "the client's root", []],
    // The SDK's own schema would refuse the whole list for the https root; each is judged alone.
    [
      'a root beside one of another scheme',
      true,
      (vault) => ({ roots: [{ uri: 'https://example.com/' }, { uri: pathToFileURL(vault).href }] }),
      'vault',
      "the client's root",
      ["Skipped the client's root https://example.com/: its scheme is https, and only file:// roots name a folder."],
    ],
    ['no roots listed', true, () => ({ roots: [] }), 'here', 'the current folder (the client named no root)', []],
    ['no answer in time', true, () => timeout(), 'here', 'the current folder (the client named no root)', ['The client did not list its roots within 10 s.']],
    [
      'an answer that is no list of roots',
      true,
      () => ({ roots: 'file:///notes' }),
      'here',
      'the current folder (the client named no root)',
      ["The client's list of roots could not be read: it is not a list of roots, each with a uri."],
    ],
  ];
  it.each(cases)('%s', async (_what, roots, answer, served, from, said) => {
    const vault = path.join(dir, 'vault');
    const chosen = await clientVaultFolder(client(roots, () => answer(vault)), path.join(dir, 'here'), (line) => lines.push(line));
    expect(chosen).toEqual({ folder: { root: await realpath(path.join(dir, served)) }, from });
    expect(lines).toEqual(said);
  });
});
