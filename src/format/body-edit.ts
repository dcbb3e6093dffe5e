/**
 * Edits of a note's Markdown body, as pure functions over strings: what
 * `update_note` writes. A note keeps its own line ending (LF, CRLF, or CR
 * alone in an old Mac body) on every line the server writes, and its final
 * line break or its lack of one; an appended text becomes a paragraph of its
 * own, never a continuation of whatever block the body ended with.
 */

/** A file's line ending, as its frontmatter can have it. */
export type LineEnding = '\n' | '\r\n';
/** A body's line ending: the file's, or CR alone (frontmatter is only read with LF or CRLF, so only a body can be CR-only). */
export type BodyLineEnding = LineEnding | '\r';

/**
 * How much of a file is looked at to tell its line ending: enough for any
 * frontmatter block and the first paragraphs, without scanning a 4 MiB note.
 */
const LINE_ENDING_PROBE = 4096;

/** A file's line ending: CRLF when one appears in its first 4 KiB, else LF. */
export function lineEndingOf(content: string): LineEnding {
  return content.slice(0, LINE_ENDING_PROBE).includes('\r\n') ? '\r\n' : '\n';
}

/**
 * A note body's line ending: CR alone when its first 4 KiB break lines with
 * CR and never with LF (an old Mac file), else the file's own (`fileEol`,
 * from lineEndingOf).
 */
export function bodyLineEndingOf(body: string, fileEol: LineEnding): BodyLineEnding {
  if (fileEol === '\r\n') return fileEol;
  const probe = body.slice(0, LINE_ENDING_PROBE);
  return probe.includes('\r') && !probe.includes('\n') ? '\r' : fileEol;
}

/**
 * Whether a note's file ends with a line break. An empty file (or a
 * byte-order mark alone) counts as one: text written into it ends with a
 * line break, as an append's does.
 */
export function endsWithLineBreak(file: string): boolean {
  return file === '' || file === '\uFEFF' || file.endsWith('\n') || file.endsWith('\r');
}

/**
 * `text` with every line break written as `eol`. A lone `\r` is a line break
 * too (CommonMark reads it as one, and old Mac files use it), so it becomes
 * `eol` rather than staying as a stray character an editor would show.
 */
export function withLineEnding(text: string, eol: BodyLineEnding): string {
  if (!text.includes('\r') && (eol === '\n' || !text.includes('\n'))) return text;
  return text.replace(/\r\n|\r|\n/g, eol);
}

const isLineBreak = (char: string | undefined): boolean => char === '\n' || char === '\r';
const isSpaceOrTab = (char: string | undefined): boolean => char === ' ' || char === '\t';

/**
 * `text` without its trailing blank lines (line breaks and the spaces or tabs
 * between them); trailing spaces of its last non-blank line stay, since two of
 * them are a Markdown hard break. A text of blank lines only becomes ''.
 * Scanned by hand: a regular expression anchored at the end would retry from
 * every position of a long run of blank lines, quadratic in a 4 MiB body.
 */
export function withoutTrailingBlankLines(text: string): string {
  let end = text.length;
  for (;;) {
    let start = end;
    while (start > 0 && isSpaceOrTab(text[start - 1])) start--;
    if (start === 0) return '';
    if (!isLineBreak(text[start - 1])) return text.slice(0, end);
    end = start - 1;
  }
}

/** `text` without its leading blank lines; the indentation of its first non-blank line stays (it can make that line code). */
export function withoutLeadingBlankLines(text: string): string {
  let start = 0;
  for (;;) {
    let end = start;
    while (end < text.length && isSpaceOrTab(text[end])) end++;
    if (end === text.length) return '';
    if (!isLineBreak(text[end])) return text.slice(start);
    start = end + 1;
  }
}

/** A fence line: indentation, then three or more backticks or tildes, then the rest (an info string on an opening fence). */
const FENCE = /^( *)(`{3,}|~{3,})(.*)$/;
/** A list item marker with the spaces after it, when the item's first line holds a fence (`- ```js`). */
const LIST_ITEM_FENCE = /^( *(?:[-+*]|\d{1,9}[.)]) {1,4})(`{3,}|~{3,})(.*)$/;

interface OpenFence {
  /** The fence's characters as the opening line wrote them (` ``` `, `~~~~`). */
  marker: string;
  /** The column of the container the fence is in: 0 at top level, the item's content column for a fence on a list item's first line. */
  column: number;
  /** The indentation to write a closing fence with: the opening's own. */
  indent: string;
}

