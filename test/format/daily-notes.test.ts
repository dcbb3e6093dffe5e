import moment from 'moment';
import { describe, expect, it } from 'vitest';
import { dailyDate, dailyNotePlace, dailySettingsFrom, DEFAULT_DAILY_SETTINGS, normalizeVaultPath, type DailySettings } from '../../src/format/daily-notes.js';

const periodic = (daily: unknown): string => JSON.stringify({ showGettingStartedBanner: false, hasMigratedDailyNoteSettings: true, daily, weekly: { enabled: true, folder: 'Weeks', format: 'gggg-[W]ww' } });

describe('dailySettingsFrom: which settings Obsidian applies', () => {
  const cases: { name: string; dailyNotes: string | undefined; periodicNotes: string | undefined; expected: DailySettings }[] = [
    { name: 'no settings files: YYYY-MM-DD at the top level', dailyNotes: undefined, periodicNotes: undefined, expected: DEFAULT_DAILY_SETTINGS },
    {
      name: 'daily-notes.json, all three',
      dailyNotes: '{"folder":"Journal","format":"YYYY/MM/YYYY-MM-DD","template":"Templates/Daily"}',
      periodicNotes: undefined,
      expected: { folder: 'Journal', format: 'YYYY/MM/YYYY-MM-DD', template: 'Templates/Daily' },
    },
    { name: 'daily-notes.json with a folder only', dailyNotes: '{"folder":"Daily"}', periodicNotes: undefined, expected: { folder: 'Daily', format: 'YYYY-MM-DD', template: '' } },
    { name: 'an empty format is the default, folder and template trimmed', dailyNotes: '{"folder":"  Daily/ ","format":"","template":" T.md "}', periodicNotes: undefined, expected: { folder: 'Daily', format: 'YYYY-MM-DD', template: 'T.md' } },
    { name: 'a folder given with slashes around it', dailyNotes: '{"folder":"/Journal//2026/"}', periodicNotes: undefined, expected: { folder: 'Journal/2026', format: 'YYYY-MM-DD', template: '' } },
    { name: 'fields of the wrong type count as not set', dailyNotes: '{"folder":3,"format":["x"],"template":null,"autorun":true}', periodicNotes: undefined, expected: DEFAULT_DAILY_SETTINGS },
    { name: 'a daily-notes.json that does not parse: the defaults', dailyNotes: '{"folder": "Journal",', periodicNotes: periodic({ enabled: true, folder: 'P' }), expected: DEFAULT_DAILY_SETTINGS },
    { name: 'a daily-notes.json holding a list: the defaults', dailyNotes: '["Journal"]', periodicNotes: undefined, expected: DEFAULT_DAILY_SETTINGS },
    { name: 'an empty daily-notes.json object: the defaults', dailyNotes: '{}', periodicNotes: periodic({ enabled: true, folder: 'P' }), expected: DEFAULT_DAILY_SETTINGS },
    {
      name: 'no daily-notes.json: Periodic Notes daily settings',
      dailyNotes: undefined,
      periodicNotes: periodic({ enabled: true, folder: 'Periodic/Daily', format: 'dddd, MMMM Do YYYY', template: 'Templates/Day.md' }),
      expected: { folder: 'Periodic/Daily', format: 'dddd, MMMM Do YYYY', template: 'Templates/Day.md' },
    },
    { name: 'Periodic Notes with its daily notes disabled: the defaults', dailyNotes: undefined, periodicNotes: periodic({ enabled: false, folder: 'P' }), expected: DEFAULT_DAILY_SETTINGS },
    { name: 'Periodic Notes without daily settings: the defaults', dailyNotes: undefined, periodicNotes: '{"weekly":{"enabled":true}}', expected: DEFAULT_DAILY_SETTINGS },
    { name: 'Periodic Notes that does not parse: the defaults', dailyNotes: undefined, periodicNotes: 'not json', expected: DEFAULT_DAILY_SETTINGS },
    { name: 'Periodic Notes daily with an empty format', dailyNotes: undefined, periodicNotes: periodic({ enabled: true, folder: 'D', format: '', template: '' }), expected: { folder: 'D', format: 'YYYY-MM-DD', template: '' } },
  ];
  it.each(cases)('$name', ({ dailyNotes, periodicNotes, expected }) => {
    expect(dailySettingsFrom(dailyNotes, periodicNotes)).toEqual(expected);
  });
});

