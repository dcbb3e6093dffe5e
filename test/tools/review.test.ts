import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { connect, copySampleVault, removeDir, TestClock, writeVault, type Harness, type HarnessOptions } from '../support/helpers.js';
import { teammateNoteId } from '../../src/format/identity.js';

interface DueItem {
  id: string;
  title: string;
  text: string;
  due_at: string;
  interval_days: number;
  repetitions: number;
  is_new: boolean;
}
interface Due {
  items: DueItem[];
  due_count: number;
}
interface Graded {
  id: string;
  grade: number;
  due_at: string;
  interval_days: number;
  ease_factor: number;
  repetitions: number;
}

const MIN = 60 * 1000;
const DAY = 24 * 60 * MIN;
const T0 = '2026-11-30T12:00:00+00:00';

const ID = {
  overdue10: '00000000-0000-4000-8000-00000000000a',
  overdue3: '00000000-0000-4000-8000-00000000000b',
  oldNew: '00000000-0000-4000-8000-00000000000c',
  recentNew: '00000000-0000-4000-8000-00000000000d',
  future: '00000000-0000-4000-8000-00000000000e',
  futureNew: '00000000-0000-4000-8000-00000000000f',
  study: '00000000-0000-4000-8000-000000000010',
  plain: '00000000-0000-4000-8000-000000000011',
  work: '00000000-0000-4000-8000-000000000012',
};

const OLD_NEW = `---
id: ${ID.oldNew}
title: What is the capital of Portugal?
created: 2026-11-01T09:00:00+00:00
updated: 2026-11-02T09:00:00+00:00
# a comment the server must keep
extra: value
---
**Lisbon.** #flashcards
`;

const VAULT: Record<string, string> = {
  '.dexi/settings.json': JSON.stringify({ reviewTags: ['#flashcards', '#spanish'], noteCap: null }),
  'Cards/Overdue ten days.md': `---
id: ${ID.overdue10}
created: 2026-10-01T09:00:00+00:00
updated: 2026-10-01T09:00:00+00:00
review:
  due: 2026-11-20T12:00:00+00:00
  interval: 6
  ease: 2.5
  repetitions: 2
---
Ten days overdue. #flashcards
`,
  'Cards/Overdue three days.md': `---
id: ${ID.overdue3}
created: 2026-10-02T09:00:00+00:00
updated: 2026-10-02T09:00:00+00:00
review:
  due: 2026-11-27T12:00:00+00:00
  interval: 1
  ease: 2.36
  repetitions: 1
---
Three days overdue. #spanish
`,
  'Cards/Old new.md': OLD_NEW,
  'Cards/Recent new.md': `---
id: ${ID.recentNew}
created: 2026-11-20T09:00:00+00:00
updated: 2026-11-20T09:00:00+00:00
---
A nested deck tag counts. #flashcards/spanish
`,
  'Cards/Future.md': `---
id: ${ID.future}
created: 2026-10-03T09:00:00+00:00
updated: 2026-10-03T09:00:00+00:00
review:
  due: 2026-12-10T08:00:00+00:00
  interval: 15
  ease: 2.6
  repetitions: 3
---
Not due yet. #flashcards
`,
  'Cards/Future new.md': `---
id: ${ID.futureNew}
created: 2026-12-05T09:00:00+00:00
updated: 2026-12-05T09:00:00+00:00
---
Created after now. #flashcards
`,
  'Other/Study.md': `---
id: ${ID.study}
created: 2026-01-01T09:00:00+00:00
updated: 2026-01-01T09:00:00+00:00
---
Not a card: a longer word is another tag. #spanish-study
`,
  'Other/Plain.md': `---
id: ${ID.plain}
created: 2026-01-01T09:00:00+00:00
updated: 2026-01-01T09:00:00+00:00
---
Just a note about #ml.
`,
  'Work/Card.md': `---
id: ${ID.work}
created: 2026-11-15T09:00:00+00:00
updated: 2026-11-15T09:00:00+00:00
---
A card in another folder. #flashcards #work
`,
};

