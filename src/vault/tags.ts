/**
 * Tag rules shared by parsing, filters and boundaries. A tag is kept with its
 * sigil (`#` hashtag, `@` mention), in lower case.
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
    if (tag && !tags.includes(tag)) tags.push(tag);
  }
  return tags;
}

/** Merge tag lists keeping the first appearance of each. */
export function mergeTags(...lists: string[][]): string[] {
  const seen = new Set<string>();
  for (const list of lists) for (const tag of list) seen.add(tag);
  return [...seen];
}

/** `#ml` covers itself and its nested tags (`#ml/papers`), not `#mlops`. */
export function tagCovers(filter: string, tag: string): boolean {
  return tag === filter || tag.startsWith(`${filter}/`);
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
  return noteTags.some((tag) => candidates.some((candidate) => tagCovers(candidate, tag)));
}