/**
 * The fenced code block still open at the end of `body`, if any.
 *
 * This follows CommonMark for the fences that matter here, without a full
 * container model: fences at the top level (up to three spaces in) and fences
 * opened on a list item's first line (`- ```js`), whose closing fence sits at
 * the item's content column and which end with the item. A fence inside a
 * block quote, or deeper in a list than three spaces past the margin, is not
 * tracked: a blank line and an unindented paragraph close its container, and
 * the code block with it, so an append needs nothing for it. (Lines inside an
 * HTML block or an Obsidian `%%` comment are not told apart from Markdown.)
 */
function openFenceAtEnd(body: string): OpenFence | undefined {
  let open: OpenFence | undefined;
  for (const rawLine of body.split(/\r\n|\r|\n/)) {
    // Tabs only matter as indentation here, where CommonMark counts one as up to four columns.
    const line = rawLine.replace(/\t/g, '    ');
    if (open) {
      const indent = /^ */.exec(line)?.[0].length ?? 0;
      const blank = indent === line.length;
      if (!blank && open.column > 0 && indent < open.column) {
        // The line is outside the list item, which ends and takes its code block with it.
        open = undefined;
      } else {
        const closing = FENCE.exec(line);
        const relative = indent - open.column;
        if (
          closing &&
          relative >= 0 &&
          relative <= 3 &&
          closing[2]?.[0] === open.marker[0] &&
          (closing[2]?.length ?? 0) >= open.marker.length &&
          (closing[3] ?? '').trim() === ''
        ) {
          open = undefined;
        }
        continue;
      }
    }
    const opening = FENCE.exec(line);
    if (opening && (opening[1] ?? '').length <= 3 && isFenceOpening(opening)) {
      open = { marker: opening[2] ?? '', column: 0, indent: opening[1] ?? '' };
      continue;
    }
    const inItem = LIST_ITEM_FENCE.exec(line);
    if (inItem && isFenceOpening(inItem)) {
      const column = (inItem[1] ?? '').length;
      open = { marker: inItem[2] ?? '', column, indent: ' '.repeat(column) };
    }
  }
  return open;
}

/** A backtick fence's info string cannot hold a backtick (the line would be a code span); a tilde fence's can. */
function isFenceOpening(match: RegExpExecArray): boolean {
  return !(match[2]?.startsWith('`') && (match[3] ?? '').includes('`'));
}

/**
 * `body` with `text` added as a new paragraph: the body's trailing blank lines
 * dropped, one blank line, the text, one final line break. The text's line
 * breaks become `eol`, and its leading and trailing blank lines are dropped, so
 * that exactly one blank line separates it and exactly one line break ends the
 * file. The body's own bytes are kept as they are.
 *
 * - An empty body, or one of blank lines only, gives the text and `eol`.
 * - A blank line ends a list, a block quote, a table or a paragraph before an
 *   unindented paragraph, so the text never joins the body's last block. (A
 *   text that itself begins with a list item after a body that ends in one
 *   with the same marker continues that list, as CommonMark reads any two
 *   items with only blank lines between them.)
 * - A body that ends inside an open fenced code block gets that block's
 *   closing fence first: the block already ends at the end of the file, so
 *   closing it does not change how it reads, and the text is then a paragraph
 *   rather than more code.
 * - A text of blank lines only adds nothing: the body is returned unchanged.
 */
export function appendParagraph(body: string, text: string, eol: BodyLineEnding): string {
  const paragraph = withoutTrailingBlankLines(withoutLeadingBlankLines(withLineEnding(text, eol)));
  if (paragraph === '') return body;
  const kept = withoutTrailingBlankLines(body);
  if (kept === '') return paragraph + eol;
  const fence = openFenceAtEnd(kept);
  const closing = fence ? `${eol}${fence.indent}${fence.marker}` : '';
  return `${kept}${closing}${eol}${eol}${paragraph}${eol}`;
}

/**
 * The body a `replace` writes: `text` with its line breaks written as `eol`
 * and its trailing blank lines dropped (as an append drops them; the trailing
 * spaces of its last line stay), then ending as the note ended: with exactly
 * one line break when `finalBreak` (see endsWithLineBreak), with none when
 * the note had none, so that a note written without a final newline stays
 * so. A text of blank lines only gives an empty body.
 */
export function replacedBody(text: string, eol: BodyLineEnding, finalBreak: boolean): string {
  const body = withoutTrailingBlankLines(withLineEnding(text, eol));
  return body !== '' && finalBreak ? body + eol : body;
}
