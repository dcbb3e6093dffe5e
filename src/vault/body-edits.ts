/**
 * A note's file after an `edit_note`: its body edited by the rules of
 * src/format/body-ops.ts, its own `updated` key (or `modified`, `date
 * modified`) stamped as `update_note` stamps it, and nothing else changed.
 * Pure; the rules' refusals (BodyEditError, OutlineTargetError) are
 * DexiErrors, read by the assistant word for word, before anything is written.
 */
import { bodyLineEndingOf, endsWithLineBreak, type LineEnding } from '../format/body-edit.js';
import { editedBody, type BodyOperation } from '../format/body-ops.js';
import { editedHead, headOf, joinNote } from '../format/frontmatter-edit.js';
import { parseFrontmatter, splitFrontmatter } from '../format/frontmatter.js';
import { presentKey, UPDATED_KEYS } from '../format/dates.js';
import { stampLike, type EditedNote } from './edits.js';
import { ReadOnlyNoteError } from './errors.js';
import type { Admit } from './note.js';

export type { BodyOperation } from '../format/body-ops.js';

/**
 * The file after `operation`, from its current content; undefined when the
 * body would not change (a replace_text of a text by itself): nothing is
 * written then, and `updated` keeps its value.
 */
export function editedNoteBody(content: string, operation: BodyOperation, now: Date): EditedNote | undefined {
  return withEditedBody(content, now, (body, eol) => editedBody(body, operation, bodyLineEndingOf(body, eol), endsWithLineBreak(content)));
}

/**
 * The file with its body replaced by `edit`'s answer (given the body and the
 * frontmatter's line ending), its `updated` key stamped as `edit_note` stamps
 * it; undefined when the body stays as it was. `complete_task` edits a body
 * this way too.
 */
export function withEditedBody(content: string, now: Date, edit: (body: string, eol: LineEnding) => string): EditedNote | undefined {
  const split = splitFrontmatter(content);
  const { eol } = split;
  const parsed = parseFrontmatter(split.yaml);
  if (!parsed.ok) throw new ReadOnlyNoteError('The server leaves this note alone because its frontmatter is not valid YAML; fix it in an editor first.');
  const body = edit(split.body, eol);
  if (body === split.body) return undefined;
  const updatedKey = presentKey(parsed.data, UPDATED_KEYS);
  const updates: Record<string, unknown> = {};
  if (updatedKey !== undefined) updates[updatedKey] = stampLike(parsed.data[updatedKey], now);
  const head = updatedKey !== undefined ? editedHead(content, split, updates) : headOf(content, split);
  return { content: joinNote(head, body, eol), body, data: { ...parsed.data, ...updates } };
}

/** An `edit_note` as the vault takes it. */
export interface BodyEditRequest {
  operation: BodyOperation;
  /** Sees the tags the note would have after the edit; throws to refuse it before anything is written. */
  guard?: (tagsAfter: string[]) => void;
  admit?: Admit;
}
