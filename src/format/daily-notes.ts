import moment, { type Moment } from 'moment';

/**
 * Where a daily note lives, as Obsidian decides it: the Daily notes core
 * plugin's settings (`.obsidian/daily-notes.json`), else the Periodic Notes
 * community plugin's daily settings, else a `YYYY-MM-DD` note at the top
 * level with no template. Pure rules over the settings files' text, so that
 * get_daily_note finds the very file Obsidian opens for a day (one the person
 * made by hand included) and makes it where Obsidian would.
 */

/** The Daily notes settings as Obsidian applies them. */
export interface DailySettings {
  /** Vault-relative, no slashes at either end; '' for the top level. */
  folder: string;
  /** moment.js tokens; may hold folders (`YYYY/MM/YYYY-MM-DD`). */
  format: string;
  /** The template's vault path as the person gave it (with or without `.md`); '' for none. */
  template: string;
}

/** Obsidian's default daily note format. */
export const DEFAULT_DAILY_FORMAT = 'YYYY-MM-DD';

export const DEFAULT_DAILY_SETTINGS: DailySettings = { folder: '', format: DEFAULT_DAILY_FORMAT, template: '' };

/** The settings files, vault-relative: Obsidian's core plugin first. */
export const DAILY_NOTES_SETTINGS = '.obsidian/daily-notes.json';
export const PERIODIC_NOTES_SETTINGS = '.obsidian/plugins/periodic-notes/data.json';

/** The largest settings file read: Obsidian's are a few hundred bytes. */
export const MAX_SETTINGS_BYTES = 64 * 1024;

function parsedObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const stringOr = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Settings from one plugin's `{folder, format, template}`, each field as
 * Obsidian (and the daily-notes interface plugins share) reads it: an empty
 * or missing format is the default, folder and template are trimmed, and a
 * field of the wrong type counts as not set.
 */
function fromFields(fields: Record<string, unknown>): DailySettings {
  const format = stringOr(fields.format);
  return {
    folder: normalizeVaultPath(stringOr(fields.folder).trim()),
    format: format === '' ? DEFAULT_DAILY_FORMAT : format,
    template: stringOr(fields.template).trim(),
  };
}

/**
 * The daily settings given the text of each settings file (undefined: no
 * such file). A daily-notes.json that is there decides, even when it does not
 * parse: Obsidian then runs its Daily notes with the defaults. Periodic Notes
 * counts only when daily-notes.json is absent and its daily notes are enabled.
 */
export function dailySettingsFrom(dailyNotes: string | undefined, periodicNotes: string | undefined): DailySettings {
  if (dailyNotes !== undefined) {
    const fields = parsedObject(dailyNotes);
    return fields === undefined ? { ...DEFAULT_DAILY_SETTINGS } : fromFields(fields);
  }
  if (periodicNotes !== undefined) {
    const daily = parsedObject(periodicNotes)?.daily;
    if (typeof daily === 'object' && daily !== null && (daily as Record<string, unknown>).enabled === true) return fromFields(daily as Record<string, unknown>);
  }
  return { ...DEFAULT_DAILY_SETTINGS };
}

/**
 * A vault path as Obsidian's `normalizePath` makes it: slashes and
 * backslashes in a row become one `/`, none at either end, no-break spaces
 * are spaces, in Unicode NFC.
 */
export function normalizeVaultPath(vaultPath: string): string {
  return vaultPath
    .replace(/[\\/]+/g, '/')
    .replace(/^\/+|\/+$/g, '')
    .replace(/[\u00A0\u202F]/g, ' ')
    .normalize('NFC');
}

/** Where the daily note of a day is: its vault path, its folder (null: the top level) and its file's name without `.md`. */
export interface DailyNotePlace {
  path: string;
  folder: string | null;
  name: string;
}

/** The daily note of `date`: the format filled with the day, under the folder, `.md` added unless the format gives it. */
export function dailyNotePlace(settings: DailySettings, date: Moment): DailyNotePlace {
  const filename = date.format(settings.format);
  const joined = normalizeVaultPath(settings.folder === '' ? filename : `${settings.folder}/${filename}`);
  const notePath = /\.md$/i.test(joined) ? joined : `${joined}.md`;
  const slash = notePath.lastIndexOf('/');
  return {
    path: notePath,
    folder: slash < 0 ? null : notePath.slice(0, slash),
    name: notePath.slice(slash + 1).replace(/\.md$/i, ''),
  };
}

/** The dates get_daily_note takes besides `YYYY-MM-DD`, as days from today. */
const RELATIVE_DAYS: Readonly<Record<string, number>> = { today: 0, yesterday: -1, tomorrow: 1 };

/**
 * The day `asked` names (`YYYY-MM-DD`, `today`, `yesterday`, `tomorrow`, any
 * case), as local midnight of that calendar day in the server's time zone,
 * `now` being the clock's; undefined for anything else (a day that does not
 * exist, such as 2026-02-30, included).
 */
export function dailyDate(asked: string, now: Date): Moment | undefined {
  const word = asked.trim().toLowerCase();
  const days = RELATIVE_DAYS[word];
  if (days !== undefined) return moment(now).startOf('day').add(days, 'days');
  const day = moment(word, 'YYYY-MM-DD', true);
  return day.isValid() ? day : undefined;
}