describe('dailyNotePlace: the file Obsidian opens for a day', () => {
  const day = moment('2026-12-02', 'YYYY-MM-DD', true);
  const cases: { folder: string; format: string; path: string; folderOut: string | null; name: string }[] = [
    { folder: '', format: 'YYYY-MM-DD', path: '2026-12-02.md', folderOut: null, name: '2026-12-02' },
    { folder: 'Journal', format: 'YYYY-MM-DD', path: 'Journal/2026-12-02.md', folderOut: 'Journal', name: '2026-12-02' },
    { folder: 'Journal', format: 'YYYY/MM/YYYY-MM-DD', path: 'Journal/2026/12/2026-12-02.md', folderOut: 'Journal/2026/12', name: '2026-12-02' },
    { folder: '', format: 'YYYY/MMMM/D', path: '2026/December/2.md', folderOut: '2026/December', name: '2' },
    { folder: 'Daily', format: 'dddd, MMMM Do YYYY', path: 'Daily/Wednesday, December 2nd 2026.md', folderOut: 'Daily', name: 'Wednesday, December 2nd 2026' },
    { folder: 'Daily', format: '[Day] DD.MM.YY', path: 'Daily/Day 02.12.26.md', folderOut: 'Daily', name: 'Day 02.12.26' },
    { folder: 'Daily', format: 'YYYY-MM-DD[.md]', path: 'Daily/2026-12-02.md', folderOut: 'Daily', name: '2026-12-02' },
    { folder: 'Daily', format: 'gggg-[W]ww-E', path: 'Daily/2026-W49-3.md', folderOut: 'Daily', name: '2026-W49-3' },
  ];
  it.each(cases)('$folder + $format → $path', ({ folder, format, path, folderOut, name }) => {
    expect(dailyNotePlace({ folder, format, template: '' }, day)).toEqual({ path, folder: folderOut, name });
  });
});

describe('normalizeVaultPath, as Obsidian normalizes a path', () => {
  it.each([
    ['Journal', 'Journal'],
    ['/Journal/', 'Journal'],
    ['a//b\\\\c', 'a/b/c'],
    ['Daily\u00A0notes', 'Daily notes'],
    ['Cafe\u0301', 'Café'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(normalizeVaultPath(input)).toBe(expected);
  });
});

describe('dailyDate: the day asked for, in the server time zone', () => {
  // Midday, so that the calendar day is the same in every time zone the suite may run in.
  const now = new Date(2026, 11, 2, 12, 30);
  it.each([
    ['today', '2026-12-02'],
    ['Today', '2026-12-02'],
    [' yesterday ', '2026-12-01'],
    ['tomorrow', '2026-12-03'],
    ['2026-02-28', '2026-02-28'],
    ['2024-02-29', '2024-02-29'],
  ])('%j → %s', (asked, expected) => {
    const day = dailyDate(asked, now);
    expect(day?.format('YYYY-MM-DD HH:mm')).toBe(`${expected} 00:00`);
  });
  it('crosses months and years', () => {
    expect(dailyDate('yesterday', new Date(2027, 0, 1, 0, 5))?.format('YYYY-MM-DD')).toBe('2026-12-31');
    expect(dailyDate('tomorrow', new Date(2026, 11, 31, 23, 55))?.format('YYYY-MM-DD')).toBe('2027-01-01');
  });
  it.each(['2026-02-30', '2026-13-01', '2026-1-2', '02.12.2026', 'next week', '2026-12-02T10:00', ''])('refuses %j', (asked) => {
    expect(dailyDate(asked, now)).toBeUndefined();
  });
});
