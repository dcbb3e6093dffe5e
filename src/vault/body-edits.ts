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
import { splitForEdit, stampUpdated, type EditedNote } from './edits.js';
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
  const { split, data } = splitForEdit(content);
  const { eol } = split;
  const body = edit(split.body, eol);
  if (body === split.body) return undefined;
  const updates: Record<string, unknown> = {};
  stampUpdated(data, updates, now);
  const head = Object.keys(updates).length > 0 ? editedHead(content, split, updates) : headOf(content, split);
  return { content: joinNote(head, body, eol), body, data: { ...data, ...updates } };
}

/** An `edit_note` as the vault takes it. */
export interface BodyEditRequest {
  operation: BodyOperation;
  /** Sees the tags the note would have after the edit; throws to refuse it before anything is written. */
  guard?: (tagsAfter: string[]) => void;
  admit?: Admit;
}
