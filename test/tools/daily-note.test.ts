import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import moment from 'moment';
import { describe, expect, it } from 'vitest';
import { connect, copySampleVault, freshVaults, removeDir, type Harness, type HarnessOptions } from '../support/helpers.js';
import { activityFile, parseActivity } from '../../src/vault/record/activity.js';
import { undo } from '../../src/vault/record/undo.js';

const TEMPLATE = '---\ntags: [daily]\nmood:\n---\n# {{title}}\n\nMade {{date:dddd}} at {{time}}. Yesterday: [[{{date-1d}}]]\n';
const BY_HAND = 'Walked by the river.\n';

const VAULT: Record<string, string> = {
  'Journal/2026-11-29.md': BY_HAND,
  'Templates/Daily.md': TEMPLATE,
  'Work/Plan.md': 'The plan.\n',
  '.obsidian/daily-notes.json': JSON.stringify({ folder: 'Journal', format: 'YYYY-MM-DD', template: 'Templates/Daily' }),
};

interface FullNote {
  id: string;
  title: string;
  text: string;
  tags: string[];
  folder?: string;
  properties?: Record<string, unknown>;
}

const vaults = freshVaults();
const harness = (files: Record<string, string> = VAULT, options: Omit<HarnessOptions, 'dir'> = {}): Promise<Harness> => vaults.harness(files, options);

const file = (h: Harness, vaultPath: string): Promise<string> => readFile(path.join(h.dir, vaultPath), 'utf8');
const exists = (h: Harness, vaultPath: string): Promise<boolean> => stat(path.join(h.dir, vaultPath)).then(() => true, () => false);
/** The harness clock's time, as the server writes it and as the template's {{time}} gives it (server time zone). */
const nowIso = (h: Harness): string => moment(h.clock.now()).format('YYYY-MM-DDTHH:mm:ssZ');
const nowTime = (h: Harness): string => moment(h.clock.now()).format('HH:mm');
// The harness clock stands at 2026-11-30 12:00 UTC, the same calendar day in every zone from UTC-11 to UTC+11.
const TODAY = '2026-11-30';
const MISSING_TODAY = `No daily note for ${TODAY}; call get_daily_note again with create: true to make it.`;

describe('get_daily_note finds the daily note', () => {
  it('finds a note the person made by hand, by date and by yesterday, in full', async () => {
    const h = await harness();
    const note = await h.ok<FullNote>('get_daily_note', { date: '2026-11-29' });
    expect(note).toMatchObject({ title: '2026-11-29', folder: 'Journal', text: BY_HAND });
    expect(await h.ok<FullNote>('get_daily_note', { date: 'yesterday' })).toEqual(note);
    // As get_note gives it.
    expect(await h.ok<FullNote>('get_note', { note_id: note.id })).toEqual(note);
  });

  it('finds the sample vault\'s journal entries through its daily-notes.json', async () => {
    const h = await connect({ dir: await copySampleVault() });
    try {
      const note = await h.ok<FullNote>('get_daily_note', { date: '2026-11-12' });
      expect(note).toMatchObject({ id: '0b900b4d-4488-4c13-84bf-e70d822611a2', folder: 'Journal' });
      expect(await h.fail('get_daily_note', { date: '2026-11-13' })).toBe('No daily note for 2026-11-13; call get_daily_note again with create: true to make it.');
    } finally {
      await h.close();
      await removeDir(h.dir);
    }
  });

  it('finds a note written a moment ago, before the watcher tells of it', async () => {
    const h = await harness();
    await writeFile(path.join(h.dir, 'Journal', `${TODAY}.md`), 'Just now.\n');
    expect((await h.ok<FullNote>('get_daily_note', {})).text).toBe('Just now.\n');
  });

  it('says a missing note is missing, and what to do, writing nothing', async () => {
    const h = await harness();
    expect(await h.fail('get_daily_note', {})).toBe(MISSING_TODAY);
    expect(await h.fail('get_daily_note', { date: 'tomorrow', create: false })).toBe('No daily note for 2026-12-01; call get_daily_note again with create: true to make it.');
    expect(await exists(h, `Journal/${TODAY}.md`)).toBe(false);
  });

  it('refuses a date it cannot read', async () => {
    const h = await harness();
    for (const date of ['2026-02-30', '30/11/2026', 'next monday']) {
      expect(await h.fail('get_daily_note', { date })).toBe('date must be a day written YYYY-MM-DD (e.g. 2026-12-02), or today, yesterday or tomorrow.');
    }
    expect(await h.fail('get_daily_note', { create: 'yes' })).toMatch(/create must be true or false/);
  });
});

