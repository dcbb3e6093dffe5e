import { readFile } from 'node:fs/promises';
import { settingsFile } from '../storage/dexi-dir.js';
import { normaliseTag } from '../format/tags.js';
import { DexiError } from './errors.js';

export interface VaultSettings {
  /** Review deck tags, e.g. `#flashcards`. */
  reviewTags: string[];
  /** The note limit of a free plan; null for none. */
  noteCap: number | null;
}

export const DEFAULT_SETTINGS: VaultSettings = { reviewTags: ['#flashcards'], noteCap: null };

export class SettingsError extends DexiError {}

/** Read `<vault>/.dexi/settings.json`; a missing file means the defaults. */
export async function readSettings(root: string): Promise<VaultSettings> {
  const file = settingsFile(root);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    // ENOTDIR: the vault path is a file; opening the vault reports that plainly.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ...DEFAULT_SETTINGS };
    throw new SettingsError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new SettingsError(`${file} is not valid JSON; fix or delete it.`);
  }
  if (typeof raw !== 'object' || raw === null) throw new SettingsError(`${file} must hold a JSON object.`);
  const { reviewTags, noteCap } = raw as Record<string, unknown>;
  const settings: VaultSettings = { ...DEFAULT_SETTINGS };
  if (reviewTags !== undefined) {
    if (!Array.isArray(reviewTags) || !reviewTags.every((tag) => typeof tag === 'string')) {
      throw new SettingsError(`${file}: reviewTags must be a list of tags such as ["#flashcards"].`);
    }
    settings.reviewTags = parseTagList(reviewTags as string[], `${file}: reviewTags`);
  }
  if (noteCap !== undefined && noteCap !== null) {
    if (typeof noteCap !== 'number' || !Number.isInteger(noteCap) || noteCap < 0) {
      throw new SettingsError(`${file}: noteCap must be a whole number or null.`);
    }
    settings.noteCap = noteCap;
  }
  return settings;
}

/** Normalise a user-given list of tags (`flashcards`, `#Flashcards`) to `#flashcards`. */
export function parseTagList(tags: string[], what: string): string[] {
  return tags.map((tag) => {
    const normalised = normaliseTag(tag.startsWith('@') ? tag : tag.startsWith('#') ? tag : `#${tag}`);
    if (!normalised) throw new SettingsError(`${what}: ${JSON.stringify(tag)} is not a tag.`);
    return normalised;
  });
}
