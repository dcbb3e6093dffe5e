/**
 * The inline pass over one prose leaf (a paragraph, heading, table cell or
 * callout title): code spans, autolinks, inline HTML, links, images,
 * wikilinks, embeds, footnote references, emphasis, highlights, comments,
 * escapes, entities and bare URLs, read left to right as CommonMark does.
 * The walk itself only finds the constructs; the jobs it reports them to do
 * the rest: a LeafWriter writes the leaf's plain text, a TagScan finds its
 * tags. One walk can serve both.
 */
import type { Blocks } from './blocks.js';
import {
  AMP,
  Ascii,
  asciiIs,
  AT,
  BACKSLASH,
  BACKTICK,
  BANG,
  CARET,
  EQUALS,
  HASH,
  isAsciiLetter,
  LBRACKET,
  LT,
  normalizeLabel,
  PERCENT,
  RBRACKET,
  runLength,
  STAR,
  TILDE,
  UNDERSCORE,
} from './chars.js';
import type { Comments } from './comments.js';
import { decodeEntity, delimiterRole, ENTITY, findBacktickRun, labelEnd, linkTailEnd, matchAngle, wikilinkEnd } from './inline-syntax.js';
import type { LeafWriter } from './leaf-text.js';
import { TagScan } from './tags.js';
import { bareUrlEnd, LeafMemo, URL_HINT } from './urls.js';

type Defs = Blocks['defs'];

/** Writes the plain text of prose leaf `s` with `writer`, which has been started on it. */
export function writeLeaf(s: string, defs: Defs, comments: Comments | null, writer: LeafWriter): void {
  new InlineWalk(s, defs, comments, writer, null).run();
}

/** Appends the tags of prose leaf `s` to `tags`. */
export function collectLeafTags(s: string, defs: Defs, comments: Comments | null, tags: string[]): void {
  new InlineWalk(s, defs, comments, null, tags).run();
}

/**
 * Both in one walk: the plain text of prose leaf `s` with `writer`, its tags
 * appended to `tags`. False when the tags lost track of the walk (see
 * TagScan.losesTrack); then `tags` is incomplete and the caller reads them
 * on their own (collectLeafTags), while the text is complete all the same.
 */
export function writeLeafAndCollectTags(s: string, defs: Defs, comments: Comments | null, writer: LeafWriter, tags: string[]): boolean {
  const walk = new InlineWalk(s, defs, comments, writer, tags);
  walk.run();
  return walk.tags !== null;
}

/**
 * Characters where the walk has something to decide, by which jobs it
 * serves and what the leaf may hold: emphasis, highlight and entity
 * characters for text, sigils for tags, the first letters of bare URLs for a
 * leaf that may hold one, `%` in a body that holds a comment.
 */
const STOPS_TEXT = 1;
const STOPS_TAGS = 2;
const STOPS_URL = 4;
const STOPS_COMMENT = 8;
const STOPS: Uint8Array[] = Array.from({ length: 16 }, (_, mode) =>
  stopTable(
    '\\`<![]_' +
      ((mode & STOPS_TEXT) !== 0 ? '*~&=' : '') +
      ((mode & STOPS_TAGS) !== 0 ? '#@' : '') +
      ((mode & STOPS_URL) !== 0 ? 'hHwW' : '') +
      ((mode & STOPS_COMMENT) !== 0 ? '%' : ''),
  ),
);

function stopTable(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (const ch of chars) table[ch.charCodeAt(0)] = 1;
  return table;
}

interface Opener {
  /** Index of the `[` (or of the `!` of `![`). */
  pos: number;
  image: boolean;
  active: boolean;
  /** The writer's slot holding the bracket, blanked when it turns out to be a link. */
  slot: number;
  /** How many tags were found before it, so an image can drop those in its alt text. */
  tagCount: number;
}

/**
 * One walk over one leaf. A link is only known to be one at its closing
 * `]`, so openers are kept on a stack, as CommonMark's bracket algorithm
 * does. Each construct has a method that takes the position of its first
 * character and returns where the walk goes on.
 */