const ORDER = [ID.overdue10, ID.overdue3, ID.oldNew, ID.work, ID.recentNew];

let h: Harness;
let dir: string;

async function reconnect(options: Omit<HarnessOptions, 'dir' | 'clock'> = {}): Promise<void> {
  const clock = h.clock;
  await h.close();
  h = await connect({ dir, clock, ...options });
}

async function editOnDisk(rel: string, change: (text: string) => string): Promise<void> {
  const file = path.join(dir, rel);
  await writeFile(file, change(await readFile(file, 'utf8')));
  await h.runtime.own.refresh(rel);
}

const file = (rel: string) => readFile(path.join(dir, rel), 'utf8');
const due = (limit = 50) => h.ok<Due>('get_due_reviews', { limit });
const grade = (id: string, value: number) => h.ok<Graded>('grade_review', { note_id: id, grade: value });

async function openFixture(): Promise<void> {
  dir = await writeVault(VAULT);
  h = await connect({ dir });
}
async function closeFixture(): Promise<void> {
  await h.close();
  await removeDir(dir);
}

/**
 * The tests of a block that only read share one vault, runtime and client
 * (opening them is most of a test's time); the clock is set back before each.
 */
function readingTests(): void {
  beforeAll(openFixture);
  afterAll(closeFixture);
  beforeEach(() => {
    h.clock.current = new TestClock().current;
  });
}

/** The tests of a block that write get a fresh vault each. */
function writingTests(): void {
  beforeEach(openFixture);
  afterEach(closeFixture);
}

/** A fresh vault for one test that reconnects in a block of reading tests: the shared one is back after it. */
async function freshFixture(): Promise<void> {
  const shared = { h, dir };
  await openFixture();
  onTestFinished(async () => {
    await closeFixture();
    ({ h, dir } = shared);
  });
}

describe('tools/list', () => {
  readingTests();

  it('lists both review tools with schemas, scopes and annotations', async () => {
    const { tools } = await h.client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    const get = byName.get_due_reviews;
    const gradeTool = byName.grade_review;
    expect(get?.annotations?.readOnlyHint).toBe(true);
    expect(gradeTool?.annotations?.readOnlyHint).toBe(false);
    expect(gradeTool?.annotations?.idempotentHint).toBe(false);
    expect(get?.description).toContain('Quiz the person on the title/topic before revealing the body, then call grade_review');
    expect(gradeTool?.description).toMatch(/1 = Again.*10 minutes.*2 = Hard.*3 = Good.*4 = Easy/s);
    expect(gradeTool?.description).toContain('Note is not in review');
    expect(get?.inputSchema.properties?.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 50, default: 10 });
    expect(gradeTool?.inputSchema.required).toEqual(['note_id', 'grade']);
    expect(gradeTool?.inputSchema.properties?.grade).toMatchObject({ type: 'integer', minimum: 1, maximum: 4 });
    for (const tool of [get, gradeTool]) {
      for (const [name, schema] of Object.entries(tool?.inputSchema.properties ?? {})) {
        expect((schema as { description?: string }).description, `${tool?.name}.${name}`).toBeTruthy();
      }
    }
    const item = (get?.outputSchema?.properties?.items as { items: { properties: Record<string, unknown> } }).items.properties;
    expect(Object.keys(item).sort()).toEqual(['due_at', 'id', 'interval_days', 'is_new', 'repetitions', 'text', 'title']);
    expect(Object.keys(gradeTool?.outputSchema?.properties ?? {}).sort()).toEqual(['due_at', 'ease_factor', 'grade', 'id', 'interval_days', 'repetitions']);
  });
});

