import { appendParagraph, bodyLineEndingOf, endsWithLineBreak, replacedBody } from '../format/body-edit.js';
import { editedHead, headOf, joinNote } from '../format/frontmatter-edit.js';
import { parseFrontmatter, splitFrontmatter, type FrontmatterData, type SplitNote } from '../format/frontmatter.js';
import { presentKey, UPDATED_KEYS } from '../format/dates.js';
import { NothingToUpdateError, ReadOnlyNoteError } from './errors.js';
import { extractTags } from '../format/markdown.js';
import { frontmatterTags, mergeTags } from '../format/tags.js';
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
function stampLike(previous: unknown, now: Date): string {
  return typeof previous === 'string' && DATE_ONLY.test(previous.trim()) ? formatLocal(now, 'day') : formatIso(now);
}

/**
 * The bookkeeping every edit a tool asks for does (update_note, edit_note,
 * set_properties): the note's own `updated` key (or `modified`, `date
 * modified`), if it has one (`data`, its frontmatter before the edit) and
 * the edit does not set or remove that key itself (`asked`, the keys it
 * sets; by default `changes`), is set in `changes` to `now`, written the way
 * the note writes it. No key the note did not have is added.
 */
export function stampUpdated(data: FrontmatterData, changes: Record<string, unknown>, now: Date, asked: object = changes): void {
  const key = presentKey(data, UPDATED_KEYS);
  if (key !== undefined && !Object.hasOwn(asked, key)) changes[key] = stampLike(data[key], now);
}

/**
 * A note's file split once into its head and body, with its frontmatter
 * read, for an edit; refused with a plain sentence, before anything is
 * written, when the block is not valid YAML (the note is left alone).
 */
export function splitForEdit(content: string): { split: SplitNote; data: FrontmatterData } {
  const split = splitFrontmatter(content);
  const parsed = parseFrontmatter(split.yaml);
  if (!parsed.ok) throw new ReadOnlyNoteError('The server leaves this note alone because its frontmatter is not valid YAML; fix it in an editor first.');
  return { split, data: parsed.data };
}

/**
 * What an edit writes (undefined: nothing), once the request's `guard` has
 * seen the tags the note would have after it (frontmatter and body) and not
 * refused it.
 */
export function guardedContent(edited: EditedNote | undefined, guard: ((tagsAfter: string[]) => void) | undefined): string | undefined {
  if (edited) guard?.(mergeTags(frontmatterTags(edited.data.tags), extractTags(edited.body)));
  return edited?.content;
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
  const { split, data } = splitForEdit(content);
  const { eol } = split;

  let body = split.body;
  if (request.text !== undefined) {
    const bodyEol = bodyLineEndingOf(split.body, eol);
    if (request.mode === 'replace') body = replacedBody(request.text, bodyEol, endsWithLineBreak(content));
    else if (request.text !== '') body = appendParagraph(split.body, request.text, bodyEol);
  }

  const updates: Record<string, unknown> = {};
  if (request.title !== undefined) updates.title = request.title;
  stampUpdated(data, updates, now);

  // A layout refused (FrontmatterLayoutError) is a DexiError: the assistant reads its sentence as it is.
  const head = Object.keys(updates).length > 0 ? editedHead(content, split, updates) : headOf(content, split);
  // editedHead has read the new block back as these keys, and joinNote split the joined text back into that block and this body.
  return { content: joinNote(head, body, eol), body, data: { ...data, ...updates } };
}
