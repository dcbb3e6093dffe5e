/**
 * Edits inside a note's body, as pure functions over strings: what
 * `edit_note` writes. Each edit is a list of splices, each putting new text
 * in place of a run of the old body, so that every byte outside the run it
 * targets stays as it was (test/format/body-ops.test.ts checks this on random
 * notes). Every line written uses the body's own line ending (see
 * bodyLineEndingOf); the body's final line break, or its lack of one, stays.
 *
 * - replace_text: an exact match of `oldText` in the body, where a line
 *   break in `oldText` or `newText` stands for the body's own.
 * - insert: `text` as whole lines at the start or end of the body, of a
 *   heading's section, or before or after a `^block`. "Start" is before the
 *   first non-blank line and "end" after the last, so the blank lines that
 *   set a section off from the next heading stay where they are.
 * - replace_section: a section's content (its heading line stays) or a
 *   `^block`, from its first non-blank line to its last.
 *
 * Written text lands as lines of its own, never glued onto a neighbour: a
 * blank line sets it apart from the lines around it, except after a heading
 * or a blank line, before an ATX heading or a blank line, and where a list
 * item joins a list (text that starts with an item after a list, or ends in
 * a list before an item). A body that ends inside an open fenced code block
 * gets its closing fence before text written at its end, which otherwise
 * would be code (as appendParagraph does).
 */
import { withLineEnding, withoutLeadingBlankLines, withoutTrailingBlankLines, type BodyLineEnding } from './body-edit.js';
import { bodyLines, scanBody, targetIn, type BodyScan, type TargetSpan } from './outline.js';
import { DexiError } from '../storage/errors.js';

export type BodyOperation =
  | { operation: 'replace_text'; oldText: string; newText: string; all: boolean }
  | { operation: 'insert'; text: string; position: 'start' | 'end'; heading?: string | undefined }
  | { operation: 'replace_section'; heading: string; text: string };

/** New text in place of `removed` characters at offset `at` of the old body. */
export interface BodySplice {
  at: number;
  removed: number;
  inserted: string;
}

/** An edit the body cannot take (text not found, found too often, nothing to insert): the message is the sentence an assistant reads. */
export class BodyEditError extends DexiError {}

/**
 * The splices `operation` makes in `body`, in order, not overlapping.
 * `finalBreak` says whether the file ends with a line break (see
 * endsWithLineBreak): it decides how text written into an empty body ends.
 * Throws BodyEditError or OutlineTargetError (from ./outline.ts), before
 * anything is written.
 */
export function bodySplices(body: string, operation: BodyOperation, eol: BodyLineEnding, finalBreak: boolean): BodySplice[] {
  if (operation.operation === 'replace_text') return textSplices(body, operation.oldText, operation.newText, operation.all, eol);
  const text = withoutTrailingBlankLines(withoutLeadingBlankLines(withLineEnding(operation.text, eol)));
  const scan = scanBody(body);
  if (operation.operation === 'insert') {
    if (text === '') throw new BodyEditError('The text to insert is empty; nothing was written.');
    const span: TargetSpan = operation.heading === undefined ? { kind: 'section', headingLine: 0, from: 1, to: scan.lines.length } : targetIn(scan, operation.heading);
    const at = insertionLine(scan, span, operation.position);
    return [placeLines(scan, at, at, text, eol, finalBreak)];
  }
  const span = targetIn(scan, operation.heading);
  const [first, last] = nonBlankRange(scan, span.from, span.to);
  // An empty or blank section takes the text as an insert after its heading.
  if (first > last) return text === '' ? [] : [placeLines(scan, span.from - 1, span.from - 1, text, eol, finalBreak)];
  // Emptied, a section keeps no blank lines before the ones that set it off from the next heading.
  return [placeLines(scan, text === '' ? span.from - 1 : first - 1, last, text, eol, finalBreak)];
}

/** The body after its splices. */
export function applySplices(body: string, splices: BodySplice[]): string {
  let result = '';
  let position = 0;
  for (const splice of splices) {
    result += body.slice(position, splice.at) + splice.inserted;
    position = splice.at + splice.removed;
  }
  return result + body.slice(position);
}

/** The edited body, for callers that do not need the splices. */
export function editedBody(body: string, operation: BodyOperation, eol: BodyLineEnding, finalBreak: boolean): string {
  return applySplices(body, bodySplices(body, operation, eol, finalBreak));
}

function textSplices(body: string, oldText: string, newText: string, all: boolean, eol: BodyLineEnding): BodySplice[] {
  const old = withLineEnding(oldText, eol);
  if (old === '') throw new BodyEditError('old_text is empty; give the text to replace.');
  const inserted = withLineEnding(newText, eol);
  const splices: BodySplice[] = [];
  for (let at = body.indexOf(old); at >= 0; at = body.indexOf(old, at + old.length)) splices.push({ at, removed: old.length, inserted });
  if (splices.length === 0) throw new BodyEditError('Text not found in the note');
  if (splices.length > 1 && !all) {
    throw new BodyEditError(
      `The text occurs ${splices.length} times in the note; add surrounding text to old_text so that it occurs once, or set all to true to replace every occurrence.`,
    );
  }
  return splices;
}

