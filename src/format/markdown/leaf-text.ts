/**
 * The writer side of the inline walk: the plain text of one leaf, copied
 * from its source with each construct the walk reports replaced by what the
 * reading view shows of it, and the targets of the wikilinks it shows under
 * another name, for the search text.
 */
import { BACKSLASH, CARET, isClosingPunctuation, SPACE, TILDE, WHITESPACE_RUN } from './chars.js';
import { destinationSpan, linkPathOfDestination, linkPathOfWikilink } from '../links.js';
import { CAN_CLOSE, CAN_OPEN, decodeEntity, ENTITY } from './inline-syntax.js';

interface Delimiter {
  /** The output slot holding the run. */
  slot: number;
  char: number;
  length: number;
  canOpen: boolean;
  canClose: boolean;
}

/**
 * Writes the plain text of the leaves handed to it one after another
 * (`start`, the walk's reports, then `finish`). What the walk does not
 * report is copied as it is. Runs that may be markup (brackets, emphasis
 * delimiters) are kept in slots of their own, blanked once they turn out to
 * be markup.
 */
export class LeafWriter {
  private s = '';
  private readonly out: string[] = [];
  /** Start of the not yet copied literal run. */
  private literalFrom = 0;
  /** `*`, `_`, `~` and `==` runs that may be emphasis, strikethrough or highlight. */
  private delimiters: Delimiter[] | null = null;

  /** The words of the wikilink targets shown under another name, collected across leaves. */
  readonly targets: string[] = [];

  /** The link paths of the note links (wikilinks, embeds, Markdown links to notes), collected across leaves in order; see links.ts. */
  readonly links: string[] = [];

  start(s: string): void {
    this.s = s;
    this.out.length = 0;
    this.literalFrom = 0;
    this.delimiters = null;
  }

  /** The leaf's text, its whitespace collapsed to single spaces and trimmed. */
  finish(): string {
    this.copyTo(this.s.length);
    if (this.delimiters) dropEmphasisMarkers(this.out, this.delimiters);
    return this.out.join('').replace(WHITESPACE_RUN, ' ').trim();
  }

  private copyTo(to: number): void {
    if (to > this.literalFrom) this.out.push(this.s.slice(this.literalFrom, to));
  }

  /** `[from, to)` shows as `text`. */
  replace(from: number, to: number, text: string): void {
    this.copyTo(from);
    if (text !== '') this.out.push(text);
    this.literalFrom = to;
  }

  /** `[from, to)` shows as nothing (an escaping backslash, a comment hiding the rest of the leaf). */
  drop(from: number, to: number): void {
    this.copyTo(from);
    this.literalFrom = to;
  }

  /**
   * `[from, to)` is left out, and with it the space before it when
   * punctuation follows, so that `and ![[x.png]].` reads `and.`, not `and .`
   * (an embed, a comment, a footnote reference).
   */
  omit(from: number, to: number): void {
    this.drop(from, to);
    if (!isClosingPunctuation(this.s, to)) return;
    const out = this.out;
    for (let k = out.length - 1; k >= 0; k--) {
      const kept = (out[k] ?? '').trimEnd();
      out[k] = kept;
      if (kept !== '') return;
    }
  }

  /** A code span `[from, to)` between backtick runs of `fence`: its content, as CommonMark shows it. */
  codeSpan(from: number, to: number, fence: number): void {
    this.replace(from, to, codeSpanText(this.s.slice(from + fence, to - fence)));
  }

  /** `[[target#heading|alias]]` `[from, to)` reads as its alias, else its target. */
  wikilink(from: number, to: number): void {
    const inner = this.s.slice(from + 2, to - 2);
    const bar = inner.indexOf('|');
    const shown = (bar >= 0 ? inner.slice(bar + 1) : inner).trim();
    this.replace(from, to, shown);
    this.noteLink(linkPathOfWikilink(inner));
    if (bar >= 0) {
      const words = wikilinkTargetWords(inner.slice(0, bar));
      if (words !== '' && words.toLowerCase() !== shown.toLowerCase()) this.targets.push(words);
    }
  }

  /** An embed `![[target]]` `[from, to)`: shown as nothing (`omit`), but a link all the same. */
  embed(from: number, to: number): void {
    this.noteLink(linkPathOfWikilink(this.s.slice(from + 3, to - 2)));
    this.omit(from, to);
  }

  private noteLink(linkPath: string | undefined): void {
    if (linkPath !== undefined) this.links.push(linkPath);
  }

