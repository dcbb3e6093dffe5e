import { appendParagraph, bodyLineEndingOf, endsWithLineBreak, replacedBody } from '../format/body-edit.js';
import { editedHead, headOf, joinNote, setFrontmatterKeys } from '../format/frontmatter-edit.js';
import { parseFrontmatter, splitFrontmatter } from '../format/frontmatter.js';
import { presentKey, UPDATED_KEYS } from '../format/dates.js';
import { NothingToUpdateError, ReadOnlyNoteError } from './errors.js';
import { formatIso, formatLocal } from '../format/time.js';

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

/** The new value of a note's `updated` key, written the way the note already writes it (a date alone stays a date alone). */
export function stampLike(previous: unknown, now: Date): string {
  return typeof previous === 'string' && DATE_ONLY.test(previous.trim()) ? formatLocal(now, 'day') : formatIso(now);
}

/**
 * Whether an update asks for nothing (the contract's "Nothing to update"): no
 * title, and no text in replace mode, or no text or an empty one in append
 * mode (an empty append would only move `updated`, and hand back a body the
 * caller did not send).
 */
export function asksForNothing(request: EditRequest): boolean {
  if (request.title !== undefined) return false;
  return request.text === undefined || (request.mode === 'append' && request.text === '');
}

/**
 * A note's file after an `update_note`, from its current content. Pure.
 *
 * Only what was asked changes, plus the bookkeeping the contract names: the
 * body (appended to as a new paragraph, or replaced, ending as it ended: see
 * replacedBody), the frontmatter `title` when a title is given, and the
 * note's own `updated` key (or `modified`, `date modified`) if it has one. No key the note did not have is added.
 *
 * The file is split once into its head (the frontmatter block, or a
 * byte-order mark, or nothing) and its body. The head alone is edited and the
 * new body put after it by joinNote, never joined and split again as one
 * text: whatever the file ends with (a closing fence as its last byte, a
 * stray `\r`, trailing spaces) and whatever the body holds (`---` lines), the
 * body can never become frontmatter. On a note without a block, a body that
 * would read as one gets an empty block before it.
 *
 * The invariant holds on the result before anything is written: split
 * again, the file gives exactly the intended frontmatter (the old keys, plus
 * the ones set) and exactly the intended body. editedHead checks the first
 * (the new block read back) and joinNote the second (the joined text split
 * again); either refuses the edit with a plain sentence.
 */
export function editedContent(content: string, request: EditRequest, now: Date): EditedNote {
  if (asksForNothing(request)) throw new NothingToUpdateError();
  const split = splitFrontmatter(content);
  const { eol } = split;
  const parsed = parseFrontmatter(split.yaml);
  if (!parsed.ok) throw new ReadOnlyNoteError('The server leaves this note alone because its frontmatter is not valid YAML; fix it in an editor first.');

  let body = split.body;
  if (request.text !== undefined) {
    const bodyEol = bodyLineEndingOf(split.body, eol);
    if (request.mode === 'replace') body = replacedBody(request.text, bodyEol, endsWithLineBreak(content));
    else if (request.text !== '') body = appendParagraph(split.body, request.text, bodyEol);
  }

  const updates: Record<string, unknown> = {};
  if (request.title !== undefined) updates.title = request.title;
  const updatedKey = presentKey(parsed.data, UPDATED_KEYS);
  if (updatedKey !== undefined) updates[updatedKey] = stampLike(parsed.data[updatedKey], now);

  // A layout refused (FrontmatterLayoutError) is a DexiError: the assistant reads its sentence as it is.
  const head = Object.keys(updates).length > 0 ? editedHead(content, split, updates) : headOf(content, split);
  // editedHead has read the new block back as these keys, and joinNote split the joined text back into that block and this body.
  return { content: joinNote(head, body, eol), body, data: { ...parsed.data, ...updates } };
}

/**
 * setFrontmatterKeys (a card's `review` block): the file is split once, the
 * block edited, the body put back unchanged, and nothing is written unless
 * the result reads back that way (else a FrontmatterLayoutError, a DexiError).
 */
export function withFrontmatterKeys(content: string, updates: Record<string, unknown>): string {
  return setFrontmatterKeys(content, updates);
}
