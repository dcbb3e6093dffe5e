import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createToken } from '../../src/access/tokens.js';
import { activityItems } from '../../src/cli/activity.js';
import { parseCli } from '../../src/cli/args.js';
import { token } from '../../src/cli/commands/token.js';
import type { ActivityRecord } from '../../src/vault/record/activity.js';
import { removeDir } from '../support/helpers.js';

/** `--json` on the commands that list (issue 34): activity, feeds list and token list. */

const env = { DEXI_VAULT: '/notes' };

describe('--json on the listing commands', () => {
  it.each([
    [['activity', '--json'], { command: 'activity', vault: '/notes', json: true }],
    [['activity', '--since', '1d', '--json'], { command: 'activity', vault: '/notes', since: '1d', json: true }],
    [['activity'], { command: 'activity', vault: '/notes' }],
    [['feeds', 'list', '--json'], { command: 'feeds', action: 'list', vault: '/notes', json: true }],
    [['token', 'list', '--json'], { command: 'token', action: 'list', vault: '/notes', json: true }],
  ])('%j', (argv, config) => {
    expect(parseCli(argv, env)).toEqual(config);
  });

  it.each([
    [['feeds', 'pull', '--json'], "Unknown option '--json'."],
    [['token', 'create', '--name', 'ci', '--json'], "Unknown option '--json'."],
  ])('%j is refused: only listings take it', (argv, message) => {
    expect(() => parseCli(argv, env)).toThrow(message);
  });
});

describe('activityItems', () => {
  const write = (call: string, extra: Partial<ActivityRecord>): ActivityRecord =>
    ({ time: '2026-12-03T09:00:00.000Z', call, tool: 'update_note', by: 'stdio', action: 'changed', id: 'n1', path: 'Work/plan.md', before: 'a', after: 'b', ...extra }) as ActivityRecord;

  it('gives each write with its call, change and marks, and leaves out what --since excludes', () => {
    const entries = [
      write('c1', { time: '2026-12-01T09:00:00.000Z', action: 'created', after: 'x' } as Partial<ActivityRecord>),
      write('c2', {}),
      write('c2', { late: true } as Partial<ActivityRecord>),
      write('u1', { tool: 'undo', by: 'command line', undoes: 'c2' }),
    ];
    expect(activityItems(entries, undefined)).toEqual([
      { time: '2026-12-01T09:00:00.000Z', tool: 'update_note', by: 'stdio', call: 'c1', change: 'created Work/plan.md' },
      { time: '2026-12-03T09:00:00.000Z', tool: 'update_note', by: 'stdio', call: 'c2', change: 'changed Work/plan.md', late: true, undone: true },
      { time: '2026-12-03T09:00:00.000Z', tool: 'undo', by: 'command line', call: 'u1', change: 'changed Work/plan.md', undo: true },
    ]);
    expect(activityItems(entries, new Date('2026-12-02T00:00:00Z')).map((item) => item.call)).toEqual(['c2', 'u1']);
  });
});

describe('token list --json', () => {
  let dir: string | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    if (dir) await removeDir(dir);
  });

  it('lists names, scopes, boundaries and dates, never the token', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'dexi-json-'));
    const { secret } = await createToken(dir, { name: 'laptop', scopes: ['notes:read'], folder: 'Work' }, new Date('2026-12-01T10:00:00Z'));
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    await token({ command: 'token', action: 'list', vault: dir, json: true }, () => undefined);
    const listed = JSON.parse(written.join('')) as unknown;
    expect(listed).toEqual([{ name: 'laptop', scopes: ['notes:read'], folder: 'Work', created: expect.stringMatching(/^2026-12-01T/) }]);
    expect(written.join('')).not.toContain(secret);
  });
});
