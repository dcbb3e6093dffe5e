import { parseIso } from './time.js';

/**
 * A note's `created` and `updated`, from the sources the contract lists, in
 * order (../shared/spec/vault.md, "Dates"). Pure: the vault gathers the
 * facts, this decides.
 */
export interface DateFacts {
  /** From the frontmatter (`created`, `date`, `date created`) or, failing that, a date in the file name. */
  statedCreatedMs?: number | undefined;
  /** From the frontmatter (`updated`, `modified`, `date modified`). */
  statedUpdatedMs?: number | undefined;
  /** In a git work tree: when the file was first committed, following renames. */
  gitFirstAddedMs?: number | undefined;
  /** In a git work tree, only when the file is unchanged since its last commit: that commit's time. */
  gitLastCommitMs?: number | undefined;
  /** The note's `created` when it was last moved or renamed: the dates go with the note, not its path. */
  keptCreatedMs?: number | undefined;
  /** The note's `updated` when it was last moved, while its content is unchanged since. */
  keptUpdatedMs?: number | undefined;
  /** When the server last saw the note's content change (its watcher, or a difference from its cache at start). */
  editedMs?: number | undefined;
  birthtimeMs: number;
  mtimeMs: number;
}

export function noteDates(facts: DateFacts): { createdMs: number; updatedMs: number } {
  // Some file systems report no birth time (0): the modification time is the best left.
  const birth = facts.birthtimeMs > 0 ? facts.birthtimeMs : facts.mtimeMs;
  // A moved note's path may have no history yet, or git may follow the
  // rename once it is committed: either way the note existed at the earlier
  // of the two, and the new file's birth time says only when it was moved.
  // A move is no edit: its `updated` stays, even once a commit records the
  // rename (git counts that commit as the file's last change).
  const kept = earliest(facts.keptCreatedMs, facts.gitFirstAddedMs);
  const created = facts.statedCreatedMs ?? kept ?? birth;
  const updated = facts.statedUpdatedMs !== undefined ? laterOfStatedAndEdit(facts) : (facts.keptUpdatedMs ?? facts.gitLastCommitMs ?? facts.mtimeMs);
  // A copy keeps its modification time but is born now, and people mistype
  // dates: `created` is never later than `updated`.
  return { createdMs: Math.min(created, updated), updatedMs: updated };
}

/**
 * A stated `updated` that an edit seen since has left behind (an editor that
 * does not keep the key): the edit's time wins. An edit whose content is
 * the file's last commit (a pull, a commit right after) dates from that
 * commit, not from when the file arrived here.
 */
function laterOfStatedAndEdit(facts: DateFacts): number {
  const stated = facts.statedUpdatedMs as number;
  if (facts.editedMs === undefined) return stated;
  return Math.max(stated, facts.gitLastCommitMs ?? facts.editedMs);
}

function earliest(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

/** What a note's record knows of its past, beyond its file: see `DateFacts`. */
export interface KeptDates {
  keptCreatedMs?: number;
  keptUpdatedMs?: number;
  editedMs?: number;
}

/**
 * The dates `next` (the note as read now) keeps from `before` (the same
 * note, by id, as the server knew it): across a move its `created` and,
 * while its content is the same, its `updated`; across an edit seen, the
 * edit's time (the file's modification time: when the edit was written).
 * The server's own write (`seen` false) is no edit seen: it writes the
 * note's `updated` key itself where there is one, and grading must not
 * move it.
 */
export function keptDates(
  next: { path: string; hash: string; mtimeMs: number },
  before: { path: string; hash: string; createdMs: number; updatedMs: number } & KeptDates,
  seen = true,
): KeptDates {
  const moved = before.path !== next.path;
  const kept: KeptDates = {};
  const created = moved ? before.createdMs : before.keptCreatedMs;
  if (created !== undefined) kept.keptCreatedMs = created;
  if (before.hash === next.hash) {
    const updated = moved ? before.updatedMs : before.keptUpdatedMs;
    if (updated !== undefined) kept.keptUpdatedMs = updated;
    if (before.editedMs !== undefined) kept.editedMs = before.editedMs;
  } else if (seen) {
    kept.editedMs = Math.max(next.mtimeMs, before.editedMs ?? -Infinity);
  } else if (before.editedMs !== undefined) {
    kept.editedMs = before.editedMs;
  }
  return kept;
}

export const CREATED_KEYS = ['created', 'date', 'date created'] as const;
export const UPDATED_KEYS = ['updated', 'modified', 'date modified'] as const;

/** The first of `keys` that the frontmatter holds as a date, in milliseconds. */
export function statedDate(data: Record<string, unknown>, keys: readonly string[]): number | undefined {
  for (const key of keys) {
    const value = data[key];
    if (value === undefined || value === null || value === '') continue;
    const date = parseIso(value);
    if (date) return date.getTime();
  }
  return undefined;
}

/** The first of `keys` the frontmatter has at all (written or not as a date): the key an edit moves. */
export function presentKey(data: Record<string, unknown>, keys: readonly string[]): string | undefined {
  return keys.find((key) => key in data);
}

// A daily note: the file name starts with a date, alone or followed by a
// separator and words (`2025-04-01.md`, `2025-04-01 Standup.md`), never by
// more digits (`2025-04-0123.md` is not a date).
const NAME_DATE = /^(\d{4}-\d{2}-\d{2})(?:$|[^\d])/;

/** The date a daily note's file name gives, as local midnight; undefined for other names. */
export function fileNameDate(vaultPath: string): number | undefined {
  const name = vaultPath.slice(vaultPath.lastIndexOf('/') + 1).replace(/\.md$/i, '');
  const match = NAME_DATE.exec(name);
  return match ? parseIso(match[1])?.getTime() : undefined;
}
