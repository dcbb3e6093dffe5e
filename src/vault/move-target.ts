/**
 * Where a move or a rename puts a note, and whether the name asked for is
 * free there. Pure: the notes that share the name are handed in.
 *
 * A move alone keeps the file name, numbered (` 2`, ` 3`, …) when it is
 * taken in the folder moved into, as Obsidian does. A rename (`name` given)
 * is asked for by name, so a name another note has there (in any case) is
 * refused rather than numbered: the assistant learns the name is taken
 * instead of getting a note it did not name. Security: only when that note
 * is one the connection sees (`nameTaken`); a file name held by a note it
 * cannot see is numbered as a move numbers it (the title then kept in the
 * frontmatter), so the answer is the one it would be had that note not
 * been there.
 */
import { fileNameProblem, printable } from '../storage/filenames.js';
import { foldName } from '../storage/names.js';
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
 * Whether the name asked for is taken where the note would go (`toPath`,
 * the file name it asks for there) for the connection: a note it sees in
 * that folder (other than `selfId`) has that title, in any case; without a
 * boundary (`visible` undefined: every note seen) also a note that holds
 * that file name. Security: under a boundary, titles only. A note the
 * connection sees may sit under a numbered file name because a hidden note
 * held the name (its title kept in its frontmatter), so a test of file
 * names would answer differently with and without that hidden note; the
 * titles are the same either way.
 */
export function nameTaken(name: string, toPath: string, selfId: string, notes: Iterable<NoteRecord>, visible: Visible | undefined): boolean {
  const folder = foldPath(toPath.slice(0, Math.max(0, toPath.lastIndexOf('/'))));
  const path = foldPath(toPath);
  const title = foldName(name);
  for (const other of notes) {
    if (other.id === selfId || foldPath(other.path.slice(0, Math.max(0, other.path.lastIndexOf('/')))) !== folder) continue;
    if (visible && !visible(other)) continue;
    if (foldName(other.title) === title || (!visible && foldPath(other.path) === path)) return true;
  }
  return false;
}

/** Whether a note other than `selfId` is at `toPath` in any case, among `sameName` (the notes whose file name folds like it): then a move numbers the name. */
export function pathHeld(toPath: string, selfId: string, sameName: readonly NoteRecord[]): boolean {
  const key = foldPath(toPath);
  return sameName.some((other) => other.id !== selfId && foldPath(other.path) === key);
}
