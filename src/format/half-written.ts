import { splitFrontmatter } from '../format/frontmatter.js';

/**
 * What a version of a file looks like from outside, enough to tell whether
 * a newer version is that one cut short by a program still writing it: a
 * save that truncates the file and writes it again in pieces shows, between
 * its pieces, an empty file, a frontmatter opened and never closed, or a
 * text cut mid-line.
 */
export interface FileShape {
  size: number;
  /** Whether the last byte is a line feed or a carriage return; undefined when not known. */
  finalNewline?: boolean;
  /** The frontmatter block: closed, opened and never closed, or none; undefined when not known. */
  block?: 'closed' | 'open' | 'none';
}

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;

/** The shape of a file's bytes, whose text (decoded) is `text`. Pure. */
export function shapeOf(bytes: Uint8Array, text: string): FileShape {
  const last = bytes.length === 0 ? undefined : bytes[bytes.length - 1];
  const block = !OPENING.test(text) ? 'none' : splitFrontmatter(text).yaml === null ? 'open' : 'closed';
  return { size: bytes.length, finalNewline: last === 0x0a || last === 0x0d, block };
}

/**
 * Why `now` looks like the last complete version (`last`) cut short by a
 * writer still at work, or undefined when it looks complete. Pure.
 *
 * - empty where the last version was not (a truncate, then nothing yet);
 * - its frontmatter opened and not closed where the last version's was
 *   closed (or is not known): the YAML stops mid-block;
 * - shorter, and ending mid-line where the last version ended with a line
 *   break;
 * - less than two thirds of the last version's length (half of a save).
 *
 * A person may mean any of these (a note cut down, a trailing newline
 * removed): such a version is only built on once it has stayed quiet longer.
 */
export function looksHalfWritten(now: FileShape, last: FileShape): string | undefined {
  if (now.size === 0 && last.size > 0) return 'it is empty';
  if (now.block === 'open' && last.block !== 'none' && last.block !== 'open') return 'its frontmatter is opened and not closed';
  if (now.size < last.size && last.finalNewline === true && now.finalNewline === false) return 'it ends mid-line';
  if (now.size * 3 < last.size * 2) return 'it lost a third of its length or more';
  return undefined;
}
