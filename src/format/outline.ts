/**
 * A note body's outline: its headings with their lines, and the span of a
 * heading's section or of a `^block`, as `edit_note` targets them and
 * `get_note` reads them. Pure functions over the body (the frontmatter
 * already split off); lines are 1-based and counted the way an editor counts
 * them, with CRLF, LF or CR alone as a line break.
 *
 * This is a line scanner of its own rather than the block pass of
 * src/vault/markdown/: that pass yields leaves without their lines, and this
 * layer sits below the vault. It reads only what decides where a heading
 * is, as Obsidian's outline shows them:
 * - ATX headings (`# A` … `###### A`, up to three spaces in, closing `#`s
 *   dropped) and setext headings (a paragraph underlined with `===` or
 *   `---`), at the top level: a heading inside a block quote or a list item
 *   is not in Obsidian's outline either;
 * - never inside fenced code (``` or ~~~, a closing fence as long as the
 *   opening at least), indented code, an HTML comment (`<!--` … `-->` from
 *   the start of a line; one that nothing closes runs to the end, as in
 *   CommonMark), an Obsidian `%%comment%%` or a `$$math$$` block. A `%%` or
 *   `$$` that nothing after it closes is text, as in the scanner of
 *   src/format/markdown.ts: a stray `100%%` must not hide the rest of the
 *   outline.
 * Lines inside a list item are followed by its content column, lazy
 * continuation lines included, as test/format/outline-oracle.test.ts checks
 * against mdast-util-from-markdown. Other HTML blocks are not told apart
 * from Markdown (a `# line` inside a `<div>` counts as a heading), nor are
 * GFM tables (a table row underlined with `===` would read as a setext
 * heading).
 */
import { DexiError } from '../storage/errors.js';

/** A heading of the body: its text (without the `#`s), its level (1–6) and its 1-based line. */
export interface OutlineHeading {
  heading: string;
  level: number;
  line: number;
}

/**
 * Where a target lies, in 1-based lines of the body, inclusive:
 * - a section: the content lines after the heading (after a setext heading's
 *   underline) up to the next heading of the same or a higher level; `to`
 *   is `from - 1` when the section is empty;
 * - a block: the paragraph or list item whose last line ends with `^id`.
 */
export type TargetSpan = { kind: 'section'; headingLine: number; from: number; to: number } | { kind: 'block'; from: number; to: number };

/** A line of the body: its text, and where it and its line break are (offsets into the body). */
export interface BodyLine {
  text: string;
  /** Offset of the line's first character. */
  start: number;
  /** Offset just past the line's text (where its line break starts). */
  end: number;
  /** Offset just past its line break: the next line's start (equals `end` on a last line without one). */
  next: number;
}

/** A target that names no heading (or block) of the note, or more than one: the message is the sentence an assistant reads. */
export class OutlineTargetError extends DexiError {}

/**
 * The body's lines. A final line break ends the last line and starts none:
 * `a\nb\n` has two lines, `a\nb` too, and an empty body none.
 */
export function bodyLines(body: string): BodyLine[] {
  const lines: BodyLine[] = [];
  let start = 0;
  while (start < body.length) {
    let end = start;
    while (end < body.length && body[end] !== '\n' && body[end] !== '\r') end++;
    let next = end;
    if (body[next] === '\r') next++;
    if (body[next] === '\n' && (next === end || body[end] === '\r')) next++;
    lines.push({ text: body.slice(start, end), start, end, next });
    start = next;
  }
  return lines;
}

/** A heading as the scanner found it: the outline entry plus its last line (a setext heading's underline). */
export interface ScannedHeading extends OutlineHeading {
  /** The heading's last line: its own for an ATX heading, the underline's for a setext one. */
  lastLine: number;
}

/** What the scanner reads of a body. */
export interface BodyScan {
  lines: BodyLine[];
  headings: ScannedHeading[];
  /** By 0-based line index: whether the line is Markdown (not code, a comment or math). */
  prose: boolean[];
  /** A fenced code block still open at the end of the body: its fence (indentation and characters), and its opening line (1-based). */
  openFence?: { text: string; line: number };
}

const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const LIST_ITEM = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const QUOTE = /^ {0,3}>/;
/** A list item's marker with the spaces after it (up to its content). */
const LIST_ITEM_CONTENT = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]+|$)/;
const HTML_COMMENT_START = /^ {0,3}<!--/;

/** Columns of a line's indentation, a tab counting to the next multiple of four. */
function indentOf(line: string): number {
  let column = 0;
  for (const char of line) {
    if (char === ' ') column++;
    else if (char === '\t') column += 4 - (column % 4);
    else return column;
  }
  return column;
}

