/**
 * A note's file after an `edit_note`: its body edited by the rules of
 * src/format/body-ops.ts, its own `updated` key (or `modified`, `date
 * modified`) stamped as `update_note` stamps it, and nothing else changed.
 * Pure; the rules' refusals (BodyEditError, OutlineTargetError) are
 * DexiErrors, read by the assistant word for word, before anything is written.
 */
import { bodyLineEndingOf, endsWithLineBreak } from '../format/body-edit.js';
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
  const { split, data } = splitForEdit(content);
  const { eol } = split;
  const body = editedBody(split.body, operation, bodyLineEndingOf(split.body, eol), endsWithLineBreak(content));
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
