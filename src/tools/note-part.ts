import { scanBody, targetIn, type BodyLine, type BodyScan, type OutlineHeading } from '../format/outline.js';
import { InvalidInputError } from '../vault/errors.js';

/**
 * Which part of a note body an answer holds, and the cap on its size. An
 * assistant's client cuts or refuses a tool answer past about 25,000 tokens
 * (one imported e-mail once made a get_note answer of 2.37 MB), so no answer
 * holds more than TEXT_LIMIT characters of a body: the lines asked for, or
 * the whole body, up to that size in whole lines, and `truncated` when the
 * rest did not fit. Lines are counted as edit_note counts them (bodyLines in
 * src/format/outline.ts): CRLF, LF or CR alone ends a line, and a final line
 * break starts none.
 */

/** The most characters of a body one answer holds (the contract's 50,000). */
export const TEXT_LIMIT = 50_000;

/** Lines `from` to `to` (1-based, inclusive) of a body of `total` lines; `from` and `to` are 0 when the answer holds no line (an empty body). */
export interface LineRange {
  from: number;
  to: number;
  total: number;
}

export interface NotePart {
  text: string;
  lines: LineRange;
  /** Whether the lines asked for went on past what the answer holds. */
  truncated: boolean;
}

/** A run of body lines, 1-based and inclusive; `to` may be `from - 1` for an empty run. */
export interface LineSpan {
  from: number;
  to: number;
}

/** The lines asked for: a span a heading named (if any), the line to start at, how many lines at most. */
export interface SpanRequest {
  /** The section or block a `heading` named, with the name to say in errors. */
  section?: LineSpan & { name: string };
  fromLine?: number;
  maxLines?: number;
}

function plural(count: number, one: string): string {
  return `${count} ${one}${count === 1 ? '' : 's'}`;
}

/**
 * The lines a request asks for, in a body of `total` lines: from `fromLine`
 * (default the section's first line, else 1) to the section's end (else the
 * body's), at most `maxLines` of them. A `fromLine` outside the section or
 * past the body's end is refused with a sentence saying which lines there are.
 */
export function requestedSpan(total: number, request: SpanRequest): LineSpan {
  const { section, fromLine, maxLines } = request;
  const first = section?.from ?? 1;
  const last = section?.to ?? total;
  const from = fromLine ?? first;
  if (section !== undefined && (from < first || from > last)) {
    throw new InvalidInputError(
      `from_line ${from} is outside "${section.name}", which is lines ${first} to ${last} of the note; give a from_line in that range, or leave it out to read the section from its start.`,
    );
  }
  // from_line 1 of an empty body is the body itself, as with no from_line at all.
  if (section === undefined && from > Math.max(total, 1)) {
    throw new InvalidInputError(
      total === 0
        ? `from_line ${from} is past the end of the note, which is empty; leave out from_line.`
        : `from_line ${from} is past the end of the note, which has ${plural(total, 'line')}; give a from_line from 1 to ${total}.`,
    );
  }
  const to = maxLines === undefined ? last : Math.min(last, from + maxLines - 1);
  return { from, to };
}

/** Where to cut `text` to keep its first `limit` characters without splitting a surrogate pair. */
function cutAt(text: string, limit: number): number {
  if (text.length <= limit) return text.length;
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

/**
 * Lines `span` of a body (`lines`, from bodyLines), each with its own line
 * break, so that the parts read one after another give the body back
 * exactly; as many whole lines as fit in `limit` characters, and `truncated`
 * when the span went on. A first line longer than `limit` comes cut to its
 * first `limit` characters (whole lines only would give the assistant
 * nothing, and it could never get past that line); the answer then says
 * `truncated` and counts that line as read.
 */
export function readSpan(body: string, lines: readonly BodyLine[], span: LineSpan, limit = TEXT_LIMIT): NotePart {
  const total = lines.length;
  if (span.to < span.from || total === 0) return { text: '', lines: { from: 0, to: 0, total }, truncated: false };
  // Where the text of lines span.from to n ends, their line breaks included; n = span.from - 1 gives where it starts.
  const after = (n: number): number => (n === 0 ? 0 : (lines[n - 1] as BodyLine).next);
  const begin = after(span.from - 1);
  if (after(span.to) - begin <= limit) return { text: body.slice(begin, after(span.to)), lines: { from: span.from, to: span.to, total }, truncated: false };
  // The last line that ends within the limit: a binary search.
  let low = span.from - 1;
  let high = span.to;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (after(middle) - begin <= limit) low = middle;
    else high = middle - 1;
  }
  if (low >= span.from) return { text: body.slice(begin, after(low)), lines: { from: span.from, to: low, total }, truncated: true };
  const first = body.slice(begin, after(span.from));
  return { text: first.slice(0, cutAt(first, limit)), lines: { from: span.from, to: span.from, total }, truncated: true };
}