const isBlank = (line: string): boolean => /^[ \t]*$/.test(line);

/** An ATX heading's text: trimmed, its closing sequence of `#`s dropped (only when a space precedes it, or it is all there is). */
function atxText(rest: string | undefined): string {
  const text = (rest ?? '').trim();
  if (/^#+$/.test(text)) return '';
  return text.replace(/[ \t]+#+$/, '').trim();
}

/** The offset of the last `%%` and `$$` in the body (-1: none). */
type LastMarkers = Record<'%%' | '$$', number>;

type Paragraph = { firstLine: number; texts: string[]; plain: boolean } | undefined;

/**
 * The scan of a body: its lines, its headings, which lines are Markdown, and
 * whether it ends inside a fenced code block. One pass, line by line.
 */
export function scanBody(body: string): BodyScan {
  const lines = bodyLines(body);
  const headings: ScannedHeading[] = [];
  const prose: boolean[] = [];
  let fence: { char: string; length: number; text: string; line: number } | undefined;
  let inHtmlComment = false;
  let inPercent = false;
  let inMath = false;
  let paragraph: Paragraph;
  // The content column of the list item the lines are in, if any: lines indented that far belong to it, and hold no top-level heading.
  let itemColumn: number | undefined;
  let afterBlank = false;
  // Where each closing marker last occurs: whether one comes later is then one comparison, not a search to the end of a long body.
  const last: LastMarkers = { '%%': body.lastIndexOf('%%'), $$: body.lastIndexOf('$$') };

  for (let index = 0; index < lines.length; index++) {
    const { text: line } = lines[index] as BodyLine;
    const number = index + 1;
    if (fence) {
      prose.push(false);
      const closing = FENCE.exec(line);
      if (closing && closing[2]?.[0] === fence.char && (closing[2]?.length ?? 0) >= fence.length && (closing[3] ?? '').trim() === '') fence = undefined;
      continue;
    }
    if (inHtmlComment) {
      prose.push(false);
      if (line.includes('-->')) inHtmlComment = false;
      continue;
    }
    // Comments and math run from marker to marker, across lines; a line that starts inside one is not Markdown.
    const startsHidden = inPercent || inMath;
    ({ inPercent, inMath } = markersAfter(last, lines[index] as BodyLine, inPercent, inMath));
    if (startsHidden) {
      prose.push(false);
      paragraph = undefined;
      continue;
    }
    prose.push(true);
    if (isBlank(line)) {
      paragraph = undefined;
      afterBlank = true;
      continue;
    }
    const indent = indentOf(line);
    const wasAfterBlank = afterBlank;
    afterBlank = false;
    if (itemColumn !== undefined) {
      if (indent >= itemColumn) {
        // Inside the item: its blocks are not in the outline (a fence there is still followed).
        const inner = FENCE.exec(line.trimStart());
        if (inner && inner[1] === '') fence = { char: inner[2]?.[0] ?? '`', length: inner[2]?.length ?? 3, text: `${' '.repeat(indent)}${inner[2] ?? ''}`, line: number };
        if (fence) {
          prose[index] = false;
          paragraph = undefined;
        } else if (ATX.test(line.trimStart()) || THEMATIC_BREAK.test(line.trimStart())) paragraph = undefined;
        else if (paragraph) paragraph.texts.push(line.trim());
        else paragraph = { firstLine: number, texts: [line.trim()], plain: false };
        continue;
      }
      // A line less indented ends the item, unless it is a lazy continuation of the item's paragraph.
      if (!wasAfterBlank && paragraph && !paragraph.plain && !LIST_ITEM.test(line) && !ATX.test(line) && !FENCE.test(line) && !THEMATIC_BREAK.test(line) && !QUOTE.test(line) && !HTML_COMMENT_START.test(line)) {
        paragraph.texts.push(line.trim());
        continue;
      }
      itemColumn = undefined;
    }
    if (indent >= 4) {
      // Indented code, unless it continues a paragraph.
      if (paragraph) paragraph.texts.push(line.trim());
      else prose[index] = false;
      continue;
    }
    const setext = SETEXT.exec(line);
    if (setext && paragraph?.plain) {
      headings.push({ heading: paragraph.texts.join(' '), level: setext[1]?.startsWith('=') ? 1 : 2, line: paragraph.firstLine, lastLine: number });
      paragraph = undefined;
      continue;
    }
    const opening = FENCE.exec(line);
    if (opening && !(opening[2]?.startsWith('`') && (opening[3] ?? '').includes('`'))) {
      fence = { char: opening[2]?.[0] ?? '`', length: opening[2]?.length ?? 3, text: `${opening[1] ?? ''}${opening[2] ?? ''}`, line: number };
      prose[index] = false;
      paragraph = undefined;
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      headings.push({ heading: atxText(atx[2]), level: atx[1]?.length ?? 1, line: number, lastLine: number });
      paragraph = undefined;
      continue;
    }
    if (HTML_COMMENT_START.test(line)) {
      paragraph = undefined;
      // As in CommonMark, a comment that nothing closes runs to the end of the body.
      if (!line.slice(line.indexOf('<!--') + 4).includes('-->')) {
        inHtmlComment = true;
        prose[index] = false;
      }
      continue;
    }
    if (THEMATIC_BREAK.test(line)) {
      paragraph = undefined;
      continue;
    }
    const item = LIST_ITEM_CONTENT.exec(line);
    if (item) itemColumn = indentOf(item[0].replace(/[ \t]+$/, '')) + Math.max(1, Math.min(4, item[0].length - item[0].trimEnd().length));
    const container = QUOTE.exec(line) ?? LIST_ITEM.exec(line);
    if (container) {
      // A paragraph in a quote or an item goes on in the lines after it (lazily), but is never a setext heading's text; other blocks end with their line.
      const content = line.slice(container[0].length).replace(/^[ \t]?/, '');
      paragraph = isBlank(content) || ATX.test(content) || FENCE.test(content) || THEMATIC_BREAK.test(content) ? undefined : { firstLine: number, texts: [line.trim()], plain: false };
      continue;
    }
    if (paragraph) paragraph.texts.push(line.trim());
    else paragraph = { firstLine: number, texts: [line.trim()], plain: true };
  }
  const scan: BodyScan = { lines, headings, prose };
  if (fence) scan.openFence = { text: fence.text, line: fence.line };
  return scan;
}

/**
 * Whether a `%%` comment or a `$$` math block is open after `line`, given
 * whether one was open before it. A marker opens only when another closes it
 * later in the body; inside a comment `$$` means nothing, and inside math
 * `%%` nothing.
 */
function markersAfter(last: LastMarkers, line: BodyLine, inPercent: boolean, inMath: boolean): { inPercent: boolean; inMath: boolean } {
  // Searched within the line: a search to the body's end from every line would be quadratic in a long note.
  const text = line.text;
  let position = 0;
  for (;;) {
    if (inPercent || inMath) {
      const close = text.indexOf(inPercent ? '%%' : '$$', position);
      if (close < 0) return { inPercent, inMath };
      position = close + 2;
      inPercent = false;
      inMath = false;
      continue;
    }
    const percent = text.indexOf('%%', position);
    const dollar = text.indexOf('$$', position);
    if (percent < 0 && dollar < 0) return { inPercent, inMath };
    const at = percent < 0 ? dollar : dollar < 0 ? percent : Math.min(percent, dollar);
    const marker = at === percent ? '%%' : '$$';
    position = at + 2;
    // An opening marker with no closing one after it is text.
    if (last[marker] < line.start + position) continue;
    inPercent = marker === '%%';
    inMath = marker === '$$';
  }
}

/** The body's headings, in order, with their 1-based lines. */
export function outlineOf(body: string): OutlineHeading[] {
  return scanBody(body).headings.map(({ heading, level, line }) => ({ heading, level, line }));
}

/** How heading names compare: case-insensitively, runs of whitespace as one space. */
const foldName = (name: string): string => name.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The span `target` names in `body`: a heading's section (`Heading`, or
 * `Parent#Child`, whose parts name headings each nested in the one before,
 * at any depth, as in Obsidian links; case-insensitive), or with `^id` the
 * block that ends with that block id. Throws OutlineTargetError when it
 * names nothing or more than one.
 */
export function findTarget(body: string, target: string): TargetSpan {
  return targetIn(scanBody(body), target);
}

/** findTarget over a scan already made. */
export function targetIn(scan: BodyScan, target: string): TargetSpan {
  const trimmed = target.trim();
  if (trimmed.startsWith('^')) return blockTarget(scan, trimmed);
  const parts = trimmed.split('#').map(foldName).filter((part) => part !== '');
  if (parts.length === 0) throw new OutlineTargetError(`Heading not found: ${target}`);
  const matches = scan.headings.filter((heading, index) => foldName(heading.heading) === parts.at(-1) && ancestorsMatch(scan.headings, index, parts.slice(0, -1)));
  if (matches.length === 0) throw new OutlineTargetError(`Heading not found: ${target}`);
  // `Parent#Child` where Child also sits deeper under Parent: the direct child is the one named (else the nearer one could never be).
  const direct = parts.length > 1 ? matches.filter((heading) => foldName(parentOf(scan.headings, heading)?.heading ?? '') === parts.at(-2)) : [];
  if (direct.length === 1) return sectionSpan(scan, direct[0] as ScannedHeading);
  if (matches.length > 1) {
    throw new OutlineTargetError(
      `"${target}" matches ${matches.length} headings in the note; name the one you mean with the heading above it, as Parent#Child.`,
    );
  }
  return sectionSpan(scan, matches[0] as ScannedHeading);
}

/** The heading `heading` sits directly under: the nearest one before it of a higher level. */
function parentOf(headings: ScannedHeading[], heading: ScannedHeading): ScannedHeading | undefined {
  const index = headings.indexOf(heading);
  for (let i = index - 1; i >= 0; i--) if ((headings[i] as ScannedHeading).level < heading.level) return headings[i];
  return undefined;
}

/** Whether the headings enclosing `headings[index]` include `parents`, in that order (outermost first). */
function ancestorsMatch(headings: ScannedHeading[], index: number, parents: string[]): boolean {
  let wanted = parents.length - 1;
  let level = (headings[index] as ScannedHeading).level;
  for (let i = index - 1; i >= 0 && wanted >= 0; i--) {
    const heading = headings[i] as ScannedHeading;
    if (heading.level >= level) continue;
    level = heading.level;
    if (foldName(heading.heading) === parents[wanted]) wanted--;
  }
  return wanted < 0;
}

/** A heading's section: the lines after it up to the next heading of the same or a higher level. */
function sectionSpan(scan: BodyScan, heading: ScannedHeading): TargetSpan {
  const next = scan.headings.find((other) => other.line > heading.line && other.level <= heading.level);
  const to = next ? next.line - 1 : scan.lines.length;
  return { kind: 'section', headingLine: heading.line, from: heading.lastLine + 1, to };
}

/** A list item's first line, or a line a paragraph cannot go back past. */
const LIST_START = LIST_ITEM;

/**
 * Whether 0-based line `index` ends its block: the next line is blank, or
 * starts a block of its own. A paragraph line after it would continue the
 * block (a lazy continuation line), and a block id counts only at a block's
 * end.
 */
function endsBlock(scan: BodyScan, index: number, headingLines: Set<number>): boolean {
  const next = scan.lines[index + 1]?.text;
  if (next === undefined || isBlank(next) || !scan.prose[index + 1] || headingLines.has(index + 2)) return true;
  return LIST_ITEM.test(next) || QUOTE.test(next) || FENCE.test(next) || THEMATIC_BREAK.test(next) || ATX.test(next) || HTML_COMMENT_START.test(next);
}

/** The block whose last line ends with `^id`: a list item from its marker line, or a paragraph from after the blank line (or heading) before it. */
function blockTarget(scan: BodyScan, target: string): TargetSpan {
  const id = target.slice(1);
  if (!/^[A-Za-z0-9-]+$/.test(id)) throw new OutlineTargetError(`Heading not found: ${target}`);
  const ending = new RegExp(`(?:^|[ \\t])\\^${id}[ \\t]*$`);
  const headingLines = new Set(scan.headings.flatMap((heading) => [heading.line, heading.lastLine]));
  const ends = scan.lines
    .map((line, index) => index)
    .filter((index) => scan.prose[index] && !headingLines.has(index + 1) && ending.test(scan.lines[index]?.text ?? '') && endsBlock(scan, index, headingLines));
  if (ends.length === 0) throw new OutlineTargetError(`Heading not found: ${target}`);
  if (ends.length > 1) throw new OutlineTargetError(`"${target}" ends ${ends.length} blocks in the note; block ids should be unique, so fix the note in an editor first.`);
  const last = ends[0] as number;
  let first = last;
  while (first > 0 && !LIST_START.test(scan.lines[first]?.text ?? '')) {
    const above = first - 1;
    const text = scan.lines[above]?.text ?? '';
    if (!scan.prose[above] || isBlank(text) || headingLines.has(above + 1) || THEMATIC_BREAK.test(text)) break;
    first = above;
    // A paragraph stops at the start of a list item; a line inside an item goes back to its marker line.
    if (LIST_START.test(text)) break;
  }
  return { kind: 'block', from: first + 1, to: last + 1 };
}
