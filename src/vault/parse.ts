import { createHash } from 'node:crypto';
import { parseFrontmatter, splitFrontmatter, type FrontmatterData } from '../files/frontmatter.js';
import { fromReviewFrontmatter } from '../review/sm2.js';
import { extractTags, makeSnippet } from './markdown.js';
import { SOURCES, type NoteRecord, type Source } from './note.js';
import { frontmatterTags, mergeTags } from './tags.js';
import { parseIso } from './time.js';

export interface FileFacts {
  path: string;
  content: string;
  size: number;
  mtimeMs: number;
  birthtimeMs: number;
  /** Carried over from an earlier read: an outside edit moved `updated` here. */
  outsideEditMs?: number;
}

export interface ParsedNote {
  /** Everything but the id, which the vault decides (stamped, kept or derived). */
  record: Omit<NoteRecord, 'id'>;
  /** The id written in the frontmatter, if any. */
  id: string | undefined;
  data: FrontmatterData;
  body: string;
}

export function hashContent(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * A stable UUID-shaped id for a note that cannot carry its own (broken
 * frontmatter, or a read-only vault), derived from where it lives.
 */
export function derivedId(namespace: string, vaultPath: string): string {
  const hex = createHash('sha1').update(`${namespace}\0${vaultPath}`).digest('hex');
  const variant = ((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

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

/** Turn one note file's text and stat into what the server knows of it. Pure. */
export function parseNoteFile(facts: FileFacts): ParsedNote {
  const split = splitFrontmatter(facts.content);
  const parsed = parseFrontmatter(split.yaml);
  const broken = !parsed.ok;
  const data = parsed.ok ? parsed.data : {};
  // A file whose block cannot be read is all body, fences included.
  const body = parsed.ok ? split.body : facts.content;

  const rawId = stringValue(data.id);
  const id = rawId !== undefined && ID_PATTERN.test(rawId) ? rawId : undefined;
  const source = SOURCES.includes(data.source as Source) ? (data.source as Source) : 'note';
  const birth = facts.birthtimeMs > 0 ? facts.birthtimeMs : facts.mtimeMs;
  const createdMs = parseIso(data.created)?.getTime() ?? birth;
  const frontmatterUpdated = parseIso(data.updated)?.getTime();
  const updatedMs = facts.outsideEditMs ?? frontmatterUpdated ?? facts.mtimeMs;

  const record: Omit<NoteRecord, 'id'> = {
    path: facts.path,
    folder: folderOf(facts.path),
    title: stringValue(data.title) ?? titleFromPath(facts.path),
    source,
    createdMs,
    updatedMs,
    tags: mergeTags(frontmatterTags(data.tags), extractTags(body)),
    snippet: makeSnippet(body),
    shared: data.shared === true,
    broken,
    size: facts.size,
    mtimeMs: facts.mtimeMs,
    hash: hashContent(facts.content),
  };
  const sourceUrl = stringValue(data.source_url);
  if (sourceUrl !== undefined) record.sourceUrl = sourceUrl;
  const attachment = stringValue(data.attachment);
  if (attachment !== undefined) record.attachment = attachment;
  const review = fromReviewFrontmatter(data.review);
  if (review !== undefined) record.review = review;
  if (facts.outsideEditMs !== undefined) record.outsideEditMs = facts.outsideEditMs;
  return { record, id, data, body };
}
