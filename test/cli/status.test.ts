import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli/args.js';
import { ageText, indexDrift, statusJson, statusLines, type VaultStatus } from '../../src/cli/status.js';
import { formatLocal } from '../../src/format/time.js';
import type { NoteRecord } from '../../src/vault/note.js';
import type { FileStat } from '../../src/vault/scan.js';

/** `dexi-vault status` (issue 34): its command line, and its data worded as lines and as JSON. */

const env = { DEXI_VAULT: '/notes' };
const NOW = new Date('2026-12-03T12:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const local = (iso: string): string => formatLocal(new Date(iso), 'minute');

/** A vault freshly indexed and embedded, with nothing else: each case changes what it is about. */
function base(): VaultStatus {
  return {
    vault: '/notes',
    notes: 1234,
    folders: 1,
    cacheDir: '/notes/.dexi/cache',
    textIndex: { state: 'saved', bytes: 2_400_000, savedMs: NOW.getTime() - 5 * MINUTE, changed: 0, added: 0, removed: 0 },
    embeddings: { state: 'embedded', model: 'use-lite-512', dimensions: 512, notesWithOpening: 1234, notesInFull: 1200, bytes: 3_100_000, savedMs: NOW.getTime() - HOUR },
    feeds: { count: 0, failing: [] },
    tokens: { count: 0, byScopes: {} },
    record: { changes: 0, undoable: 0, unkept: 0 },
  };
}

function line(status: VaultStatus, label: string): string {
  const found = statusLines(status, NOW).find((text) => text.startsWith(`${label} `));
  if (found === undefined) throw new Error(`no ${label} line`);
  return found.slice(label.length).trim();
}

describe('status on the command line', () => {
  it.each([
    [['status'], { command: 'status', vault: '/notes' }],
    [['status', '--json'], { command: 'status', vault: '/notes', json: true }],
    [['status', '--vault', '/v', '--json'], { command: 'status', vault: '/v', json: true }],
    [['status', '--help'], { command: 'help', topic: 'status' }],
    [['help', 'status'], { command: 'help', topic: 'status' }],
  ])('%j', (argv, config) => {
    expect(parseCli(argv, env)).toEqual(config);
  });

  it.each([
    [['stauts'], 'Unknown command "stauts". Did you mean status?'],
    [['status', '--jsno'], "Unknown option '--jsno'. Did you mean --json?"],
    [['status', '--vualt', '/v'], "Unknown option '--vualt'. Did you mean --vault?"],
    [['status', 'extra'], "Unexpected argument 'extra'."],
  ])('%j is refused', (argv, message) => {
    expect(() => parseCli(argv, env)).toThrow(message);
  });
});

describe('ageText', () => {
  it.each([
    [0, 'just now'],
    [59_999, 'just now'],
    [-5 * MINUTE, 'just now'],
    [MINUTE, '1 minute ago'],
    [5 * MINUTE + 59_000, '5 minutes ago'],
    [HOUR, '1 hour ago'],
    [47 * HOUR, '47 hours ago'],
    [48 * HOUR, '2 days ago'],
    [1500 * 24 * HOUR, '1,500 days ago'],
  ])('%d ms → %s', (ago, text) => {
    expect(ageText(NOW.getTime() - ago, NOW.getTime())).toBe(text);
  });
});

describe('indexDrift', () => {
  const file = (vaultPath: string, mtimeMs = 1): FileStat => ({ path: vaultPath, size: 10, mtimeMs, ctimeMs: 1, ino: 7, birthtimeMs: 1 });
  const record = (vaultPath: string): NoteRecord => ({ ...file(vaultPath), id: vaultPath, folder: null, title: vaultPath, source: 'note', createdMs: 0, updatedMs: 0, tags: [], snippet: '', hash: 'h', shared: false, broken: false });

  it.each([
    ['nothing on either side', [], [], { changed: 0, added: 0, removed: 0 }],
    ['the same files', [file('a.md'), file('b.md')], [record('a.md'), record('b.md')], { changed: 0, added: 0, removed: 0 }],
    ['one touched', [file('a.md', 2), file('b.md')], [record('a.md'), record('b.md')], { changed: 1, added: 0, removed: 0 }],
    ['one new, one gone', [file('a.md'), file('c.md')], [record('a.md'), record('b.md')], { changed: 0, added: 1, removed: 1 }],
    ['a move the cache does not know', [file('x/a.md')], [record('a.md')], { changed: 0, added: 1, removed: 1 }],
  ])('%s', (_name, files, records, drift) => {
    expect(indexDrift(files, records)).toEqual(drift);
  });
});

describe('statusLines', () => {
  it('says each part on a line of its own, labels aligned, in this order', () => {
    const lines = statusLines(base(), NOW);
    expect(lines.map((text) => text.slice(0, 13).trimEnd())).toEqual(['Vault', 'Notes', 'Text index', 'Embeddings', 'Feeds', 'Tokens', 'Last change', 'Read-only']);
    for (const text of lines) expect(text.charAt(13), text).not.toBe(' ');
  });

  it.each<[string, (status: VaultStatus) => void, string, string]>([
    ['notes and folders', () => undefined, 'Notes', '1,234 notes in 1 folder'],
    ['one note', (s) => Object.assign(s, { notes: 1, folders: 0 }), 'Notes', '1 note in 0 folders'],
    ['an index never made', (s) => (s.textIndex = { state: 'not-indexed' }), 'Text index', 'not indexed yet; run dexi-vault index'],
    ['an index up to date', () => undefined, 'Text index', 'up to date (saved 5 minutes ago, 2.4 MB)'],
    [
      'an index behind the notes',
      (s) => (s.textIndex = { state: 'saved', bytes: 900, savedMs: NOW.getTime() - 3 * HOUR, changed: 1, added: 2, removed: 1 }),
      'Text index',
      'out of date: 1 note changed, 2 notes added, 1 note removed since it was saved 3 hours ago (900 bytes); the next start or index catches up',
    ],
    ['a damaged index', (s) => (s.textIndex = { state: 'damaged', bytes: 64, savedMs: NOW.getTime() }), 'Text index', 'damaged (saved just now, 64 bytes); the next start or index rebuilds it'],
    ['an index of another version', (s) => (s.textIndex = { state: 'other-version', bytes: 64, savedMs: NOW.getTime() }), 'Text index', 'made by another version (saved just now, 64 bytes); the next start or index rebuilds it'],
    ['embeddings', () => undefined, 'Embeddings', 'use-lite-512: 1,234 of 1,234 notes with their opening embedded, 1,200 in full (saved 1 hour ago, 3.1 MB)'],
    ['no embeddings', (s) => (s.embeddings = { state: 'not-embedded' }), 'Embeddings', 'not embedded yet; run dexi-vault index (with --model none there is no semantic search)'],
    ['unusable embeddings', (s) => (s.embeddings = { state: 'unusable', problem: 'the snapshot index is malformed' }), 'Embeddings', 'cannot be used (the snapshot index is malformed); the next start with a model embeds every note again'],
    ['no feeds', () => undefined, 'Feeds', 'none; follow one with dexi-vault feeds add URL'],
    ['one feed never pulled', (s) => (s.feeds = { count: 1, failing: [] }), 'Feeds', '1 feed, never pulled'],
    ['feeds pulled', (s) => (s.feeds = { count: 2, lastPulled: '2026-12-03T10:00:00.000Z', failing: [] }), 'Feeds', `2 feeds, last pulled ${local('2026-12-03T10:00:00.000Z')} (2 hours ago)`],
    [
      'a failing feed',
      (s) => (s.feeds = { count: 2, lastPulled: '2026-12-03T10:00:00.000Z', failing: [{ name: 'Blog', url: 'https://b.example/feed', error: 'HTTP 404' }] }),
      'Feeds',
      `2 feeds, last pulled ${local('2026-12-03T10:00:00.000Z')} (2 hours ago); 1 failed its last pull: Blog (HTTP 404)`,
    ],
    [
      'many failing feeds: three named, the rest counted',
      (s) => (s.feeds = { count: 5, failing: ['A', 'B', 'C', 'D', 'E'].map((name) => ({ name, url: `https://${name}.example`, error: 'timeout' })) }),
      'Feeds',
      '5 feeds, never pulled; 5 failed their last pull: A (timeout); B (timeout); C (timeout) and 2 more',
    ],
    ['an unreadable feeds file', (s) => (s.feeds = { count: 0, failing: [], problem: 'feeds.json is not valid JSON.' }), 'Feeds', 'feeds.json is not valid JSON.'],
    ['an unreadable record', (s) => (s.record = { changes: 0, undoable: 0, unkept: 0, problem: '/notes/.dexi/activity.jsonl cannot be read (permission denied)' }), 'Last change', '/notes/.dexi/activity.jsonl cannot be read (permission denied)'],
    ['no tokens', () => undefined, 'Tokens', 'none; make one for serve --http with dexi-vault token create --name NAME'],
    ['tokens by scope', (s) => (s.tokens = { count: 3, byScopes: { 'notes:read,notes:write': 1, 'notes:read': 2 } }), 'Tokens', '3 tokens: 2 notes:read, 1 notes:read,notes:write'],
    ['one token', (s) => (s.tokens = { count: 1, byScopes: { 'notes:read': 1 } }), 'Tokens', '1 token: 1 notes:read'],
    ['no change on record', () => undefined, 'Last change', 'none on record'],
    [
      'the last change',
      (s) => (s.record = { changes: 1, undoable: 1, unkept: 0, last: { time: '2026-12-03T11:30:00.000Z', tool: 'update_note', by: 'stdio', change: 'changed Work/plan.md' } }),
      'Last change',
      `${local('2026-12-03T11:30:00.000Z')} (30 minutes ago) update_note changed Work/plan.md, by stdio; 1 change on record, 1 can be undone`,
    ],
    [
      'an undo last, nothing left to undo',
      (s) => (s.record = { changes: 2, undoable: 0, unkept: 0, last: { time: '2026-12-01T12:00:00.000Z', tool: 'undo', by: 'command line', change: 'deleted Inbox/x.md' } }),
      'Last change',
      `${local('2026-12-01T12:00:00.000Z')} (2 days ago) undo deleted Inbox/x.md, by command line; 2 changes on record, none can be undone`,
    ],
    [
      'changes whose earlier versions were pruned',
      (s) => (s.record = { changes: 40, undoable: 12, unkept: 28, last: { time: '2026-12-03T11:30:00.000Z', tool: 'update_note', by: 'stdio', change: 'changed Work/plan.md' } }),
      'Last change',
      `${local('2026-12-03T11:30:00.000Z')} (30 minutes ago) update_note changed Work/plan.md, by stdio; 40 changes on record, 12 can be undone (28 more cannot be: .dexi/history no longer keeps what they replaced)`,
    ],
    ['a writable vault', () => undefined, 'Read-only', 'no'],
    [
      'a vault that cannot be written',
      (s) => Object.assign(s, { readOnlyBecause: 'permission denied', cacheDir: '/home/me/.cache/dexi-vault/notes-0123' }),
      'Read-only',
      'yes: the folder cannot be written (permission denied), so it is served read-only, its caches in /home/me/.cache/dexi-vault/notes-0123',
    ],
  ])('%s', (_name, change, label, expected) => {
    const status = base();
    change(status);
    expect(line(status, label)).toBe(expected);
  });

  it('shows a name that could hide or reorder text as printable', () => {
    const status = base();
    status.record = { changes: 1, undoable: 1, unkept: 0, last: { time: NOW.toISOString(), tool: 'create_note', by: 'stdio', change: 'created a\u202Eb.md' } };
    expect(line(status, 'Last change')).not.toContain('\u202E');
  });
});

describe('statusJson', () => {
  const keys = ['vault', 'notes', 'folders', 'readOnly', 'readOnlyBecause', 'cacheDir', 'textIndex', 'embeddings', 'feeds', 'tokens', 'activity'];

  it('gives a freshly indexed vault with every key', () => {
    expect(statusJson(base())).toEqual({
      vault: '/notes',
      notes: 1234,
      folders: 1,
      readOnly: false,
      readOnlyBecause: null,
      cacheDir: '/notes/.dexi/cache',
      textIndex: { state: 'up-to-date', bytes: 2_400_000, savedAt: '2026-12-03T11:55:00.000Z', changed: 0, added: 0, removed: 0 },
      embeddings: { state: 'embedded', model: 'use-lite-512', dimensions: 512, notesWithOpening: 1234, notesInFull: 1200, of: 1234, bytes: 3_100_000, savedAt: '2026-12-03T11:00:00.000Z', problem: null },
      feeds: { count: 0, lastPulled: null, failing: [], problem: null },
      tokens: { count: 0, byScopes: {}, problem: null },
      activity: { changes: 0, undoable: 0, unkept: 0, last: null, problem: null },
    });
  });

  it.each<[string, (status: VaultStatus) => void, string, unknown]>([
    ['an index behind', (s) => (s.textIndex = { state: 'saved', bytes: 1, savedMs: 0, changed: 0, added: 0, removed: 3 }), 'textIndex', { state: 'out-of-date', bytes: 1, savedAt: '1970-01-01T00:00:00.000Z', changed: 0, added: 0, removed: 3 }],
    ['no index', (s) => (s.textIndex = { state: 'not-indexed' }), 'textIndex', { state: 'not-indexed', bytes: null, savedAt: null, changed: null, added: null, removed: null }],
    ['a damaged index', (s) => (s.textIndex = { state: 'damaged', bytes: 5, savedMs: 0 }), 'textIndex', { state: 'damaged', bytes: 5, savedAt: '1970-01-01T00:00:00.000Z', changed: null, added: null, removed: null }],
    ['no embeddings', (s) => (s.embeddings = { state: 'not-embedded' }), 'embeddings', { state: 'not-embedded', model: null, dimensions: null, notesWithOpening: 0, notesInFull: 0, of: 1234, bytes: null, savedAt: null, problem: null }],
    ['unusable embeddings', (s) => (s.embeddings = { state: 'unusable', problem: 'p' }), 'embeddings', { state: 'unusable', model: null, dimensions: null, notesWithOpening: 0, notesInFull: 0, of: 1234, bytes: null, savedAt: null, problem: 'p' }],
    ['a read-only vault', (s) => (s.readOnlyBecause = 'read-only file system'), 'readOnlyBecause', 'read-only file system'],
    [
      'a failing feed',
      (s) => (s.feeds = { count: 1, lastPulled: '2026-12-03T10:00:00.000Z', failing: [{ name: 'Blog', url: 'https://b.example/feed', error: 'HTTP 404' }] }),
      'feeds',
      { count: 1, lastPulled: '2026-12-03T10:00:00.000Z', failing: [{ name: 'Blog', url: 'https://b.example/feed', error: 'HTTP 404' }], problem: null },
    ],
    ['tokens', (s) => (s.tokens = { count: 2, byScopes: { 'notes:read': 2 } }), 'tokens', { count: 2, byScopes: { 'notes:read': 2 }, problem: null }],
    [
      'the last change',
      (s) => (s.record = { changes: 3, undoable: 2, unkept: 1, last: { time: '2026-12-03T11:30:00.000Z', tool: 'move_note', by: 'token laptop', change: 'moved a.md → b/a.md' } }),
      'activity',
      { changes: 3, undoable: 2, unkept: 1, last: { time: '2026-12-03T11:30:00.000Z', tool: 'move_note', by: 'token laptop', change: 'moved a.md → b/a.md' }, problem: null },
    ],
  ])('%s', (_name, change, key, expected) => {
    const status = base();
    change(status);
    const json = statusJson(status);
    expect(Object.keys(json)).toEqual(keys);
    expect(json[key]).toEqual(expected);
  });
});