class InlineWalk {
  private readonly memo: LeafMemo;
  private readonly stops: Uint8Array;
  private readonly openers: Opener[] = [];
  /** Backtick run lengths known to have no closing run after some position. */
  private noCloser: Set<number> | null = null;
  /** The tag job; null without one, or once it lost track of the walk. */
  tags: TagScan | null;

  constructor(
    private readonly s: string,
    private readonly defs: Defs,
    private readonly comments: Comments | null,
    private readonly text: LeafWriter | null,
    tags: string[] | null,
  ) {
    this.memo = new LeafMemo(s);
    this.tags = tags ? new TagScan(s, tags, this.memo, comments !== null) : null;
    const mode = (text ? STOPS_TEXT : 0) | (tags ? STOPS_TAGS : 0) | (URL_HINT.test(s) ? STOPS_URL : 0) | (comments ? STOPS_COMMENT : 0);
    this.stops = STOPS[mode]!;
  }

  run(): void {
    const s = this.s;
    const n = s.length;
    const stops = this.stops;
    let i = 0;
    while (i < n) {
      const c = s.charCodeAt(i);
      i = c >= 128 || stops[c] === 0 ? i + 1 : this.construct(c, i);
    }
  }

  private construct(c: number, i: number): number {
    switch (c) {
      case BACKSLASH:
        return this.escape(i);
      case BACKTICK:
        return this.codeSpan(i);
      case LT:
        return this.angle(i);
      case BANG:
        return this.bang(i);
      case LBRACKET:
        return this.bracket(i);
      case RBRACKET:
        return this.closeBracket(i);
      case HASH:
      case AT:
        return this.sigil(i);
      case UNDERSCORE:
      case STAR:
      case TILDE:
        return this.delimiterRun(c, i);
      case EQUALS:
        return this.highlight(i);
      case PERCENT:
        return this.comment(i);
      case AMP:
        return this.entity(i);
      default:
        // h, H, w, W
        return this.bareUrl(i);
    }
  }

  private escape(i: number): number {
    if (!asciiIs(this.s.charCodeAt(i + 1), Ascii.Punct)) return i + 1;
    this.text?.drop(i, i + 1); // the backslash goes, the escaped character stays
    return i + 2;
  }

  private codeSpan(i: number): number {
    const len = runLength(this.s, i, BACKTICK);
    const close = this.noCloser?.has(len) ? -1 : findBacktickRun(this.s, i + len, len);
    if (close < 0) {
      (this.noCloser ??= new Set()).add(len);
      return i + len;
    }
    this.text?.codeSpan(i, close + len, len);
    return close + len;
  }

  /** An autolink or inline HTML. */
  private angle(i: number): number {
    const match = matchAngle(this.s, i, this.memo);
    if (!match) return i + 1;
    this.text?.replace(i, match.end, match.text);
    return match.end;
  }

  /** `![[embed]]`, or the `![` of an image. */
  private bang(i: number): number {
    const s = this.s;
    if (s.charCodeAt(i + 1) !== LBRACKET) return i + 1;
    const wiki = s.charCodeAt(i + 2) === LBRACKET ? wikilinkEnd(s, i + 1) : -1;
    if (wiki > 0) {
      this.text?.embed(i, wiki); // an embed shows as nothing
      return wiki;
    }
    this.pushOpener(i, true);
    return i + 2;
  }

  /** `[[wikilink]]`, a footnote reference `[^1]`, or a `[` that may open a link. */
  private bracket(i: number): number {
    const s = this.s;
    const next = s.charCodeAt(i + 1);
    if (next === LBRACKET) {
      const wiki = wikilinkEnd(s, i);
      if (wiki > 0) {
        this.text?.wikilink(i, wiki);
        return wiki;
      }
    } else if (next === CARET) {
      const end = labelEnd(s, i);
      if (end > 0 && this.defs.has('^' + normalizeLabel(s.slice(i + 2, end - 1)))) {
        this.text?.omit(i, end); // a footnote reference is a marker, not text
        return end;
      }
    }
    this.pushOpener(i, false);
    return i + 1;
  }

