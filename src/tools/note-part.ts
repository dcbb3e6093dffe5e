import { lineStarts } from '../files/body-lines.js';
import { InvalidInputError } from '../vault/errors.js';

/**
 * Which part of a note body an answer holds, and the cap on its size. An
 * assistant's client cuts or refuses a tool answer past about 25,000 tokens
 * (one imported e-mail once made a get_note answer of 2.37 MB), so no answer
 * holds more than TEXT_LIMIT characters of a body: the lines asked for, or
 * the whole body, up to that size in whole lines, and `truncated` when the
 * rest did not fit. Lines are counted as in body-lines.ts.
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

/** What get_note was asked for: a span the heading named (if any), the line to start at, how many lines at most. */
export interface PartRequest {
  /** The section or block a `heading` named, with a name to say in errors. */
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
export function requestedSpan(total: number, request: PartRequest): LineSpan {
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
 * Lines `span` of `body`, each with its own line break, so that the parts
 * read one after another give the body back exactly; as many whole lines as
 * fit in `limit` characters, and `truncated` when the span went on. A first
 * line longer than `limit` comes cut to its first `limit` characters (whole
 * lines only would give the assistant nothing, and it could never get past
 * that line); the answer then says `truncated` and counts that line as read.
 */
export function readSpan(body: string, span: LineSpan, limit = TEXT_LIMIT, starts = lineStarts(body)): NotePart {
  const total = starts.length - 1;
  if (span.to < span.from || total === 0) return { text: '', lines: { from: 0, to: 0, total }, truncated: false };
  const begin = starts[span.from - 1] as number;
  const end = starts[span.to] as number;
  if (end - begin <= limit) return { text: body.slice(begin, end), lines: { from: span.from, to: span.to, total }, truncated: false };
  // The last line that ends within the limit: a binary search over the line starts.
  let low = span.from - 1;
  let high = span.to;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((starts[middle] as number) - begin <= limit) low = middle;
    else high = middle - 1;
  }
  if (low >= span.from) return { text: body.slice(begin, starts[low]), lines: { from: span.from, to: low, total }, truncated: true };
  const first = body.slice(begin, starts[span.from]);
  return { text: first.slice(0, cutAt(first, limit)), lines: { from: span.from, to: span.from, total }, truncated: true };
}

/** The part of `body` a request asks for: requestedSpan, then readSpan. */
export function readPart(body: string, request: PartRequest = {}, limit = TEXT_LIMIT): NotePart {
  const starts = lineStarts(body);
  return readSpan(body, requestedSpan(starts.length - 1, request), limit, starts);
}
