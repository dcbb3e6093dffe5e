import { parseFrontmatter, splitFrontmatter, type FrontmatterData } from '../format/frontmatter.js';
import { CREATED_KEYS, fileNameDate, noteDates, statedDate, UPDATED_KEYS } from '../format/dates.js';
import { gitBlobId } from './git/git-history.js';
import { analyzeMarkdown } from '../format/markdown.js';
import { SOURCES, type NoteRecord, type Source } from './note.js';
import { frontmatterTags, mergeTags } from '../format/tags.js';
import { recordProperties } from '../format/property-values.js';
import { tasksOf } from '../format/tasks.js';

export interface FileFacts {
  path: string;
  content: string;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  birthtimeMs: number;
}

export interface ParsedNote {
  /** Everything but the id, which the vault decides (the frontmatter's, kept, or derived from the path). */
  record: Omit<NoteRecord, 'id'>;
  /** The id written in the frontmatter, if any. */
  id: string | undefined;
  data: FrontmatterData;
  body: string;
  /** Where the body starts in the file's text: `body` is `content.slice(bodyStart)`, so a parsing worker need not send it back. */
  bodyStart: number;
  /** The body's search text (toSearchText), what the full-text index takes: read with the tags and snippet, in the same pass. */
  searchText: string;
}

/**
 * A note's content hash is git's blob id of its bytes: a hash like any other
 * for telling edits from touches, and the value `git ls-tree` reports, so a
 * note can be checked against its last commit without running git.
 */
export function hashContent(content: string | Uint8Array): string {
  return gitBlobId(content);
}

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const WEB_ADDRESS = /^https?:\/\/\S+$/i;

export function titleFromPath(vaultPath: string): string {
  const name = vaultPath.slice(vaultPath.lastIndexOf('/') + 1);
  return name.replace(/\.md$/i, '');
}

export function folderOf(vaultPath: string): string | null {
  const slash = vaultPath.lastIndexOf('/');
  return slash === -1 ? null : vaultPath.slice(0, slash);
}

function stringValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** A mapping's scalar entries (a `review:` block), or undefined for anything else; at most 16, so a hostile block stays small. */
function scalarEntries(value: unknown): Record<string, string | number | boolean> | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Date) return undefined;
  const entries: [string, string | number | boolean][] = [];
  for (const [key, item] of Object.entries(value)) {
    if (entries.length === 16) break;
    if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') entries.push([key, item]);
    else if (item instanceof Date && Number.isFinite(item.getTime())) entries.push([key, item.toISOString()]);
  }
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

/** Obsidian's `aliases` (or the older `alias`): a list, or one string. */
function aliasesOf(data: FrontmatterData): string[] {
  const value = data.aliases ?? data.alias;
  const items: unknown[] = Array.isArray(value) ? value : [value];
  const aliases: string[] = [];
  for (const item of items) {
    const alias = stringValue(item);
    if (alias !== undefined && !aliases.includes(alias)) aliases.push(alias);
  }
  return aliases;
}

/**
 * `source`, and where the note came from. Obsidian Web Clipper's default
 * template writes the clipped page's address as `source`: such a note is a
 * bookmark of that page.
 */
function sourceOf(data: FrontmatterData): { source: Source; sourceUrl?: string } {
  const stated = stringValue(data.source);
  const sourceUrl = stringValue(data.source_url);
  if (stated !== undefined && WEB_ADDRESS.test(stated)) return { source: 'bookmark', sourceUrl: sourceUrl ?? stated };
  const source = SOURCES.includes(stated as Source) ? (stated as Source) : 'note';
  return sourceUrl === undefined ? { source } : { source, sourceUrl };
}

/** Turn one note file's text and stat into what the server knows of it, git aside. Pure. */
export function parseNoteFile(facts: FileFacts): ParsedNote {
  const split = splitFrontmatter(facts.content);
  const parsed = parseFrontmatter(split.yaml);
  const broken = !parsed.ok;
  const data = parsed.ok ? parsed.data : {};
  // A file whose block cannot be read is all body, fences included.
  const body = parsed.ok ? split.body : facts.content;

  const rawId = stringValue(data.id);
  const id = rawId !== undefined && ID_PATTERN.test(rawId) ? rawId : undefined;
  const statedCreatedMs = statedDate(data, CREATED_KEYS) ?? fileNameDate(facts.path);
  const statedUpdatedMs = statedDate(data, UPDATED_KEYS);
  const { createdMs, updatedMs } = noteDates({ statedCreatedMs, statedUpdatedMs, birthtimeMs: facts.birthtimeMs, mtimeMs: facts.mtimeMs });
  const markdown = analyzeMarkdown(body);

  const record: Omit<NoteRecord, 'id'> = {
    path: facts.path,
    folder: folderOf(facts.path),
    title: stringValue(data.title) ?? titleFromPath(facts.path),
    ...sourceOf(data),
    createdMs,
    updatedMs,
    tags: mergeTags(frontmatterTags(data.tags), markdown.tags),
    snippet: markdown.snippet,
    shared: data.shared === true,
    broken,
    size: facts.size,
    mtimeMs: facts.mtimeMs,
    ctimeMs: facts.ctimeMs,
    ino: facts.ino,
    birthtimeMs: facts.birthtimeMs,
    hash: hashContent(facts.content),
  };
  if (statedCreatedMs !== undefined) record.statedCreatedMs = statedCreatedMs;
  if (statedUpdatedMs !== undefined) record.statedUpdatedMs = statedUpdatedMs;
  const aliases = aliasesOf(data);
  if (aliases.length > 0) record.aliases = aliases;
  const attachment = stringValue(data.attachment);
  if (attachment !== undefined) record.attachment = attachment;
  if (markdown.links.length > 0) record.links = markdown.links;
  const tasks = tasksOf(body);
  if (tasks.length > 0) record.tasks = tasks;
  const review = scalarEntries(data.review);
  if (review !== undefined) record.review = review;
  const properties = recordProperties(data);
  if (properties !== undefined) record.properties = properties;
  return { record, id, data, body, bodyStart: parsed.ok ? split.bodyStart : 0, searchText: markdown.searchText };
}
