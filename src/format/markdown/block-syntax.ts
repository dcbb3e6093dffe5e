/**
 * What one line of a note can start or be, for the block pass (blocks.ts):
 * thematic breaks, setext underlines, ATX headings, code fences, list and
 * task markers, callout markers, table rows, link reference and footnote
 * definitions, and CommonMark's seven kinds of HTML block start. Pure
 * functions over a line and a position in it.
 */
import { BACKSLASH, BACKTICK, BANG, DASH, DOT, HASH, LBRACKET, LT, PIPE, PLUS, RPAREN, SPACE, STAR, TAB, TILDE, runLength } from './chars.js';

export const THEMATIC_BREAK = /^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
export const SETEXT_UNDERLINE = /^(?:=+|-+)[ \t]*$/;
export const TABLE_DELIMITER = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const TASK_MARKER = /\[[ xX]\](?=[ \t]|$)/y;
export const TASK_MARKER_LENGTH = 3;
/** `[!type]`, `[!type|metadata]`, then `+` or `-` when it folds. */
const CALLOUT_MARKER = /\[![^\]\s]+\][+-]?/y;
export const FOOTNOTE_DEF = /\[\^([^\]\s]+)\]:/y;
export const LINK_DEFINITION =
  /^\[((?:[^\\[\]]|\\.){1,999})\]:[ \t]*(?:<[^<>\n]*>|[^\x00-\x20<][^\x00-\x20]*)(?:[ \t]+("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^)\\]|\\.)*\)))?[ \t]*$/;
export const DEFINITION_TITLE = /^(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^)\\]|\\.)*\))[ \t]*$/;

/** What a task list item's checkbox at `p` shows, `☐` or `☑`; '' when there is none. */
export function taskState(line: string, p: number): string {
  if (line.charCodeAt(p) !== LBRACKET) return '';
  TASK_MARKER.lastIndex = p;
  if (!TASK_MARKER.test(line)) return '';
  return line.charCodeAt(p + 1) === SPACE ? '☐' : '☑';
}

/**
 * The title of an Obsidian callout whose marker starts at `q` ('' when it
 * has none), or null when there is no marker there. The caller checks that
 * this is a callout's first line: a block quote opened on this line, the
 * innermost container. The marker is styling; the title is a line of its
 * own, apart from the callout's body, as the reading view shows it.
 */
export function calloutTitle(line: string, q: number): string | null {
  if (line.charCodeAt(q + 1) !== BANG) return null;
  CALLOUT_MARKER.lastIndex = q;
  if (!CALLOUT_MARKER.test(line)) return null;
  return line.slice(CALLOUT_MARKER.lastIndex).trim();
}

const HTML_RAW_START = /^<(?:pre|script|style|textarea)(?:[ \t>]|$)/i;
const HTML_RAW_END = /<\/(?:pre|script|style|textarea)>/i;
const HTML_BLOCK_TAG = /^<\/?([A-Za-z][A-Za-z0-9-]*)(?:[ \t>]|\/>|$)/;
const HTML_COMPLETE_TAG =
  /^(?:<[A-Za-z][A-Za-z0-9-]*(?:[ \t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t]*=[ \t]*(?:[^ \t"'=<>`]+|'[^']*'|"[^"]*"))?)*[ \t]*\/?>|<\/[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$/;
const HTML_BLOCK_NAMES = new Set(
  (
    'address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt ' +
    'fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link ' +
    'main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead ' +
    'title tr track ul'
  ).split(' '),
);

/** Where a block-level HTML start ends, by CommonMark's seven kinds; null: at a blank line; undefined: no HTML block starts here. */
export function htmlBlockEnd(rest: string, interruptsParagraph: boolean): RegExp | null | undefined {
  if (HTML_RAW_START.test(rest)) return HTML_RAW_END;
  if (rest.startsWith('<!--')) return /-->/;
  if (rest.startsWith('<?')) return /\?>/;
  if (rest.startsWith('<![CDATA[')) return /\]\]>/;
  if (/^<![A-Za-z]/.test(rest)) return />/;
  const named = HTML_BLOCK_TAG.exec(rest);
  if (named && HTML_BLOCK_NAMES.has((named[1] ?? '').toLowerCase())) return null;
  // Kind 7, any other complete tag alone on its line (`</pre>` too), cannot interrupt a paragraph.
  if (!interruptsParagraph && HTML_COMPLETE_TAG.test(rest)) return null;
  return undefined;
}

/** A kind 7 HTML start: a complete tag alone on its line, which cannot interrupt a paragraph. */
export function isLoneTagLine(rest: string): boolean {
  return htmlBlockEnd(rest, true) === undefined && htmlBlockEnd(rest, false) === null;
}

/**
 * How many characters of an HTML start the end search skips, so that `<?>`
 * or `<!X` cannot end themselves while `<!-->` and `<!--->` (empty comments,
 * as micromark reads them) do.
 */
export function htmlStartLength(end: RegExp | null): number {
  return end === null || end === HTML_RAW_END ? 1 : 2;
}

/**
 * Expands the tabs in the run of spaces and tabs starting at `p` to spaces, so
 * that from then on a position on the line is also its column. Every character
 * before `p` is a single-column container marker or an already expanded space.
 */
export function expandIndent(line: string, p: number): string {
  let q = p;
  let hasTab = false;
  for (;;) {
    const c = line.charCodeAt(q);
    if (c === SPACE) q++;
    else if (c === TAB) {
      hasTab = true;
      q++;
    } else break;
  }
  if (!hasTab) return line;
  let spaces = '';
  let col = p;
  for (let k = p; k < q; k++) {
    const width = line.charCodeAt(k) === TAB ? 4 - (col % 4) : 1;
    spaces += ' '.repeat(width);
    col += width;
  }
  return line.slice(0, p) + spaces + line.slice(q);
}

export function spacesAt(line: string, p: number): number {
  let q = p;
  while (line.charCodeAt(q) === SPACE) q++;
  return q - p;
}

export function isBlankFrom(line: string, p: number): boolean {
  for (let q = p; q < line.length; q++) {
    const c = line.charCodeAt(q);
    if (c !== SPACE && c !== TAB) return false;
  }
  return true;
}

/** A trimmed ATX heading's text without its optional closing `#`s (which need a space before them). */
export function withoutClosingSequence(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === HASH) end--;
  if (end === text.length) return text;
  if (end === 0) return '';
  const before = text.charCodeAt(end - 1);
  return before === SPACE || before === TAB ? text.slice(0, end).trimEnd() : text;
}

