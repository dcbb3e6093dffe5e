import { foldName } from '../storage/names.js';

/**
 * Tag rules shared by parsing, filters and boundaries. A tag is kept with its
 * sigil (`#` hashtag, `@` mention), in lower case, and shown so. Tags are
 * case-insensitive, as in Obsidian (`#Work` is `#work`), and two tags that
 * differ only in case under full Unicode case folding are one tag: they are
 * compared by `tagKey`, the same folding (`foldName`) that folder boundaries
 * and folder filters use. So `#straße` is `#STRASSE`, and `#wor\u212A` with a
 * Kelvin sign (canonically the letter K) is `#work`, for a tag filter, a tag
 * boundary, review decks and list_tags alike. A tag names no real thing that
 * a look-alike could be confused with, unlike a folder.
 */

const TAG_BODY = /^[\p{L}\p{N}_\-/]+$/u;

/** Validate and normalise one tag written with its sigil; undefined if it is not a tag. */
export function normaliseTag(raw: string): string | undefined {
  const text = raw.trim();
  const sigil = text[0];
  if (sigil !== '#' && sigil !== '@') return undefined;
  const body = text.slice(1).replace(/[/-]+$/u, '').toLowerCase();
  // At least one character that is not a digit: `#123` is an issue number, not a tag.
  if (body === '' || !TAG_BODY.test(body) || !/[^\p{N}]/u.test(body)) return undefined;
  return `${sigil}${body}`;
}

/**
 * Frontmatter `tags:` in Obsidian's forms: a list, or a string separated by
 * commas or spaces. Each counts as a hashtag, with or without a leading `#`.
 */
export function frontmatterTags(value: unknown): string[] {
  const items: unknown[] = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[,\s]+/u) : [];
  const tags: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string' && typeof item !== 'number') continue;
    const text = String(item).trim().replace(/^#/u, '');
    const tag = normaliseTag(`#${text}`);
    if (tag) tags.push(tag);
  }
  return mergeTags(tags);
}

/** The key tags are compared by: the sigil and the folded body (`foldName`); equal keys are one tag. */
export function tagKey(tag: string): string {
  return foldName(tag);
}

/** Merge tag lists keeping the first appearance of each (tags that fold alike are one). */
export function mergeTags(...lists: string[][]): string[] {
  const seen = new Set<string>();
  const merged: string[] = [];
  for (const list of lists) {
    for (const tag of list) {
      const key = tagKey(tag);
      if (seen.has(key)) continue;
      seen.add(key);
      merged.push(tag);
    }
  }
  return merged;
}

function keyCovers(filterKey: string, key: string): boolean {
  return key === filterKey || (key.length > filterKey.length && key.charCodeAt(filterKey.length) === 0x2f && key.startsWith(filterKey));
}

/** `#ml` covers itself and its nested tags (`#ml/papers`), not `#mlops`; compared by `tagKey`. */
export function tagCovers(filter: string, tag: string): boolean {
  return keyCovers(tagKey(filter), tagKey(tag));
}

/**
 * Turn a user's tag filter into the tags it stands for: `#ml` and `@bob` as
 * given, a bare word as both the hashtag and the mention. Undefined when the
 * text cannot be a tag.
 */
export function tagFilterCandidates(filter: string): string[] | undefined {
  const text = filter.trim();
  if (text.startsWith('#') || text.startsWith('@')) {
    const tag = normaliseTag(text);
    return tag ? [tag] : undefined;
  }
  const hash = normaliseTag(`#${text}`);
  const mention = normaliseTag(`@${text}`);
  return hash && mention ? [hash, mention] : undefined;
}

/** Whether a note's tags satisfy a filter's candidates. */
export function noteHasTag(noteTags: readonly string[], candidates: readonly string[]): boolean {
  if (noteTags.length === 0) return false;
  const filterKeys = candidates.map(tagKey);
  for (const tag of noteTags) {
    const key = tagKey(tag);
    for (const filterKey of filterKeys) if (keyCovers(filterKey, key)) return true;
  }
  return false;
}