describe('get_due_reviews', () => {
  readingTests();

  it('lists reviewed cards most overdue first, then new cards oldest first', async () => {
    const result = await h.ok<Due>('get_due_reviews');
    expect(result.items.map((item) => item.id)).toEqual(ORDER);
    expect(result.due_count).toBe(5);
    expect(result.items[0]).toEqual({
      id: ID.overdue10,
      title: 'Overdue ten days',
      text: 'Ten days overdue. #flashcards\n',
      due_at: '2026-11-20T12:00:00+00:00',
      interval_days: 6,
      repetitions: 2,
      is_new: false,
    });
    expect(result.items[2]).toEqual({
      id: ID.oldNew,
      title: 'What is the capital of Portugal?',
      text: '**Lisbon.** #flashcards\n',
      due_at: '2026-11-01T09:00:00+00:00',
      interval_days: 0,
      repetitions: 0,
      is_new: true,
    });
    expect(result.items.map((item) => item.is_new)).toEqual([false, false, true, true, true]);
  });

  it('counts every due card whatever the limit', async () => {
    const result = await due(2);
    expect(result.items.map((item) => item.id)).toEqual([ID.overdue10, ID.overdue3]);
    expect(result.due_count).toBe(5);
  });

  it('includes cards due exactly now and leaves out future ones until they are due', async () => {
    h.clock.current = new Date('2026-12-05T09:00:00Z');
    expect((await due()).items.map((item) => item.id)).toEqual([...ORDER.slice(0, 2), ID.oldNew, ID.work, ID.recentNew, ID.futureNew]);
    h.clock.current = new Date('2026-12-10T08:00:00Z');
    const later = await due();
    expect(later.items.map((item) => item.id).slice(0, 3)).toEqual([ID.overdue10, ID.overdue3, ID.future]);
    expect(later.due_count).toBe(7);
  });

  it('rejects a limit outside 1–50 plainly', async () => {
    expect(await h.fail('get_due_reviews', { limit: 0 })).toBe('limit must be between 1 and 50');
    expect(await h.fail('get_due_reviews', { limit: 51 })).toBe('limit must be between 1 and 50');
    expect(await h.fail('get_due_reviews', { limit: 1.5 })).toBe('limit must be a whole number');
  });

  it('takes the deck tags from settings.reviewTags', async () => {
    await freshFixture();
    await reconnect({ settings: { reviewTags: ['#spanish'] } });
    const result = await due();
    expect(result.items.map((item) => item.id)).toEqual([ID.overdue3]);
    expect(await h.fail('grade_review', { note_id: ID.oldNew, grade: 3 })).toBe('Note is not in review');
    await reconnect({ settings: { reviewTags: [] } });
    expect(await due()).toEqual({ items: [], due_count: 0 });
  });

  it('counts only the reviews inside a folder boundary', async () => {
    await freshFixture();
    await reconnect({ folder: 'Cards' });
    const result = await due();
    expect(result.items.map((item) => item.id)).toEqual([ID.overdue10, ID.overdue3, ID.oldNew, ID.recentNew]);
    expect(result.due_count).toBe(4);
    expect(await h.fail('grade_review', { note_id: ID.work, grade: 3 })).toBe('Note not found');
  });

  it('counts only the reviews inside a tag boundary', async () => {
    await freshFixture();
    await reconnect({ tag: '#work' });
    expect((await due()).items.map((item) => item.id)).toEqual([ID.work]);
    expect(await h.fail('grade_review', { note_id: ID.overdue10, grade: 3 })).toBe('Note not found');
    await reconnect({ tag: '#spanish' });
    // #flashcards/spanish is not inside the #spanish boundary.
    expect((await due()).items.map((item) => item.id)).toEqual([ID.overdue3]);
  });

  it('never lists a teammate\'s shared cards', async () => {
    await freshFixture();
    const teammate = await writeVault({
      'Shared card.md': `---\nid: 00000000-0000-4000-8000-0000000000aa\nshared: true\ncreated: 2026-01-01T00:00:00+00:00\n---\nTheir card. #flashcards\n`,
    });
    await reconnect({ shared: [{ owner: 'bob', dir: teammate }] });
    const theirs = teammateNoteId('bob', '00000000-0000-4000-8000-0000000000aa');
    expect(await h.ok('get_note', { note_id: theirs })).toMatchObject({ shared: true });
    expect((await due()).items.map((item) => item.id)).toEqual(ORDER);
    expect(await h.fail('grade_review', { note_id: theirs, grade: 3 })).toBe('Note is not in review');
    await reconnect();
    await removeDir(teammate);
  });
});

