import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { activityRows } from '../../src/cli/activity.js';
import { activityFile, ActivityLog, parseActivity, type ActivityRecord } from '../../src/vault/record/activity.js';
import { settledEntries, settlePending } from '../../src/vault/record/activity-settle.js';
import { hashContent } from '../../src/vault/parse.js';
import { recordedCalls, undo } from '../../src/vault/record/undo.js';
import { Vault, type VaultTestHooks } from '../../src/vault/vault.js';
import { removeDir, TestClock, waitFor, writeVault } from '../support/helpers.js';

/**
 * A kill between a write and its record (side-by-side-2, finding 3): the
 * record is written ahead of the change, and what a killed server left
 * pending is settled from the disk at the next start. The kill is made
 * exact through the Vault's test seam: a hook that never returns stops the
 * write just after its rename (the change is on disk) or just before it
 * (nothing is), as a SIGKILL there would.
 */

const ID = '3f2b8c1e-5a6d-4e7f-8a9b-0c1d2e3f4a5b';
const NOTE = `---\nid: ${ID}\n---\nfirst line\n`;
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

/** A vault whose writes stop for good at `phase`, with its record; the write is left running, as a killed process leaves it. */
async function stoppedAt(phase: 'before-check' | 'after-rename'): Promise<{ dir: string; note: string }> {
  const dir = await writeVault({ 'Note.md': NOTE });
  dirs.push(dir);
  let reached = false;
  const hooks: VaultTestHooks = {
    duringWrite: (at) => {
      if (at !== phase) return Promise.resolve();
      reached = true;
      return new Promise<void>(() => undefined);
    },
  };
  const vault = await Vault.open({ root: dir, clock: new TestClock(), log: () => undefined, hooks, git: false });
  await vault.load();
  const log = new ActivityLog(dir, new TestClock(), () => undefined);
  void vault.update(ID, { mode: 'append', text: 'server line' }, log.journal({ tool: 'update_note', by: 'stdio' }));
  await waitFor(() => reached, 5000, 'the write to reach the kill');
  return { dir, note: path.join(dir, 'Note.md') };
}

describe('a write and its record, with a kill in between', () => {
  it('a write that reached the disk is on record after the next start, and undo takes it back', async () => {
    const { dir, note } = await stoppedAt('after-rename');
    const written = await readFile(note);
    expect(written.toString()).toBe(`${NOTE}\nserver line\n`);

    // The next start.
    const log = new ActivityLog(dir, new TestClock(), () => undefined);
    expect(await settlePending(log)).toBe(1);
    const entries = await log.entries();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'changed', path: 'Note.md', before: hashContent(Buffer.from(NOTE)), after: hashContent(written) });
    expect(entries[0]?.pending).toBeUndefined();
    expect(activityRows(entries, undefined)[1]?.[3]).toBe('changed Note.md');

    await undo(log, { last: true });
    expect(await readFile(note, 'utf8')).toBe(NOTE);
  });

  it('a write that never reached the disk is dropped from the record', async () => {
    const { dir, note } = await stoppedAt('before-check');
    expect(await readFile(note, 'utf8')).toBe(NOTE);
    const log = new ActivityLog(dir, new TestClock(), () => undefined);
    expect(await settlePending(log)).toBe(1);
    expect(await log.entries()).toEqual([]);
    expect(await readFile(activityFile(dir), 'utf8')).toMatch(/"done":false/);
    expect(await settledEntries(log, { persist: false })).toEqual([]);
  });
});

const H = (n: number): string => String(n).repeat(40).slice(0, 40);
const base = { time: '2026-12-02T09:00:00.000Z', call: 'c1', tool: 'update_note', by: 'stdio', id: 'n', path: 'N.md' };

describe('reading pending, settled and late lines', () => {
  it('a settling line saying done wins over one saying not, in either order; an unsettled line stays pending', () => {
    const lines = [
      { ...base, action: 'changed', before: H(1), after: H(2), pending: 'a', pid: 1 },
      { time: base.time, settles: 'a', done: false },
      { time: base.time, settles: 'a', done: true },
      { ...base, call: 'c2', action: 'changed', before: H(2), after: H(3), pending: 'b', pid: 1 },
      { time: base.time, settles: 'b', done: true },
      { time: base.time, settles: 'b', done: false },
      { ...base, call: 'c3', action: 'changed', before: H(3), after: H(4), pending: 'c', pid: 1 },
      { ...base, call: 'c4', action: 'changed', before: H(4), after: H(5), pending: 'd', pid: 1 },
      { time: base.time, settles: 'd', done: false },
    ];
    const entries = parseActivity(lines.map((line) => JSON.stringify(line)).join('\n'));
    expect(entries.map((entry) => [entry.call, entry.pending ?? null])).toEqual([
      ['c1', null],
      ['c2', null],
      ['c3', 'c'],
    ]);
  });

  it('late text taken in stands for the call\'s earlier write of that path: undo and activity see one write', () => {
    const entries = [
      { ...base, action: 'changed', before: H(1), after: H(2) },
      { ...base, action: 'changed', before: H(7), after: H(8), late: true },
      { ...base, call: 'c2', action: 'deleted', path: 'D.md', before: H(3), attachment: { path: 'D.pdf', before: H(4) } },
      { ...base, call: 'c2', action: 'deleted', path: 'D.md', before: H(9), late: true },
    ] as ActivityRecord[];
    const { calls } = recordedCalls(entries);
    expect(calls.map((call) => call.entries.map((entry) => ('before' in entry ? entry.before : '')))).toEqual([[H(7)], [H(9)]]);
    expect(calls[0]?.entries[0]).toMatchObject({ after: H(8) });
    expect(calls[1]?.entries[0]).toMatchObject({ attachment: { path: 'D.pdf', before: H(4) } });
    expect(activityRows(entries, undefined).slice(1).map((row) => row[3])).toEqual([
      'changed N.md (with text another program wrote late, kept)',
      'deleted D.md and D.pdf (with text another program wrote late, kept)',
    ]);
  });
});