  private pushOpener(i: number, image: boolean): void {
    const slot = this.text ? this.text.bracket(i, i + (image ? 2 : 1)) : 0;
    this.openers.push({ pos: i, image, active: true, slot, tagCount: this.tags ? this.tags.count : 0 });
  }

  /** A `]`: it closes a link or image when a tail or defined label follows. */
  private closeBracket(i: number): number {
    const opener = this.openers.pop();
    if (!opener || !opener.active) return i + 1;
    const end = linkTailEnd(this.s, i, opener.pos + (opener.image ? 2 : 1), this.defs);
    if (end < 0) return i + 1;
    if (opener.image) this.tags?.dropSince(opener.tagCount);
    else {
      // Links cannot contain links: an enclosing `[` can no longer open one.
      for (const outer of this.openers) if (!outer.image) outer.active = false;
    }
    this.text?.link(opener.slot, i, end);
    return end;
  }

  /**
   * A `#` or `@`. Without text to write, the walk goes on where the tag
   * rules do; with it, at the next character, which the tag job then ignores
   * up to where it reads on.
   */
  private sigil(i: number): number {
    if (!this.tags) return i + 1;
    const resume = this.tags.sigil(i);
    return this.text ? i + 1 : resume;
  }

  /** A run of `_`, `*` or `~`, which may be emphasis or strikethrough. */
  private delimiterRun(c: number, i: number): number {
    const len = runLength(this.s, i, c);
    const role = delimiterRole(this.s, i, len, c);
    if (c === UNDERSCORE) this.tags?.underscoreRun(i, len, role);
    if (role !== 0) this.text?.delimiterRun(i, len, c, role);
    return i + len;
  }

  /** Obsidian's `==highlight==`: its marks pair up like `~~`, and only as a run of exactly two (`a === b` stays). */
  private highlight(i: number): number {
    const len = runLength(this.s, i, EQUALS);
    if (this.text && len === 2) {
      const role = delimiterRole(this.s, i, len, EQUALS);
      if (role !== 0) this.text.delimiterRun(i, len, EQUALS, role);
    }
    return i + len;
  }

  /** A `%%` opens a comment that the next `%%` closes, in this leaf or a later one. */
  private comment(i: number): number {
    const s = this.s;
    const comments = this.comments;
    if (!comments || s.charCodeAt(i + 1) !== PERCENT) return i + 1;
    const close = s.indexOf('%%', i + 2);
    // Nothing closing it, or inside a bare URL (`https://x.io/100%%`): literal.
    if ((close < 0 && !comments.closedLater()) || this.memo.inBareUrl(i)) return i + 2;
    if (close < 0) {
      // It closes in a later leaf: the rest of this one is hidden.
      comments.open = true;
      this.text?.drop(i, s.length);
      return s.length;
    }
    this.text?.omit(i, close + 2);
    // A URL in the comment does not reach past it.
    this.memo.startChunk(close + 2);
    return close + 2;
  }

  private entity(i: number): number {
    ENTITY.lastIndex = i;
    const m = ENTITY.exec(this.s);
    if (!m) return i + 1;
    const end = ENTITY.lastIndex;
    const decoded = decodeEntity(m[1], m[2], m[3]);
    if (decoded === undefined) return i + 1;
    this.text?.replace(i, end, decoded);
    return end;
  }

  /**
   * An `h` or `w` that may start a GFM bare URL. It is read left to right
   * like any other construct, so it can swallow a backtick or bracket that
   * would otherwise open something. Inside an unclosed `[` it is not
   * recognised (micromark's rule).
   */
  private bareUrl(i: number): number {
    // Most of these letters sit inside words, where no URL starts: skip those cheaply.
    const end = this.openers.length === 0 && !isAsciiLetter(this.s.charCodeAt(i - 1)) ? bareUrlEnd(this.s, i) : -1;
    if (end <= 0) return i + 1;
    if (this.tags?.losesTrack(i, end)) this.tags = null;
    return end;
  }
}
