/**
 * rename_tag over a connection's notes: which renames a boundary allows, and
 * the walk over the notes, one note at a time through the vault's write
 * path, where a note that cannot be written is skipped and named rather
 * than stopping the rest. The rule for one note is format/tag-rename.ts.
 */
import { parseTagRename, type TagRename } from '../format/tag-rename.js';
import { tagCovers } from '../format/tags.js';
import { DexiError, InvalidInputError, NoteNotFoundError } from '../vault/errors.js';
import type { NoteRecord } from '../vault/note.js';
import type { AccessPolicy } from './policy.js';

/** The most notes one call renames the tag in; a call again renames the rest. */
export const MAX_RENAMED_NOTES = 20_000;

/** The most skipped notes an answer names (it counts them all). */
const NAMED_SKIPPED = 20;

/** Hears how many of the notes to look at are done. */
export type RenameProgress = (done: number, total: number) => void;

/** Asked before a rename that would change `notes` notes; rejects (nothing written) when the person declines. */
export type RenameConfirm = (from: string, to: string, notes: number) => Promise<void>;

export interface TagRenameOutcome {
  renamed_notes: number;
  tag: string;
  /** The ids of notes that carry the tag but could not be written (at most NAMED_SKIPPED). */
  skipped?: string[];
  /** What was left, in a sentence: the notes skipped, the notes left for another call. */
  message?: string;
}

/**
 * The rename `from` → `to` as this policy allows it. Under a tag boundary a
 * rename that would take notes out of it is refused: renaming the boundary
 * tag or a tag above it (`#work` or `#work/x` for a `#work/x` boundary), or
 * a tag under it to a name outside it.
 */
export function allowedTagRename(policy: AccessPolicy, from: string, to: string): TagRename {
  // Its refusals (TagRenameError) are DexiErrors: the assistant reads them as they are.
  const rename = parseTagRename(from, to);
  const boundary = policy.tag;
  if (boundary !== undefined) {
    if (tagCovers(rename.from, boundary)) {
      throw new InvalidInputError(`This connection is limited to the tag ${boundary}, and renaming ${rename.from} would rename it; it can rename only tags within ${boundary}.`);
    }
    if (tagCovers(boundary, rename.from) && !tagCovers(boundary, rename.to)) {
      throw new InvalidInputError(`This connection is limited to the tag ${boundary}, and ${rename.to} is outside it; rename ${rename.from} to a tag under ${boundary}.`);
    }
  }
  return rename;
}

/**
 * Rename in each of `notes` (all of them own notes the connection sees that
 * carry the tag) with `write`, one note after another, telling `progress`
 * after each. A note `write` refuses with a sentence (read-only, busy with
 * another program, frontmatter it cannot keep) is skipped and named; one
 * that went out of sight meanwhile is passed over without a word, as it
 * would be had it never been seen.
 */
export async function renameInNotes(
  rename: TagRename,
  notes: readonly NoteRecord[],
  write: (record: NoteRecord) => Promise<boolean>,
  progress?: RenameProgress,
): Promise<TagRenameOutcome> {
  const order = [...notes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const now = order.slice(0, MAX_RENAMED_NOTES);
  let renamed = 0;
  const skipped: { id: string; reason: string }[] = [];
  for (const [done, record] of now.entries()) {
    try {
      if (await write(record)) renamed++;
    } catch (error) {
      if (error instanceof NoteNotFoundError) continue;
      const reason = skipReason(error);
      if (reason === undefined) throw error;
      skipped.push({ id: record.id, reason });
    }
    progress?.(done + 1, now.length);
  }
  const outcome: TagRenameOutcome = { renamed_notes: renamed, tag: rename.to };
  const sentences: string[] = [];
  if (skipped.length > 0) {
    outcome.skipped = skipped.slice(0, NAMED_SKIPPED).map((entry) => entry.id);
    sentences.push(skippedSentence(rename, skipped));
  }
  if (order.length > now.length) {
    sentences.push(`${order.length - now.length} more notes carry ${rename.from} than one call renames (${MAX_RENAMED_NOTES}); call rename_tag again with the same tags to rename them.`);
  }
  if (sentences.length > 0) outcome.message = sentences.join(' ');
  return outcome;
}

/** Why a note was skipped, or undefined for an error that is not about the note (which ends the call). */
function skipReason(error: unknown): string | undefined {
  if (error instanceof DexiError) return error.toolSentence;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EACCES' || code === 'EPERM') return 'the system did not allow the file to be written';
  if (code === 'EBUSY') return 'the file is busy with another program';
  return undefined;
}

function skippedSentence(rename: TagRename, skipped: readonly { id: string; reason: string }[]): string {
  const named = skipped.slice(0, NAMED_SKIPPED).map((entry) => `${entry.id} (${entry.reason.replace(/\.$/u, '')})`);
  const more = skipped.length > NAMED_SKIPPED ? `, and ${skipped.length - NAMED_SKIPPED} more` : '';
  const count = skipped.length === 1 ? '1 note still carries' : `${skipped.length} notes still carry`;
  const them = skipped.length === 1 ? 'it can' : 'they can';
  return `${count} ${rename.from}, not written: ${named.join('; ')}${more}. Call rename_tag again once ${them} be written.`;
}
