import { describe, expect, it } from 'vitest';
import { activityRows, localTimestamp, sinceTime } from '../../../src/cli/activity.js';
import { parseActivity, versionsToRemove, type ActivityRecord } from '../../../src/vault/record/activity.js';
import { callToUndo, recordSummary } from '../../../src/vault/record/undo.js';

const H = (n: number): string => String(n).repeat(40).slice(0, 40);
const at = (minute: number): string => new Date(Date.UTC(2026, 11, 2, 9, minute)).toISOString();

function entry(call: string, minute: number, write: Partial<ActivityRecord> & Pick<ActivityRecord, 'action' | 'id' | 'path'>): ActivityRecord {
  return { time: at(minute), call, tool: 'update_note', by: 'stdio', before: H(1), after: H(2), ...write } as ActivityRecord;
}

const LOG: ActivityRecord[] = [
  entry('c1', 0, { action: 'changed', id: 'plan', path: 'Projects/Plan.md' }),
  entry('c2', 1, { action: 'moved', tool: 'move_note', id: 'idea', from: 'Inbox/Idea.md', path: 'Projects/Idea.md' } as Partial<ActivityRecord> & Pick<ActivityRecord, 'action' | 'id' | 'path'>),
  entry('c2', 1, { action: 'changed', tool: 'move_note', id: 'daily', path: 'Daily/Today.md', because: 'links' }),
  entry('c3', 2, { action: 'created', tool: 'create_note', id: 'fresh', path: 'Fresh.md' }),
  entry('c4', 3, { action: 'changed', tool: 'undo', by: 'command line', id: 'plan', path: 'Projects/Plan.md', undoes: 'c1' }),
];

describe('callToUndo: which call an undo takes back', () => {
  const cases: [string, Parameters<typeof callToUndo>[1], string][] = [
    ['--last is the newest call not undone', { last: true }, 'c3'],
    ['a note by id', { note: 'idea' }, 'c2'],
    ['a moved note by its new path', { note: 'Projects/Idea.md' }, 'c2'],
    ['a moved note by its old path', { note: 'Inbox/Idea.md' }, 'c2'],
    ['a path written with ./', { note: './Fresh.md' }, 'c3'],
  ];
  it.each(cases)('%s', (_, target, call) => {
    const found = callToUndo(LOG, target);
    expect('call' in found ? found.call : found.problem).toBe(call);
  });

  const problems: [string, readonly ActivityRecord[], Parameters<typeof callToUndo>[1], string | RegExp][] = [
    ['a note undone already', LOG, { note: 'plan' }, 'Every change the assistant made to plan that is on record has been undone already.'],
    ['a note never changed', LOG, { note: 'Other.md' }, 'No change by the assistant to Other.md is on record; give a note id or its path as "dexi-vault activity" shows it.'],
    ['a note changed only by a move\'s link repair', LOG, { note: 'daily' }, /^The assistant changed daily only to keep its links working when it moved another note \(move_note of Inbox\/Idea\.md → Projects\/Idea\.md on .*\); to put that back, undo the move: dexi-vault undo Projects\/Idea\.md$/],
    ['an empty record', [], { last: true }, 'The assistant has changed nothing in this vault that is on record.'],
    ['everything undone', [LOG[0] as ActivityRecord, LOG[4] as ActivityRecord], { last: true }, 'Every change the assistant made that is on record has been undone already.'],
  ];
  it.each(problems)('%s', (_, log, target, problem) => {
    const found = callToUndo(log, target);
    expect('problem' in found).toBe(true);
    if ('problem' in found) expect(found.problem).toMatch(problem);
  });
});

describe('recordSummary: what status says can still be undone', () => {
  const deleted = entry('c5', 4, { action: 'deleted', tool: 'delete_note', id: 'old', path: 'Old.md', before: H(3), attachment: { path: 'Old.pdf', before: H(4) } } as Partial<ActivityRecord> &
    Pick<ActivityRecord, 'action' | 'id' | 'path'>);
  const cases: [string, readonly ActivityRecord[], string[], { calls: number; undoable: number; unkept: number }][] = [
    // c1 is undone by c4, an undo is never undone, c3 created a note (nothing to put back), c2's link repair replaced H(1).
    ['every version kept', LOG, [H(1)], { calls: 4, undoable: 2, unkept: 0 }],
    ['a link repair\'s version pruned', LOG, [], { calls: 4, undoable: 1, unkept: 1 }],
    ['a delete whose note is kept but not its attachment', [...LOG, deleted], [H(1), H(3)], { calls: 5, undoable: 2, unkept: 1 }],
    ['a delete with its note and attachment kept', [...LOG, deleted], [H(1), H(3), H(4)], { calls: 5, undoable: 3, unkept: 0 }],
    ['an empty record', [], [], { calls: 0, undoable: 0, unkept: 0 }],
  ];
  it.each(cases)('%s', (_, log, kept, expected) => {
    const { calls, undoable, unkept } = recordSummary(log, new Set(kept));
    expect({ calls, undoable, unkept }).toEqual(expected);
  });
});