/** The most characters of JSON an answer's outline takes; past that its deepest levels are left out (boundedOutline). */
export const OUTLINE_LIMIT = 20_000;

/**
 * `outline`, or when its JSON would pass `limit` characters the headings of
 * its shallowest levels that fit (levels 1 and 2, say, of a note with
 * thousands of level-3 headings), or failing that the first headings of its
 * shallowest level that fit; `cut` says whether any was left out.
 */
export function boundedOutline(outline: readonly OutlineHeading[], limit = OUTLINE_LIMIT): { outline: OutlineHeading[]; cut: boolean } {
  const cost = (heading: OutlineHeading): number => JSON.stringify(heading).length + 1;
  let size = 0;
  for (const heading of outline) size += cost(heading);
  if (size <= limit) return { outline: [...outline], cut: false };
  const levels = [...new Set(outline.map((heading) => heading.level))].sort((a, b) => a - b);
  let kept: OutlineHeading[] = [];
  for (const level of levels) {
    const wider = outline.filter((heading) => heading.level <= level);
    if (wider.reduce((sum, heading) => sum + cost(heading), 0) > limit) break;
    kept = wider;
  }
  if (kept.length > 0) return { outline: kept, cut: true };
  size = 0;
  for (const heading of outline) {
    if (heading.level !== levels[0]) continue;
    size += cost(heading);
    if (size > limit) break;
    kept.push(heading);
  }
  return { outline: kept, cut: true };
}

/** What get_note asks for: a heading (as edit_note takes it), the line to start at, how many lines at most. */
export interface PartRequest {
  heading?: string;
  fromLine?: number;
  maxLines?: number;
}

/** What an answer holds of a body: the part asked for (NotePart), and the body's outline. */
export interface NoteReading extends NotePart {
  outline: OutlineHeading[];
  /** Whether the outline left headings out (boundedOutline). */
  outlineCut: boolean;
}

/** The lines a heading, `Parent#Child` or `^block` names, its heading line included; a name that fits none or several is refused in a sentence. */
function sectionOf(scan: BodyScan, heading: string): LineSpan & { name: string } {
  // A heading that fits none or several is refused by targetIn with an OutlineTargetError, a DexiError the assistant reads as it is.
  const target = targetIn(scan, heading);
  return target.kind === 'section' ? { from: target.headingLine, to: Math.max(target.to, target.headingLine), name: heading } : { from: target.from, to: target.to, name: heading };
}

/** The part of `body` a request asks for (the whole body when it asks for none), at most TEXT_LIMIT characters of it, and its outline. */
export function readPart(body: string, request: PartRequest = {}): NoteReading {
  const scan = scanBody(body);
  const spanRequest: SpanRequest = {};
  if (request.heading !== undefined) spanRequest.section = sectionOf(scan, request.heading);
  if (request.fromLine !== undefined) spanRequest.fromLine = request.fromLine;
  if (request.maxLines !== undefined) spanRequest.maxLines = request.maxLines;
  const part = readSpan(body, scan.lines, requestedSpan(scan.lines.length, spanRequest));
  const { outline, cut } = boundedOutline(scan.headings.map(({ heading, level, line }) => ({ heading, level, line })));
  return { ...part, outline, outlineCut: cut };
}
