import { describe, expect, it } from 'vitest';
import { MAX_TASKS_PER_NOTE, sameTaskText, tasksOf, toggledTaskLine, type NoteTask } from '../../src/format/tasks.js';

/** A body and the tasks it holds, each written as only the keys it has. */
const cases: [name: string, body: string, expected: NoteTask[]][] = [
  ['an open task', '- [ ] buy milk\n', [{ line: 1, status: 'open', text: 'buy milk' }]],
  ['a done task', '- [x] buy milk', [{ line: 1, status: 'done', text: 'buy milk' }]],
  ['a done task, capital X', '* [X] buy milk', [{ line: 1, status: 'done', text: 'buy milk' }]],
  ['a cancelled task', '+ [-] buy milk', [{ line: 1, status: 'cancelled', text: 'buy milk' }]],
  ['another status is open', '- [/] half done\n- [>] later\n- [!] note', [
    { line: 1, status: 'open', text: 'half done' },
    { line: 2, status: 'open', text: 'later' },
    { line: 3, status: 'open', text: 'note' },
  ]],
  ['ordered items, dot and parenthesis', '1. [ ] one\n2) [x] two', [
    { line: 1, status: 'open', text: 'one' },
    { line: 2, status: 'done', text: 'two' },
  ]],
  ['nested and tab-indented items', '- [ ] parent\n  - [ ] child\n\t- [ ] tabbed', [
    { line: 1, status: 'open', text: 'parent' },
    { line: 2, status: 'open', text: 'child' },
    { line: 3, status: 'open', text: 'tabbed' },
  ]],
  ['in a block quote and a callout', '> - [ ] quoted\n\n> [!todo]\n> - [x] in a callout', [
    { line: 1, status: 'open', text: 'quoted' },
    { line: 4, status: 'done', text: 'in a callout' },
  ]],
  ['an empty task', '- [ ]', [{ line: 1, status: 'open', text: '' }]],
  ['lines count after frontmatter is split off, blank lines included', 'text\n\n- [ ] third', [{ line: 3, status: 'open', text: 'third' }]],
  ['CRLF and CR alone break lines as the outline counts them', 'a\r\n- [ ] two\rb\r- [ ] four', [
    { line: 2, status: 'open', text: 'two' },
    { line: 4, status: 'open', text: 'four' },
  ]],
  ['no space after the checkbox: no task', '- [ ]buy', []],
  ['no list marker: no task', '[ ] buy\n-[ ] buy', []],
  ['two characters in the box: no task', '- [xx] buy', []],
  ['a link in brackets is no checkbox', '- [a link](x) here', []],
  ['in fenced code: none', '```\n- [ ] code\n```\n~~~md\n- [ ] tilde\n~~~', []],
  ['in indented code: none', 'para\n\n    - [ ] code', []],
  ['in an HTML comment: none', '<!--\n- [ ] hidden\n-->\n- [ ] shown', [{ line: 4, status: 'open', text: 'shown' }]],
  ['in a %% comment: none', '%%\n- [ ] hidden\n%%\n- [ ] shown', [{ line: 4, status: 'open', text: 'shown' }]],
  ['in math: none', '$$\n- [ ] x\n$$', []],
  ['a stray %% hides nothing', '100%% sure\n- [ ] shown', [{ line: 2, status: 'open', text: 'shown' }]],
  ['a comment inside the line is not text', '- [ ] call %%secret%% Ann <!-- x -->', [{ line: 1, status: 'open', text: 'call Ann' }]],
  ['emoji dates', '- [ ] pay rent 📅 2026-12-10 ⏳ 2026-12-01 🛫 2026-11-30 ➕ 2026-11-01', [
    { line: 1, status: 'open', text: 'pay rent', due: '2026-12-10', scheduled: '2026-12-01', start: '2026-11-30', created: '2026-11-01', fields: 'emoji' },
  ]],
  ['emoji done and cancelled dates', '- [x] a ✅ 2026-12-11\n- [-] b ❌ 2026-12-12', [
    { line: 1, status: 'done', text: 'a', done: '2026-12-11', fields: 'emoji' },
    { line: 2, status: 'cancelled', text: 'b', cancelled: '2026-12-12', fields: 'emoji' },
  ]],
  ['the other due and scheduled emoji, with a variation selector', '- [ ] a 📆 2026-01-02\n- [ ] b 🗓️ 2026-01-03\n- [ ] c ⌛ 2026-01-04', [
    { line: 1, status: 'open', text: 'a', due: '2026-01-02', fields: 'emoji' },
    { line: 2, status: 'open', text: 'b', due: '2026-01-03', fields: 'emoji' },
    { line: 3, status: 'open', text: 'c', scheduled: '2026-01-04', fields: 'emoji' },
  ]],
  ['priorities', '- [ ] a 🔺\n- [ ] b ⏫\n- [ ] c 🔼\n- [ ] d 🔽\n- [ ] e ⏬️', [
    { line: 1, status: 'open', text: 'a', priority: 'highest', fields: 'emoji' },
    { line: 2, status: 'open', text: 'b', priority: 'high', fields: 'emoji' },
    { line: 3, status: 'open', text: 'c', priority: 'medium', fields: 'emoji' },
    { line: 4, status: 'open', text: 'd', priority: 'low', fields: 'emoji' },
    { line: 5, status: 'open', text: 'e', priority: 'lowest', fields: 'emoji' },
  ]],
  ['recurrence stays in the text', '- [ ] water plants 🔁 every week 📅 2026-12-10', [
    { line: 1, status: 'open', text: 'water plants 🔁 every week', due: '2026-12-10', fields: 'emoji' },
  ]],
  ['an emoji without a date stays text', '- [ ] see 📅 soon', [{ line: 1, status: 'open', text: 'see 📅 soon' }]],
  ['Dataview fields, square and round', '- [ ] a [due:: 2026-12-10] (scheduled:: 2026-12-01) [start:: 2026-11-30]', [
    { line: 1, status: 'open', text: 'a', due: '2026-12-10', scheduled: '2026-12-01', start: '2026-11-30', fields: 'dataview' },
  ]],
  ['Dataview completion, a time, and a priority', '- [x] a [completion:: 2026-12-11T10:00] [priority:: High]', [
    { line: 1, status: 'done', text: 'a', done: '2026-12-11', priority: 'high', fields: 'dataview' },
  ]],
  ['other inline fields and fields without a date stay text', '- [ ] a [owner:: Ann] [due:: someday]', [
    { line: 1, status: 'open', text: 'a [owner:: Ann] [due:: someday]' },
  ]],
  ['the first of a repeated field wins', '- [ ] a 📅 2026-01-01 📅 2026-02-02', [{ line: 1, status: 'open', text: 'a', due: '2026-01-01', fields: 'emoji' }]],
  ['its own tags, lower-case, kept in the text', '- [ ] ask #Work/Team about `#code` #q4', [
    { line: 1, status: 'open', text: 'ask #Work/Team about `#code` #q4', tags: ['#work/team', '#q4'] },
  ]],
  ['a trailing block id is not text', '- [ ] ship it 📅 2026-12-10 ^abc-1', [{ line: 1, status: 'open', text: 'ship it', due: '2026-12-10', fields: 'emoji' }]],
  ['whitespace collapses', '- [ ]   lots   of\tspace  ', [{ line: 1, status: 'open', text: 'lots of space' }]],
];