describe('parseActivity', () => {
  it('reads each whole entry and skips a torn last line, a hand edit and a line of another shape', () => {
    const lines = [JSON.stringify(LOG[0]), 'not json', JSON.stringify({ time: at(0), call: 'x', tool: 't', by: 'b', id: 'i', path: 'p', action: 'exploded' }), '', JSON.stringify(LOG[3]), '{"time":"2026-'];
    expect(parseActivity(lines.join('\n'))).toEqual([LOG[0], LOG[3]]);
  });
});

describe('versionsToRemove: the history is bounded by age and size', () => {
  const DAY = 86_400_000;
  const now = 100 * DAY;
  const limits = { maxAgeMs: 30 * DAY, maxBytes: 1000 };
  const cases: [string, { name: string; size: number; mtimeMs: number }[], string[]][] = [
    ['nothing to remove', [{ name: 'a', size: 10, mtimeMs: now - DAY }], []],
    ['older than 30 days', [{ name: 'old', size: 10, mtimeMs: now - 31 * DAY }, { name: 'new', size: 10, mtimeMs: now }], ['old']],
    ['over the size: the oldest go first', [{ name: 'a', size: 600, mtimeMs: now - 3 }, { name: 'b', size: 300, mtimeMs: now - 2 }, { name: 'c', size: 300, mtimeMs: now - 1 }], ['a']],
    ['one too big to fit goes, the newer small ones stay', [{ name: 'big', size: 2000, mtimeMs: now - 5 }, { name: 'small', size: 10, mtimeMs: now }], ['big']],
  ];
  it.each(cases)('%s', (_, versions, removed) => {
    expect(versionsToRemove(versions, now, limits).sort()).toEqual(removed.sort());
  });
});

describe('sinceTime: --since as a span or a date', () => {
  const now = new Date(2026, 11, 2, 12, 0);
  const cases: [string, Date | undefined][] = [
    ['30m', new Date(2026, 11, 2, 11, 30)],
    ['12h', new Date(2026, 11, 2, 0, 0)],
    ['1d', new Date(2026, 11, 1, 12, 0)],
    ['2W', new Date(2026, 10, 18, 12, 0)],
    ['2026-12-01', new Date(2026, 11, 1, 0, 0)],
    ['2026-12-01T09:30', new Date(2026, 11, 1, 9, 30)],
    ['2026-12-01 09:30', new Date(2026, 11, 1, 9, 30)],
    ['2026-02-31', undefined],
    ['yesterday', undefined],
    ['1y', undefined],
  ];
  it.each(cases)('%s', (text, expected) => {
    expect(sinceTime(text, now)).toEqual(expected);
  });
});

describe('activityRows: what "dexi-vault activity" prints', () => {
  it('one row per write, with the undone call and the undo marked, from --since on', () => {
    const rows = activityRows(LOG, new Date(at(1)));
    expect(rows).toEqual([
      ['TIME', 'TOOL', 'BY', 'CHANGE'],
      [localTimestamp(at(1)), 'move_note', 'stdio', 'moved Inbox/Idea.md → Projects/Idea.md'],
      [localTimestamp(at(1)), 'move_note', 'stdio', 'changed Daily/Today.md (its links to the moved note)'],
      [localTimestamp(at(2)), 'create_note', 'stdio', 'created Fresh.md'],
      [localTimestamp(at(3)), 'undo', 'command line', 'changed Projects/Plan.md (an undo)'],
    ]);
    expect(activityRows(LOG, undefined)[1]).toEqual([localTimestamp(at(0)), 'update_note', 'stdio', 'changed Projects/Plan.md (undone)']);
  });

  it('prints a path with a text-direction or control character escaped, never raw (issue 29, finding 7)', () => {
    const moved = { ...(LOG[1] as ActivityRecord), from: 'con/plan.md', path: 'a\u202Eexe.md/plan.md' } as ActivityRecord;
    const changed = { ...(LOG[0] as ActivityRecord), path: 'x\u2066y\u0007z\u0085.md', by: 'token e\u202Eve' } as ActivityRecord;
    const rows = activityRows([moved, changed], undefined);
    expect(rows[1]?.[3]).toBe('moved con/plan.md → a\\u202Eexe.md/plan.md');
    expect(rows[2]?.[3]).toBe('changed x\\u2066y\\u0007z\\u0085.md');
    expect(rows[2]?.[2]).toBe('token e\\u202Eve');
    for (const row of rows) expect(row.join(' ')).not.toMatch(/[\u0000-\u001f\u0080-\u009f\u202a-\u202e\u2066-\u2069]/u);
  });
});
