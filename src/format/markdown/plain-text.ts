/**
 * A body's plain text from its leaves' texts, the snippet cut from its
 * start, and the search text: the plain text with the targets of aliased
 * wikilinks after it.
 */
import { codePointLength, isHighSurrogate, isLowSurrogate, SPACE } from './chars.js';

/**
 * Joins the leaves' texts with one space (collapsing each leaf and joining
 * them with one space is the same as collapsing the whole, and keeps the
 * words of separate blocks apart). It also remembers how long the text was
 * when it first reached `enough`: the snippet's source, which is all a
 * snippet looks at.
 */
export class PlainTextBuilder {
  private readonly leaves: string[] = [];
  /** The leaves' lengths, each plus one, as the snippet measures "enough". */
  length = 0;
  private joinedLength = 0;
  private prefixLength = -1;

  constructor(private readonly enough: number) {}

  /** One leaf's collapsed text; `glued`, it joins the leaf before it without a space. */
  add(leaf: string, glued: boolean): void {
    if (leaf === '') return;
    const leaves = this.leaves;
    if (glued && leaves.length > 0) {
      leaves[leaves.length - 1] += leaf;
      this.joinedLength += leaf.length;
    } else {
      this.joinedLength += leaves.length > 0 ? leaf.length + 1 : leaf.length;
      leaves.push(leaf);
    }
    this.length += leaf.length + 1;
    if (this.prefixLength < 0 && this.length >= this.enough) this.prefixLength = this.joinedLength;
  }

  /** Whether the text has reached `enough`. */
  get full(): boolean {
    return this.prefixLength >= 0;
  }

  text(): string {
    return this.leaves.join(' ');
  }

  /** The text as it was when it first reached `enough`, or all of it. */
  prefix(text: string): string {
    return this.prefixLength < 0 ? text : text.slice(0, this.prefixLength);
  }
}

/** How many UTF-16 units of plain text a snippet of `limit` code points needs to see: enough to know whether, and where, to cut. */
export function snippetSource(limit: number): number {
  // Twice the limit in UTF-16 units holds more than `limit` code points.
  return 2 * limit + 2;
}

/** How far back (in code points) a snippet looks for a space to cut at. */
const WORD_CUT_WINDOW = 20;

/**
 * The first `limit` code points of `text` (plain text, or enough of its
 * start), `…` appended when it was cut. A cut never splits a surrogate pair;
 * a cut inside a word moves back to a space when one lies within the last 20
 * code points kept.
 */
export function cutSnippet(text: string, limit: number): string {
  // UTF-16 length bounds the code point count from above.
  if (text.length <= limit) return text;
  let end = 0;
  let count = 0;
  while (end < text.length && count < limit) {
    end += isHighSurrogate(text.charCodeAt(end)) && isLowSurrogate(text.charCodeAt(end + 1)) ? 2 : 1;
    count++;
  }
  if (end >= text.length) return text;
  let kept = text.slice(0, end);
  // Plain text holds single ASCII spaces only, so a space is the one break.
  const cutsWord = text.charCodeAt(end) !== SPACE && kept.charCodeAt(kept.length - 1) !== SPACE;
  if (cutsWord) {
    const space = kept.lastIndexOf(' ');
    if (space > 0 && codePointLength(kept, space + 1) <= WORD_CUT_WINDOW) kept = kept.slice(0, space);
  }
  return kept.trimEnd() + '…';
}

/** The search text: the plain text, then the words of the wikilink targets shown under another name. */
export function withTargets(plain: string, targets: readonly string[]): string {
  if (targets.length === 0) return plain;
  const words = targets.join(' ');
  return plain === '' ? words : plain + ' ' + words;
}