describe('get_daily_note creates the daily note', () => {
  it('makes it from the template, filled as Obsidian fills it, keeping the template\'s properties', async () => {
    const h = await harness();
    const note = await h.ok<FullNote>('get_daily_note', { create: true });
    const body = `# ${TODAY}\n\nMade Monday at ${nowTime(h)}. Yesterday: [[2026-11-29]]\n`;
    expect(await file(h, `Journal/${TODAY}.md`)).toBe(`---\nid: ${note.id}\ntags: [daily]\nmood:\ncreated: ${nowIso(h)}\nupdated: ${nowIso(h)}\n---\n${body}`);
    expect(note).toMatchObject({ title: TODAY, folder: 'Journal', text: body, tags: ['#daily'] });
    expect(note.properties).toEqual({ tags: ['daily'], mood: null, created: nowIso(h), updated: nowIso(h) });
    // Found from then on, and not made twice.
    expect((await h.ok<FullNote>('get_daily_note', { date: TODAY })).id).toBe(note.id);
    expect((await h.ok<FullNote>('get_daily_note', { create: true })).id).toBe(note.id);
    // The template itself is unchanged.
    expect(await file(h, 'Templates/Daily.md')).toBe(TEMPLATE);
  });

  it('does not make a note that already exists by hand', async () => {
    const h = await harness();
    const note = await h.ok<FullNote>('get_daily_note', { date: '2026-11-29', create: true });
    expect(note.text).toBe(BY_HAND);
    expect(await file(h, 'Journal/2026-11-29.md')).toBe(BY_HAND);
  });

  it('is recorded as one create, and undone by the record', async () => {
    const h = await harness();
    const note = await h.ok<FullNote>('get_daily_note', { create: true });
    expect(parseActivity(await readFile(activityFile(h.dir), 'utf8'))).toEqual([
      expect.objectContaining({ tool: 'get_daily_note', by: 'stdio', action: 'created', id: note.id, path: `Journal/${TODAY}.md` }),
    ]);
    await undo(h.runtime.activity, { last: true });
    expect(await exists(h, `Journal/${TODAY}.md`)).toBe(false);
  });

  it('follows the Periodic Notes daily settings when there is no daily-notes.json, folders in the format included', async () => {
    const periodic = { showGettingStartedBanner: false, daily: { enabled: true, folder: 'Periodic', format: 'YYYY/MM/DD', template: 'Templates/Daily.md' } };
    const h = await harness({ 'Templates/Daily.md': '{{date}} is {{title}}\n', '.obsidian/plugins/periodic-notes/data.json': JSON.stringify(periodic) });
    const note = await h.ok<FullNote>('get_daily_note', { create: true });
    expect(note).toMatchObject({ title: '30', folder: 'Periodic/2026/11', text: '2026/11/30 is 30\n' });
    expect(await file(h, 'Periodic/2026/11/30.md')).toContain('---\n2026/11/30 is 30\n');
  });

  it('without settings, makes YYYY-MM-DD at the top level with no template; a settings file that does not parse is the same', async () => {
    const vaults: Record<string, string>[] = [{ 'Note.md': 'x\n' }, { 'Note.md': 'x\n', '.obsidian/daily-notes.json': '{"folder": "Journal",' }];
    for (const files of vaults) {
      const h = await harness(files);
      const note = await h.ok<FullNote>('get_daily_note', { create: true });
      expect(note).toMatchObject({ title: TODAY, text: '' });
      expect(note.folder).toBeUndefined();
      expect(await file(h, `${TODAY}.md`)).toBe(`---\nid: ${note.id}\ncreated: ${nowIso(h)}\nupdated: ${nowIso(h)}\n---\n`);
    }
  });

  it('makes a note whose template is missing empty, as Obsidian does', async () => {
    const h = await harness({ '.obsidian/daily-notes.json': JSON.stringify({ folder: 'Days', template: 'Templates/Gone' }) });
    expect((await h.ok<FullNote>('get_daily_note', { create: true })).text).toBe('');
  });
});

describe('get_daily_note under a boundary', () => {
  it('a daily folder outside a folder boundary is missing, and creating there is refused as create_note refuses it', async () => {
    const h = await harness(VAULT, { folder: 'Work' });
    expect(await h.fail('get_daily_note', { date: '2026-11-29' })).toBe('No daily note for 2026-11-29; call get_daily_note again with create: true to make it.');
    expect(await h.fail('get_daily_note', { date: '2026-11-29', create: true })).toBe('Folder not found: Journal');
    expect(await h.fail('get_daily_note', { create: true })).toBe(await h.fail('create_note', { title: 'X', folder: 'Journal' }));
    expect(await exists(h, `Journal/${TODAY}.md`)).toBe(false);
    expect(await file(h, 'Journal/2026-11-29.md')).toBe(BY_HAND);
  });

  it('inside its folder, finds and makes the note, from a template only when the connection sees it', async () => {
    const h = await harness(VAULT, { folder: 'Journal' });
    expect((await h.ok<FullNote>('get_daily_note', { date: '2026-11-29' })).text).toBe(BY_HAND);
    // Templates/ is outside: its text must not reach this connection.
    expect((await h.ok<FullNote>('get_daily_note', { create: true })).text).toBe('');
  });

  it('a read-only connection finds notes but cannot make one', async () => {
    const h = await harness(VAULT, { scopes: ['notes:read'] });
    expect((await h.ok<FullNote>('get_daily_note', { date: 'yesterday' })).text).toBe(BY_HAND);
    expect(await h.fail('get_daily_note', { create: true })).toBe(`No daily note for ${TODAY}, and this connection may only read, so it cannot make one.`);
    expect(await exists(h, `Journal/${TODAY}.md`)).toBe(false);
  });
});
