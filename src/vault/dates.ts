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
  birthtimeMs: number;
  mtimeMs: number;
}

export function noteDates(facts: DateFacts): { createdMs: number; updatedMs: number } {
  // Some file systems report no birth time (0): the modification time is the best left.
  const birth = facts.birthtimeMs > 0 ? facts.birthtimeMs : facts.mtimeMs;
  const created = facts.statedCreatedMs ?? facts.gitFirstAddedMs ?? birth;
  const updated = facts.statedUpdatedMs ?? facts.gitLastCommitMs ?? facts.mtimeMs;
  // A copy keeps its modification time but is born now, and people mistype
  // dates: `created` is never later than `updated`.
  return { createdMs: Math.min(created, updated), updatedMs: updated };
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