/** Length of a code fence opening at `q`, or 0. */
export function fenceOpening(line: string, q: number): number {
  const c = line.charCodeAt(q);
  if (c !== BACKTICK && c !== TILDE) return 0;
  const len = runLength(line, q, c);
  if (len < 3) return 0;
  // A backtick fence's info string cannot hold a backtick (it would be a code span).
  if (c === BACKTICK && line.indexOf('`', q + len) >= 0) return 0;
  return len;
}

/** The level of an ATX heading starting at `q`, or 0. */
export function atxLevel(line: string, q: number): number {
  const level = runLength(line, q, HASH);
  if (level < 1 || level > 6) return 0;
  const after = line.charCodeAt(q + level);
  return after === SPACE || after === TAB || Number.isNaN(after) ? level : 0;
}

export interface ListMarker {
  /** Column of the item's content for continuation lines. */
  col: number;
  /** Where the first line's content starts. */
  contentPos: number;
  empty: boolean;
  /** The line with the indentation after the marker expanded. */
  line: string;
}

/** A list item marker at `q`; when it would interrupt a paragraph it must be non-empty and, if ordered, start at 1. */
export function listMarkerAt(line: string, q: number, interruptsParagraph: boolean): ListMarker | null {
  const c = line.charCodeAt(q);
  let markerEnd: number;
  if (c === DASH || c === STAR || c === PLUS) {
    markerEnd = q + 1;
  } else if (c >= 48 && c <= 57) {
    let d = q;
    while (d - q < 10 && line.charCodeAt(d) >= 48 && line.charCodeAt(d) <= 57) d++;
    const delim = line.charCodeAt(d);
    if (d - q > 9 || (delim !== DOT && delim !== RPAREN)) return null;
    if (interruptsParagraph && line.slice(q, d) !== '1') return null;
    markerEnd = d + 1;
  } else return null;
  const after = line.charCodeAt(markerEnd);
  if (!Number.isNaN(after) && after !== SPACE && after !== TAB) return null;
  if ((c === DASH || c === STAR) && THEMATIC_BREAK.test(line.slice(q))) return null;
  const expanded = expandIndent(line, markerEnd);
  const width = spacesAt(expanded, markerEnd);
  if (markerEnd + width >= expanded.length) {
    if (interruptsParagraph) return null;
    return { col: markerEnd + 1, contentPos: expanded.length, empty: true, line: expanded };
  }
  // Five or more spaces: the content is indented code one space after the marker.
  if (width >= 5) return { col: markerEnd + 1, contentPos: markerEnd + 1, empty: false, line: expanded };
  return { col: markerEnd + width, contentPos: markerEnd + width, empty: false, line: expanded };
}

/** Whether a line that failed to match its containers still continues the open paragraph ("laziness"). */
export function continuesParagraph(line: string, p: number): boolean {
  const ind = spacesAt(line, p);
  if (ind >= 4) return true;
  const q = p + ind;
  if (fenceOpening(line, q) > 0 || atxLevel(line, q) > 0) return false;
  const rest = line.slice(q);
  if (THEMATIC_BREAK.test(rest)) return false;
  if (line.charCodeAt(q) === LT && htmlBlockEnd(rest, true) !== undefined) return false;
  return true;
}

/** The cells of a table row: outer pipes dropped, split on unescaped pipes, trimmed. */
export function splitCells(row: string): string[] {
  let s = row.trim();
  if (s.charCodeAt(0) === PIPE) s = s.slice(1);
  if (s.charCodeAt(s.length - 1) === PIPE && s.charCodeAt(s.length - 2) !== BACKSLASH) s = s.slice(0, -1);
  const cells: string[] = [];
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === PIPE) {
      cells.push(s.slice(from, i).trim());
      from = i + 1;
    }
  }
  cells.push(s.slice(from).trim());
  return cells;
}