describe('grade_review', () => {
  writingTests();

  it('walks Good, Good, Easy to 1, 6 and 15 days with ease 2.5, 2.5, 2.6', async () => {
    const first = await grade(ID.oldNew, 3);
    expect(first).toEqual({ id: ID.oldNew, grade: 3, due_at: '2026-12-01T12:00:00+00:00', interval_days: 1, ease_factor: 2.5, repetitions: 1 });
    expect((await due()).items.map((item) => item.id)).not.toContain(ID.oldNew);

    h.clock.advance(DAY);
    const again = (await due()).items.find((item) => item.id === ID.oldNew);
    expect(again).toMatchObject({ is_new: false, interval_days: 1, repetitions: 1, due_at: '2026-12-01T12:00:00+00:00' });
    const second = await grade(ID.oldNew, 3);
    expect(second).toMatchObject({ due_at: '2026-12-07T12:00:00+00:00', interval_days: 6, ease_factor: 2.5, repetitions: 2 });

    h.clock.advance(6 * DAY);
    const third = await grade(ID.oldNew, 4);
    expect(third).toMatchObject({ due_at: '2026-12-22T12:00:00+00:00', interval_days: 15, ease_factor: 2.6, repetitions: 3 });
    expect(await file('Cards/Old new.md')).toContain('review:\n  due: 2026-12-22T12:00:00+00:00\n  interval: 15\n  ease: 2.6\n  repetitions: 3\n');
  });

  it('brings a card graded Again back in 10 minutes with interval 0', async () => {
    const result = await grade(ID.overdue10, 1);
    expect(result).toEqual({ id: ID.overdue10, grade: 1, due_at: '2026-11-30T12:10:00+00:00', interval_days: 0, ease_factor: 1.96, repetitions: 0 });
    h.clock.advance(9 * MIN);
    expect((await due()).items.map((item) => item.id)).not.toContain(ID.overdue10);
    h.clock.advance(MIN);
    const back = (await due()).items.find((item) => item.id === ID.overdue10);
    expect(back).toMatchObject({ is_new: false, interval_days: 0, repetitions: 0, due_at: '2026-11-30T12:10:00+00:00' });
  });

  it('writes only the review block, leaving every other byte and updated as they were', async () => {
    const before = await file('Cards/Old new.md');
    await grade(ID.oldNew, 3);
    const block = 'review:\n  due: 2026-12-01T12:00:00+00:00\n  interval: 1\n  ease: 2.5\n  repetitions: 1\n';
    expect(await file('Cards/Old new.md')).toBe(before.replace('extra: value\n', `extra: value\n${block}`));
    const note = await h.ok<{ updated: string; text: string }>('get_note', { note_id: ID.oldNew });
    expect(note.updated).toBe('2026-11-02T09:00:00+00:00');

    // A second grade replaces the block in place.
    const overdueBefore = await file('Cards/Overdue ten days.md');
    await grade(ID.overdue10, 3);
    expect(await file('Cards/Overdue ten days.md')).toBe(
      overdueBefore.replace(
        'review:\n  due: 2026-11-20T12:00:00+00:00\n  interval: 6\n  ease: 2.5\n  repetitions: 2\n',
        'review:\n  due: 2026-12-15T12:00:00+00:00\n  interval: 15\n  ease: 2.5\n  repetitions: 3\n',
      ),
    );
  });

  it('adds no updated key to a card whose frontmatter has none: its updated is the file time, which the grading moves', async () => {
    await writeFile(path.join(dir, 'Cards/No dates.md'), `---\nid: 00000000-0000-4000-8000-0000000000bb\ncreated: 2026-11-25T00:00:00+00:00\n---\nNo updated key. #flashcards\n`);
    await h.runtime.own.refresh('Cards/No dates.md');
    const before = await h.ok<{ updated: string }>('get_note', { note_id: '00000000-0000-4000-8000-0000000000bb' });
    h.clock.advance(DAY);
    await grade('00000000-0000-4000-8000-0000000000bb', 4);
    const after = await h.ok<{ updated: string; text: string }>('get_note', { note_id: '00000000-0000-4000-8000-0000000000bb' });
    const content = await file('Cards/No dates.md');
    expect(content).not.toMatch(/^updated:/m);
    expect(content).toMatch(/^review:\n {2}due: /m);
    expect(Date.parse(after.updated)).toBeGreaterThanOrEqual(Date.parse(before.updated));
    expect(Date.parse(after.updated)).toBe(Math.floor((await stat(path.join(dir, 'Cards/No dates.md'))).mtimeMs / 1000) * 1000);
    expect(after.text).toBe('No updated key. #flashcards\n');
  });

  it.each([
    [{ note_id: ID.plain, grade: 3 }, 'Note is not in review'],
    [{ note_id: ID.study, grade: 3 }, 'Note is not in review'],
    [{ note_id: 'nope', grade: 3 }, 'Note not found'],
    [{ note_id: ID.oldNew, grade: 0 }, 'grade must be between 1 and 4'],
    [{ note_id: ID.oldNew, grade: 5 }, 'grade must be between 1 and 4'],
    [{ note_id: ID.oldNew, grade: 2.5 }, 'grade must be a whole number'],
    [{ note_id: ID.oldNew }, 'grade is required'],
    [{ grade: 3 }, 'note_id is required'],
  ])('rejects %j plainly', async (args, message) => {
    const before = await file('Cards/Old new.md');
    expect(await h.fail('grade_review', args)).toBe(message);
    expect(await file('Cards/Old new.md')).toBe(before);
  });

  it('is not listed on a notes:read connection, and a call names notes:write', async () => {
    await reconnect({ scopes: ['notes:read'] });
    const names = (await h.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('get_due_reviews');
    expect(names).not.toContain('grade_review');
    const message = await h.fail('grade_review', { note_id: ID.oldNew, grade: 3 });
    expect(message).toContain('notes:write');
    expect(message).not.toMatch(/MCP error|-32602/);
    expect(await file('Cards/Old new.md')).toBe(OLD_NEW);
    expect((await due()).due_count).toBe(5);
  });
});

describe('schedules and edits', () => {
  writingTests();

  it('keeps the schedule through an edit of the text in an editor and through update_note', async () => {
    await grade(ID.oldNew, 3);
    await editOnDisk('Cards/Old new.md', (text) => text.replace('**Lisbon.**', '**Lisbon**, on the Tagus.'));
    h.clock.advance(DAY);
    const card = (await due()).items.find((item) => item.id === ID.oldNew);
    expect(card).toMatchObject({ text: '**Lisbon**, on the Tagus. #flashcards\n', interval_days: 1, repetitions: 1, is_new: false });
    await h.ok('update_note', { note_id: ID.oldNew, text: 'Since 1255.', mode: 'append' });
    expect(await file('Cards/Old new.md')).toContain('review:\n  due: 2026-12-01T12:00:00+00:00\n  interval: 1\n');
    expect(await grade(ID.oldNew, 3)).toMatchObject({ interval_days: 6, repetitions: 2 });
  });

  it('drops a card whose deck tag is removed and brings it back with its old state when the tag returns', async () => {
    const rel = 'Cards/Overdue ten days.md';
    await editOnDisk(rel, (text) => text.replace(' #flashcards', ''));
    expect((await due()).items.map((item) => item.id)).toEqual([ID.overdue3, ID.oldNew, ID.work, ID.recentNew]);
    expect(await h.fail('grade_review', { note_id: ID.overdue10, grade: 3 })).toBe('Note is not in review');
    expect(await file(rel)).toContain('review:\n  due: 2026-11-20T12:00:00+00:00\n  interval: 6\n  ease: 2.5\n  repetitions: 2\n');

    await editOnDisk(rel, (text) => text.replace('Ten days overdue.', 'Ten days overdue. #flashcards/ml'));
    const back = await due();
    expect(back.items[0]).toMatchObject({ id: ID.overdue10, due_at: '2026-11-20T12:00:00+00:00', interval_days: 6, repetitions: 2, is_new: false });
    expect(await grade(ID.overdue10, 3)).toMatchObject({ interval_days: 15, repetitions: 3, ease_factor: 2.5 });
  });

  it('refuses a card whose deck tag was just removed on disk, before the vault has caught up', async () => {
    await writeFile(path.join(dir, 'Cards/Old new.md'), OLD_NEW.replace(' #flashcards', ''));
    expect(await h.fail('grade_review', { note_id: ID.oldNew, grade: 3 })).toBe('Note is not in review');
    expect(await file('Cards/Old new.md')).toBe(OLD_NEW.replace(' #flashcards', ''));
  });

  it('keeps the schedule across a restart', async () => {
    await grade(ID.oldNew, 3);
    await grade(ID.overdue10, 1);
    const before = await due();
    await reconnect();
    expect(await due()).toEqual(before);
    h.clock.advance(DAY);
    const later = await due();
    expect(later.items.slice(0, 2).map((item) => [item.id, item.interval_days, item.repetitions])).toEqual([
      [ID.overdue3, 1, 1],
      [ID.overdue10, 0, 0],
    ]);
    expect(later.items.find((item) => item.id === ID.oldNew)).toMatchObject({ is_new: false, interval_days: 1, repetitions: 1 });
  });
});

describe('a review session on the sample vault', () => {
  writingTests();

  it('lists due cards, grades each, and keeps the schedule over a restart', async () => {
    await h.close();
    await removeDir(dir);
    dir = await copySampleVault();
    const clock = new TestClock(new Date(T0));
    h = await connect({ dir, clock });

    const first = await due();
    expect(first.due_count).toBe(9);
    expect(first.items.map((item) => item.title)).toEqual([
      'What does the temperature in a softmax do?',
      '¿Qué significa «madrugar»?',
      'What causes blossom end rot on tomatoes?',
      'Why is dot-product attention scaled by 1/√d_k?',
      'Which Lisbon tram climbs through Alfama towards the castle?',
      'On the violin, where is third position?',
      'In LoRA, which weights are trained?',
      '¿Qué es la «sobremesa»?',
      '¿Qué significa «aprovechar»?',
    ]);
    expect(first.items.map((item) => item.is_new)).toEqual([false, false, true, true, true, true, true, true, true]);
    expect(first.items[0]?.text).toContain('The logits are divided by the temperature T');
    const limited = await due(3);
    expect(limited.items).toHaveLength(3);
    expect(limited.due_count).toBe(9);

    const files = new Map<string, string>();
    for (const item of first.items) {
      const gradeValue = item.title.includes('madrugar') ? 1 : 3;
      const result = await grade(item.id, gradeValue);
      files.set(item.id, result.due_at);
    }
    expect(files.get(first.items[0]?.id ?? '')).toBe('2026-12-15T12:00:00+00:00'); // round(6 × 2.5)
    expect(await due()).toEqual({ items: [], due_count: 0 });

    const journal = await readFile(path.join(dir, 'Journal/2026-11-12.md'), 'utf8');
    expect(journal).not.toContain('review:');

    clock.advance(10 * MIN);
    const afterAgain = await due();
    expect(afterAgain.items.map((item) => item.title)).toEqual(['¿Qué significa «madrugar»?']);

    await h.close();
    h = await connect({ dir, clock });
    expect(await due()).toEqual(afterAgain);

    clock.advance(DAY);
    const nextDay = await due();
    expect(nextDay.due_count).toBe(8);
    expect(nextDay.items[0]).toMatchObject({ title: '¿Qué significa «madrugar»?', interval_days: 0, repetitions: 0 });
    expect(nextDay.items.slice(1).every((item) => !item.is_new && item.interval_days === 1 && item.repetitions === 1)).toBe(true);
    expect(nextDay.items.map((item) => item.title)).not.toContain('What does the temperature in a softmax do?');
  });
});
