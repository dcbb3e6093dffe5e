import path from 'node:path';
import { openRegularFile } from '../storage/atomic.js';
import { inLinkedFolder, isWithin } from '../storage/paths.js';
import { DAILY_NOTES_SETTINGS, dailySettingsFrom, MAX_SETTINGS_BYTES, PERIODIC_NOTES_SETTINGS, type DailySettings } from '../format/daily-notes.js';

/**
 * The files get_daily_note reads beside the notes: Obsidian's daily notes
 * settings and a daily template. Read as the vault reads a note (a plain
 * file inside the vault, through no symbolic link, up to a size), and never
 * an error: a file that is missing, too large, not text or not a plain file
 * is as if it were not there, as Obsidian then runs on its defaults.
 */

/** The text of a small file of the vault, or undefined when there is no plain file there of at most `maxBytes`. */
export async function readSmallFile(realRoot: string, vaultPath: string, maxBytes: number): Promise<string | undefined> {
  const absolute = path.resolve(realRoot, vaultPath);
  if (absolute === realRoot || !isWithin(realRoot, absolute) || vaultPath.includes('\0')) return undefined;
  try {
    if (await inLinkedFolder(realRoot, absolute)) return undefined;
    const opened = await openRegularFile(absolute, maxBytes);
    if (opened.kind !== 'file') return undefined;
    try {
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(opened.file.bytes);
    } finally {
      await opened.file.handle.close();
    }
  } catch {
    // Unreadable (permissions, not UTF-8): the defaults, as for a missing file.
    return undefined;
  }
}

/** The vault's daily notes settings, as Obsidian applies them (dailySettingsFrom). */
export async function readDailySettings(realRoot: string): Promise<DailySettings> {
  const [dailyNotes, periodicNotes] = await Promise.all([
    readSmallFile(realRoot, DAILY_NOTES_SETTINGS, MAX_SETTINGS_BYTES),
    readSmallFile(realRoot, PERIODIC_NOTES_SETTINGS, MAX_SETTINGS_BYTES),
  ]);
  return dailySettingsFrom(dailyNotes, periodicNotes);
}