const isBlank = (line: string | undefined): boolean => line === undefined || /^[ \t]*$/.test(line);
const LIST_ITEM = /^[ \t]*(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;

/** The first and last non-blank lines of lines from..to (1-based); first > last when there are none. */
function nonBlankRange(scan: BodyScan, from: number, to: number): [number, number] {
  let first = from;
  while (first <= to && isBlank(scan.lines[first - 1]?.text)) first++;
  let last = to;
  while (last >= first && isBlank(scan.lines[last - 1]?.text)) last--;
  return [first, last];
}

/** The number of lines that come before text inserted at `position` of `span`. */
function insertionLine(scan: BodyScan, span: TargetSpan, position: 'start' | 'end'): number {
  if (span.kind === 'block') return position === 'start' ? span.from - 1 : span.to;
  const [first, last] = nonBlankRange(scan, span.from, span.to);
  if (first > last) return span.from - 1;
  return position === 'start' ? first - 1 : last;
}

/** Whether the lines up to `index` (0-based, going back to a blank line) end inside a list: a list item's line or its indented continuation. */
function endsInList(texts: (string | undefined)[], index: number): boolean {
  for (let i = index; i >= 0; i--) {
    const text = texts[i];
    if (isBlank(text)) return false;
    if (LIST_ITEM.test(text ?? '')) return true;
    if (!/^[ \t]/.test(text ?? '')) return false;
  }
  return false;
}

/** Whether 0-based line `index` is the last line of a heading (an ATX heading, or a setext heading's underline). */
function isHeadingEnd(scan: BodyScan, index: number): boolean {
  return scan.headings.some((heading) => heading.lastLine === index + 1);
}

/** Whether 0-based line `index` is an ATX heading (which nothing before it can join). */
function isAtxHeading(scan: BodyScan, index: number): boolean {
  return scan.headings.some((heading) => heading.line === index + 1 && heading.lastLine === index + 1) && ATX_HEADING.test(scan.lines[index]?.text ?? '');
}

/**
 * The splice that puts `text` (normalized: its own breaks `eol`, no leading
 * or trailing blank lines) in place of 0-based lines `first` up to before
 * `end` (none when equal: an insert before line `first`), with a blank line
 * before and after where the neighbours need one to keep it apart. An empty
 * text removes the lines, with their line break (or the one before them when
 * they end the body without one).
 */
function placeLines(scan: BodyScan, first: number, end: number, text: string, eol: BodyLineEnding, finalBreak: boolean): BodySplice {
  const { lines } = scan;
  if (text === '') {
    const at = first > 0 && end === lines.length && lines[end - 1]?.next === lines[end - 1]?.end ? (lines[first - 1]?.end ?? 0) : (lines[first]?.start ?? 0);
    return { at, removed: (lines[end - 1]?.next ?? at) - at, inserted: '' };
  }
  const own = bodyLines(text).map((line) => line.text);
  const previous = first - 1;
  const before = previous >= 0 && !isBlank(lines[previous]?.text) && !isHeadingEnd(scan, previous) && !(LIST_ITEM.test(own[0] ?? '') && endsInList(lines.map((line) => line.text), previous));
  const after = end < lines.length && !isBlank(lines[end]?.text) && !isAtxHeading(scan, end) && !(LIST_ITEM.test(lines[end]?.text ?? '') && endsInList(own, own.length - 1));
  // Text written after the last line of a body that ends in open fenced code closes that code first.
  const fence = scan.openFence && end === lines.length && previous >= scan.openFence.line - 1 ? scan.openFence.text : undefined;
  const lead = `${fence === undefined ? '' : fence + eol}${before || fence !== undefined ? eol : ''}`;
  if (first < end) {
    // The last replaced line's own break stays after the text.
    const at = lines[first]?.start ?? 0;
    return { at, removed: (lines[end - 1]?.end ?? at) - at, inserted: `${lead}${text}${after ? eol : ''}` };
  }
  if (first === 0) return { at: 0, removed: 0, inserted: `${text}${lines.length > 0 ? eol + (after ? eol : '') : finalBreak ? eol : ''}` };
  const line = lines[previous];
  const at = line?.next ?? 0;
  const unbroken = line !== undefined && line.next === line.end;
  // After a last line without a line break the text gets one before it and none after, so the body still ends without one.
  if (unbroken) return { at, removed: 0, inserted: `${eol}${lead}${text}` };
  return { at, removed: 0, inserted: `${lead}${text}${eol}${after ? eol : ''}` };
}
