/**
 * rename_tag's rule for one note, as a pure function from the file's text to
 * the new text (or undefined: nothing to change). A tag is renamed where the
 * note carries it: in the body, where the Markdown rules read it as a tag
 * (markdown/tag-spans.ts), and in frontmatter `tags` in each of Obsidian's
 * forms (a list, a one-line list, a string of tags separated by commas or
 * spaces, each with or without `#`), written back through the frontmatter
 * editor so that every other key, comment and quote stays byte for byte.
 * Nested tags go along (`#proj/alpha` becomes `#project/alpha`), and the
 * part below the renamed one keeps the person's spelling. Nothing else in
 * the file changes.
 */
import { DexiError } from '../storage/errors.js';
import { foldName } from '../storage/names.js';
import { editedHead, headOf, joinNote } from './frontmatter-edit.js';
import { parseFrontmatter, splitFrontmatter } from './frontmatter.js';
import { tagSpans } from './markdown/tag-spans.js';
import { normaliseTag, tagCovers, tagKey } from './tags.js';

/** A rename asked for, checked (parseTagRename). */
export interface TagRename {
  /** The tag renamed, normalised with its sigil (`#proj`). */
  from: string;
  /** The new tag, normalised (`#project`): what the answer names. */
  to: string;
  /** The new name as the person spelt it, without its sigil (`Project`): what is written. */
  toName: string;
}

/** A refusal of a rename's arguments, as a plain sentence. */
export class TagRenameError extends DexiError {}

/** The longest tag a rename takes, in characters. */
export const MAX_TAG_LENGTH = 200;

/**
 * Check `from` and `to` as rename_tag takes them: tags with their sigil, or a
 * bare name for a hashtag (`proj` is `#proj`). Throws TagRenameError with the
 * sentence that says what to send instead.
 */
export function parseTagRename(from: string, to: string): TagRename {
  const fromText = withSigil(from.trim());
  if (fromText === '') throw new TagRenameError('from is empty; give the tag to rename, such as #proj.');
  const fromTag = normaliseTag(fromText);
  if (fromTag === undefined || /\s/u.test(fromText)) throw new TagRenameError(`from must be one tag, such as #proj; "${from.trim()}" is not one.`);
  const toText = withSigil(to.trim());
  if (toText === '') throw new TagRenameError('to is empty; give the new name of the tag, such as #project.');
  if (/\s/u.test(toText)) throw new TagRenameError(`to must be one tag, without spaces (use - or / instead): "${to.trim()}" is not one.`);
  const toTag = normaliseTag(toText);
  if (toTag === undefined) {
    throw new TagRenameError(`to must be a tag of letters, digits, _, - and / (with at least one that is not a digit); "${to.trim()}" is not one.`);
  }
  if (toTag[0] !== fromTag[0]) throw new TagRenameError(`from and to must both be hashtags (#) or both mentions (@); ${fromTag} cannot become ${toTag}.`);
  const toName = toText.slice(1).replace(/[/-]+$/u, '');
  if (toName.startsWith('/') || toName.includes('//')) throw new TagRenameError(`to may not start with / or hold //; "${to.trim()}" is not a tag.`);
  if (tagKey(toTag) === tagKey(fromTag)) throw new TagRenameError(`from and to are the same tag (${fromTag}; tags do not differ by case), so there is nothing to rename.`);
  return { from: fromTag, to: toTag, toName };
}

function withSigil(text: string): string {
  return text === '' || text.startsWith('#') || text.startsWith('@') ? text : `#${text}`;
}

/**
 * The note `content` with `rename` made in its body and its frontmatter
 * `tags`; undefined when it carries neither the tag nor a nested one there.
 * A frontmatter block that cannot be parsed is left to the caller (the vault
 * writes no such note).
 */
export function renameTagInNote(content: string, rename: TagRename): string | undefined {
  const split = splitFrontmatter(content);
  const body = renameTagInBody(split.body, rename);
  let head = headOf(content, split);
  let changed = body !== split.body;
  if (rename.from.startsWith('#') && split.yaml !== null) {
    const parsed = parseFrontmatter(split.yaml);
    const tags = parsed.ok && Object.hasOwn(parsed.data, 'tags') ? renamedTagsValue(parsed.data.tags, rename) : undefined;
    if (tags !== undefined) {
      head = editedHead(content, split, { tags });
      changed = true;
    }
  }
  return changed ? joinNote(head, body, split.eol) : undefined;
}

/** The body with every tag-read span of `rename.from` (nested ones too) renamed; the same string when there is none. */
export function renameTagInBody(body: string, rename: TagRename): string {
  const spans = tagSpans(body, rename.from);
  if (spans.length === 0) return body;
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += body.slice(at, span.start) + rename.toName;
    at = span.end;
  }
  return out + body.slice(at);
}

/**
 * Frontmatter `tags` renamed, in the form it was written in: a list keeps
 * its items (an item that would repeat a tag already in the list is dropped),
 * a string keeps its separators; each item keeps its `#` or its lack of one.
 * Undefined when no item is the tag or nested under it.
 */
export function renamedTagsValue(value: unknown, rename: TagRename): unknown {
  if (typeof value === 'string') {
    const renamed = value.replace(/[^,\s]+/gu, (item) => renamedItem(item, rename) ?? item);
    return renamed === value ? undefined : renamed;
  }
  if (!Array.isArray(value)) return undefined;
  let changed = false;
  const items: unknown[] = [];
  const keys = new Set(value.map((item) => itemKey(item)).filter((key) => key !== undefined));
  for (const item of value) {
    const renamed = typeof item === 'string' ? renamedItem(item, rename) : undefined;
    if (renamed === undefined) {
      items.push(item);
      continue;
    }
    changed = true;
    const key = itemKey(renamed);
    // `[proj, project]` renamed is `[project]`, not a tag twice.
    if (key !== undefined && keys.has(key) && key !== itemKey(item)) continue;
    if (key !== undefined) keys.add(key);
    items.push(renamed);
  }
  return changed ? items : undefined;
}

function itemKey(item: unknown): string | undefined {
  if (typeof item !== 'string' && typeof item !== 'number') return undefined;
  const tag = normaliseTag(`#${String(item).trim().replace(/^#/u, '')}`);
  return tag === undefined ? undefined : tagKey(tag);
}

/** One frontmatter item (`proj`, `#Proj/alpha`, ` proj `) renamed, or undefined when it is not the tag or nested under it. */
function renamedItem(item: string, rename: TagRename): string | undefined {
  const lead = /^\s*#?/u.exec(item)?.[0] ?? '';
  const name = item.slice(lead.length);
  const key = foldName(rename.from.slice(1));
  for (let p = 1; p <= name.length; p++) {
    const next = name[p];
    if (p < name.length && next !== '/' && next !== '-' && next !== ' ' && next !== '\t') continue;
    if (foldName(name.slice(0, p)) !== key) continue;
    // Only where the whole item reads as the tag or a nested one: not `proj-x`.
    const read = normaliseTag(`#${name.trim()}`);
    if (read === undefined || !tagCovers(rename.from, read)) return undefined;
    return lead + rename.toName + name.slice(p);
  }
  return undefined;
}