  /** A bracket `[` or `![` `[from, to)` that may open a link: kept in a slot of its own, which it returns. */
  bracket(from: number, to: number): number {
    this.copyTo(from);
    this.out.push(this.s.slice(from, to));
    this.literalFrom = to;
    return this.out.length - 1;
  }

  /** The `]` at `close` ends a link or image opened by the bracket in `slot`; its tail runs to `end`. */
  link(slot: number, close: number, end: number): void {
    const span = destinationSpan(this.s, close + 1);
    if (span !== undefined) this.noteLink(linkPathOfDestination(this.s.slice(span[0], span[1])));
    this.copyTo(close);
    this.out[slot] = '';
    this.literalFrom = end;
  }

  /** A run `[from, from + length)` of `char` that may open or close (role: CAN_OPEN, CAN_CLOSE) emphasis or a highlight. */
  delimiterRun(from: number, length: number, char: number, role: number): void {
    const slot = this.bracket(from, from + length);
    (this.delimiters ??= []).push({ slot, char, length, canOpen: (role & CAN_OPEN) !== 0, canClose: (role & CAN_CLOSE) !== 0 });
  }
}

/**
 * Blanks the delimiter runs that pair up as emphasis, strong, strikethrough or
 * highlight: each closer with the nearest earlier opener of the same
 * character (for `~`, the same length too; `==` runs are all two long), as
 * CommonMark's delimiter stack does, less its rule-of-three subtleties.
 * Unpaired runs stay literal (`2 * 3`, `snake_case_`).
 */
function dropEmphasisMarkers(out: string[], delimiters: Delimiter[]): void {
  const openers: Delimiter[] = [];
  for (const d of delimiters) {
    if (d.canClose) {
      let k = openers.length - 1;
      while (k >= 0 && !(openers[k]!.char === d.char && (d.char !== TILDE || openers[k]!.length === d.length))) k--;
      if (k >= 0) {
        out[openers[k]!.slot] = '';
        out[d.slot] = '';
        openers.length = k; // delimiters between a matched pair can no longer pair across it
        continue;
      }
    }
    if (d.canOpen) openers.push(d);
  }
}

/** A code span's content as CommonMark shows it: line endings as spaces, one padding space stripped. */
function codeSpanText(content: string): string {
  const text = content.replace(/\r?\n/g, ' ');
  if (text.length >= 2 && text.charCodeAt(0) === SPACE && text.charCodeAt(text.length - 1) === SPACE && text.trim() !== '') {
    return text.slice(1, -1);
  }
  return text;
}

/**
 * The words a search for a wikilink's target would use: the note's name
 * (without its folder or `.md`) and the headings linked to, as in
 * `Folder/Note#Part#Detail` → `Note Part Detail`. Block references (`#^id`)
 * are ids, not words, and are left out.
 */
function wikilinkTargetWords(target: string): string {
  // In a table the alias bar is escaped (`[[Note\|alias]]`).
  const path = target.charCodeAt(target.length - 1) === BACKSLASH ? target.slice(0, -1) : target;
  const hash = path.indexOf('#');
  let name = hash >= 0 ? path.slice(0, hash) : path;
  name = name.slice(name.lastIndexOf('/') + 1).trim();
  if (name.length > 3 && name.slice(-3).toLowerCase() === '.md') name = name.slice(0, -3);
  if (hash < 0) return name;
  let words = name;
  for (const heading of path.slice(hash + 1).split('#')) {
    const part = heading.trim();
    if (part !== '' && part.charCodeAt(0) !== CARET) words = words === '' ? part : words + ' ' + part;
  }
  return words;
}

const ENTITY_GLOBAL = new RegExp(ENTITY.source, 'g');

/** Plain text of an HTML block: comments, scripts and styles dropped, tags as spaces, entities decoded. */
export function htmlBlockText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
    .replace(/<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, ' ')
    // An unclosed tag runs to the end of the block (and this stays linear).
    .replace(/<\/?[A-Za-z][^>]*(?:>|$)|<[?!][^>]*(?:>|$)/g, ' ')
    .replace(ENTITY_GLOBAL, (whole: string, dec?: string, hex?: string, name?: string) => decodeEntity(dec, hex, name) ?? whole);
}

/** The plain text of a leaf that is no prose: an HTML block's, or code's as it is; collapsed and trimmed like a prose leaf's. */
export function literalLeafText(html: boolean, text: string): string {
  return (html ? htmlBlockText(text) : text).replace(WHITESPACE_RUN, ' ').trim();
}
