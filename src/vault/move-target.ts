/**
 * Where a move or a rename puts a note, and whether the name asked for is
 * free there. Pure: the notes that share the name are handed in.
 *
 * A move alone keeps the file name, numbered (` 2`, ` 3`, …) when it is
 * taken in the folder moved into, as Obsidian does. A rename (`name` given)
 * is asked for by name, so a name another note holds there (in any case) is
 * refused rather than numbered: the assistant learns the name is taken
 * instead of getting a note it did not name. Security: only when that note
 * is one the connection sees; a name held by a note it cannot see is
 * numbered as a move numbers it (the title then kept in the frontmatter),
 * so the answer is the one it would be had that note not been there.
 */
import { fileNameProblem, printable } from '../files/filenames.js';
import { foldPath } from './catalog.js';
import { DexiError, InvalidInputError } from './errors.js';
import type { Visible } from './link-index.js';
import type { NoteRecord } from './note.js';

/** Where to put a note: a folder (null: the vault's top level; left out: where it is) and a new file name without `.md` (left out: its own). */
export interface Destination {
  folder?: string | null;
  name?: string;
}

export class NameTakenError extends DexiError {
  constructor(name: string) {
    super(`Another note in that folder is already named "${name}" (names are compared ignoring case); choose another name, or rename or move that note first.`);
  }
}

/**
 * The file name `asked` stands for (`move_note`'s `name`): in NFC, spaces
 * around it and a trailing `.md` dropped (the name is the note's title; the
 * file keeps its extension). Throws a plain sentence when it breaks the
 * rules of a file name made from a title (filenames.ts).
 */
export function askedName(asked: string): string {
  const name = asked.normalize('NFC').trim().replace(/\.md$/i, '');
  const problem = fileNameProblem(name);
  if (problem !== undefined) throw new InvalidInputError(`Cannot rename the note to "${printable(name)}": ${problem}. Give a name without those, e.g. "Meeting notes 2026-12".`);
  return name;
}

/** The file name a note at `currentPath` gets: `name` with the note's own extension (`.md` as written), else its own name. */
export function fileNameParts(currentPath: string, name: string | undefined): { base: string; extension: string } {
  const own = currentPath.slice(currentPath.lastIndexOf('/') + 1);
  const base = own.slice(0, -'.md'.length);
  return { base: name ?? base, extension: own.slice(base.length) };
}

/**
 * Whether a note other than `selfId` is at `toPath` in any case, among
 * `sameName` (the notes whose file name folds like it): `'seen'` when the
 * connection (`visible`; every note without one) sees such a note,
 * `'hidden'` when only notes it cannot see are there, else `'free'`.
 */
export function nameHolder(toPath: string, selfId: string, sameName: readonly NoteRecord[], visible: Visible | undefined): 'free' | 'hidden' | 'seen' {
  const key = foldPath(toPath);
  let found: 'free' | 'hidden' = 'free';
  for (const other of sameName) {
    if (other.id === selfId || foldPath(other.path) !== key) continue;
    if (!visible || visible(other)) return 'seen';
    found = 'hidden';
  }
  return found;
}
