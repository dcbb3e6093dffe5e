import { appendParagraph, withLineEnding } from '../files/body-edit.js';
import { parseFrontmatter, setFrontmatterKeys, splitFrontmatter } from '../files/frontmatter.js';
import { presentKey, UPDATED_KEYS } from './dates.js';
import { formatIso } from './time.js';

export interface EditRequest {
  mode: 'replace' | 'append';
  text?: string | undefined;
  title?: string | undefined;
}

export interface EditedNote {
  content: string;
  /** The new body, as a reader will see it. */
  body: string;
  /** The frontmatter after the edit, for checks on what the note will be (its tags). */
  data: Record<string, unknown>;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function localDate(now: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The new value of a note's `updated` key, written the way the note already writes it (a date alone stays a date alone). */
function stampLike(previous: unknown, now: Date): string {
  return typeof previous === 'string' && DATE_ONLY.test(previous.trim()) ? localDate(now) : formatIso(now);
}

/**
 * A note's file after an `update_note`, from its current content. Pure.
 *
 * Only what was asked changes, plus the bookkeeping the contract names: the
 * body (appended to as a new paragraph, or replaced), the frontmatter `title`
 * when a title is given, and the note's own `updated` key (or `modified`,
 * `date modified`) if it has one. No key the note did not have is added.
 *
 * The frontmatter block is edited on its own and the body put after it, never
 * joined and split again: so a body that itself begins with `---` (a replace
 * text, or a note whose closing fence is its last byte) can never be read back
 * as frontmatter. Where the new body would read as a block on a note without
 * one, an empty block is put first to keep it body.
 */
export function editedContent(content: string, request: EditRequest, now: Date): EditedNote {
  const split = splitFrontmatter(content);
  const { eol } = split;
  const parsed = parseFrontmatter(split.yaml);
  if (!parsed.ok) throw new Error('Refusing to edit a note whose frontmatter is not valid YAML.');
  const oldBody = split.body;

  let body = oldBody;
  if (request.text !== undefined) {
    if (request.mode === 'replace') body = withLineEnding(request.text, eol);
    else if (request.text !== '') body = appendParagraph(oldBody, request.text, eol);
  }

  const updates: Record<string, unknown> = {};
  if (request.title !== undefined) updates.title = request.title;
  const updatedKey = presentKey(parsed.data, UPDATED_KEYS);
  if (updatedKey !== undefined) updates[updatedKey] = stampLike(parsed.data[updatedKey], now);

  // Everything before the body: the frontmatter block, or a byte-order mark, or nothing.
  let head = content.slice(0, split.bodyStart);
  // A closing fence that is the file's last byte gets its line ending, so the body starts on a line of its own.
  if (split.yaml !== null && !head.endsWith('\n')) head += eol;
  if (Object.keys(updates).length > 0) head = setFrontmatterKeys(head, updates);
  if (splitFrontmatter(head).yaml === null && splitFrontmatter(body).yaml !== null) head = `${head}---${eol}---${eol}`;

  const next = head + body;
  const check = splitFrontmatter(next);
  // Defence in depth: the body written must be exactly the body read back.
  if (check.body !== body) {
    throw new Error('The edit would have changed where the frontmatter ends; nothing was written.');
  }
  const data = parseFrontmatter(check.yaml);
  return { content: next, body, data: data.ok ? data.data : {} };
}