describe('tasksOf', () => {
  it.each(cases)('%s', (_name, body, expected) => {
    expect(tasksOf(body)).toEqual(expected);
  });

  it('keeps at most MAX_TASKS_PER_NOTE tasks of a note', () => {
    expect(tasksOf('- [ ] t\n'.repeat(MAX_TASKS_PER_NOTE + 5))).toHaveLength(MAX_TASKS_PER_NOTE);
  });
});

/** A task line, done or not, and the line after the toggle on 2026-12-20. */
const toggles: [name: string, line: string, done: boolean, expected: string | undefined][] = [
  ['tick a plain task: no date', '- [ ] buy milk', true, '- [x] buy milk'],
  ['tick an emoji task: the done date at the end', '- [ ] pay 📅 2026-12-10', true, '- [x] pay 📅 2026-12-10 ✅ 2026-12-20'],
  ['tick: the date goes before a block id and trailing spaces', '  > 1. [ ] pay ⏫ ^id-1  ', true, '  > 1. [x] pay ⏫ ✅ 2026-12-20 ^id-1  '],
  ['tick a Dataview task', '* [ ] pay [due:: 2026-12-10]', true, '* [x] pay [due:: 2026-12-10] [completion:: 2026-12-20]'],
  ['tick a task already holding a done date: kept as it is', '- [ ] a ✅ 2026-01-01', true, '- [x] a ✅ 2026-01-01'],
  ['tick a cancelled task', '- [-] a 📅 2026-12-10', true, '- [x] a 📅 2026-12-10 ✅ 2026-12-20'],
  ['tick an in-progress task', '- [/] a', true, '- [x] a'],
  ['tick a cancelled task with its date: the date goes', '- [-] a ❌ 2026-12-01 📅 2026-12-10', true, '- [x] a 📅 2026-12-10 ✅ 2026-12-20'],
  ['untick a cancelled Dataview task: the date goes', '- [-] a [cancelled:: 2026-12-01] [due:: 2026-12-10]', false, '- [ ] a [due:: 2026-12-10]'],
  ['tick a done task: unchanged', '- [X] a', true, '- [X] a'],
  ['untick an emoji task: its done date goes', '- [x] pay 📅 2026-12-10 ✅ 2026-12-11 ^b', false, '- [ ] pay 📅 2026-12-10 ^b'],
  ['untick a Dataview task: its completion goes', '- [x] pay [due:: 2026-12-10] (completion:: 2026-12-11)', false, '- [ ] pay [due:: 2026-12-10]'],
  ['untick an open task: unchanged', '- [ ] a', false, '- [ ] a'],
  ['untick an in-progress task', '- [/] a', false, '- [ ] a'],
  ['an empty task', '- [ ]', true, '- [x]'],
  ['no task', 'just text', true, undefined],
];

describe('toggledTaskLine', () => {
  it.each(toggles)('%s', (_name, line, done, expected) => {
    expect(toggledTaskLine(line, done, '2026-12-20')).toBe(expected);
  });
});

describe('sameTaskText', () => {
  it.each([
    ['buy milk', ' buy  milk ', true],
    ['buy milk', 'Buy milk', false],
    ['buy milk', 'buy', false],
  ] as const)('%s / %s', (a, b, same) => {
    expect(sameTaskText(a, b)).toBe(same);
  });
});
