/**
 * The tag rule, as the inline walk (inline.ts) applies it to a prose leaf:
 * where a `#tag` or `@mention` starts and ends, so that it ends where the
 * Markdown tree ends the text holding it.
 */
import { AT, AMP, Ascii, asciiIs, BACKSLASH, BACKTICK, codePointBefore, DASH, HASH, isTagChar, isWordChar, runLength, SLASH, UNDERSCORE } from './chars.js';
import { CAN_CLOSE, CAN_OPEN, delimiterRole, findBacktickRun } from './inline-syntax.js';
import { bareUrlEnd, insideBareUrl, type LeafMemo } from './urls.js';

const DIGIT_RE = /^\p{Nd}$/u;
const EMAIL_DOMAIN = /[A-Za-z0-9_-]+(?:\.[A-Za-z0-9][A-Za-z0-9_-]*)+/y;

/**
 * The tags of one prose leaf, appended to `tags` as the inline walk hands
 * over what decides them: sigils, `_` runs, and images (whose alt text holds
 * no tags). A tag read at a sigil may reach past characters the walk has yet
 * to visit (an `_` run inside it, an e-mail address after it); until the walk
 * is past them (`resumeAt`), what it hands over is ignored, since the tag
 * rules have read that stretch already.
 */
export class TagScan {
  /** Where the tag rules read on after the last sigil. */
  resumeAt = 0;
  private readonly underscores = new UnderscoreDelimiters();

  constructor(
    private readonly s: string,
    private readonly tags: string[],
    private readonly memo: LeafMemo,
    /** Whether the body holds a `%%`, which may open a comment. */
    private readonly comments: boolean,
  ) {}

  /** A `#` or `@` at `i`: appends the tag it starts, if any, and returns where the tag rules read on. */
  sigil(i: number): number {
    if (i >= this.resumeAt) this.resumeAt = scanTag(this.s, i, this.tags, this.underscores, this.memo, this.comments);
    return this.resumeAt;
  }

  /** The `_` run `[i, i + len)`, able to open or close emphasis by `role`. */
  underscoreRun(i: number, len: number, role: number): void {
    if (i >= this.resumeAt) this.underscores.add(len, (role & CAN_OPEN) !== 0, (role & CAN_CLOSE) !== 0);
    else if (i + len > this.resumeAt) {
      // The tag ended inside the run: the tag rules read the rest of it as a run of its own.
      const from = this.resumeAt;
      const rest = i + len - from;
      const restRole = delimiterRole(this.s, from, rest, UNDERSCORE);
      this.underscores.add(rest, (restRole & CAN_OPEN) !== 0, (restRole & CAN_CLOSE) !== 0);
    }
  }

  /**
   * Whether a bare URL `[i, end)` that the walk skips starts inside a tag run
   * and reaches past it: the tag rules would read on from inside the URL,
   * which the walk does not, so the two readings part (rare: only after an
   * e-mail-like run such as `#a.b_www.x.@y.io/`).
   */
  losesTrack(i: number, end: number): boolean {
    return i < this.resumeAt && end > this.resumeAt;
  }

  /** How many tags were found so far, which an opening bracket remembers. */
  get count(): number {
    return this.tags.length;
  }

  /** An image closed whose `![` came when `count` tags were found: its alt text holds none. */
  dropSince(count: number): void {
    this.tags.length = count;
  }
}

/**
 * The `_` delimiter runs of a leaf still open for emphasis, matched as
 * CommonMark's delimiter stack does (including its rule of three), so that a
 * tag knows whether an `_` right after it closes emphasis or belongs to it.
 * `*` and `~` are not tracked: they cannot be part of a tag.
 */
class UnderscoreDelimiters {
  /** Per open run: its original length, what is left of it, and whether it could also close. */
  private readonly length: number[] = [];
  private readonly left: number[] = [];
  private readonly both: boolean[] = [];

  /** The index of the opener a closing run would match, or -1. */
  private opener(len: number, both: boolean): number {
    for (let k = this.left.length - 1; k >= 0; k--) {
      const openerLength = this.length[k] ?? 0;
      const bothK = this.both[k] ?? false;
      const multipleOf3 = (openerLength + len) % 3 === 0 && !(openerLength % 3 === 0 && len % 3 === 0);
      if (!((bothK || both) && multipleOf3)) return k;
    }
    return -1;
  }

  wouldClose(len: number, both: boolean): boolean {
    return this.opener(len, both) >= 0;
  }

  add(len: number, canOpen: boolean, canClose: boolean): void {
    let rest = len;
    if (canClose) {
      for (let k = this.opener(len, canOpen); k >= 0 && rest > 0; k = this.opener(len, canOpen)) {
        // Openers between a matched pair can no longer be matched.
        this.length.length = this.left.length = this.both.length = k + 1;
        const use = rest >= 2 && (this.left[k] ?? 0) >= 2 ? 2 : 1;
        rest -= use;
        this.left[k] = (this.left[k] ?? 0) - use;
        if (this.left[k] === 0) this.length.length = this.left.length = this.both.length = k;
      }
    }
    if (rest > 0 && canOpen) {
      this.length.push(len);
      this.left.push(rest);
      this.both.push(canClose);
    }
  }
}

/**
 * How many underscores of the `_` run of `length` ending at `from`, able to
 * open emphasis (`both`: and to close it), later closers in the leaf take:
 * CommonMark's delimiter matching (rule of three included) run forward over
 * the next few `_` runs. Closers take an opener's underscores from its inner
 * end, so the ones left over stay text before it (`#___x__` leaves `#_`).
 * Escaped underscores and those inside bare URLs, code spans or (with
 * `comments`) comments do not count.
 */
function underscoresClosedAfter(s: string, from: number, length: number, both: boolean, comments: boolean): number {
  // Open runs, ours at the bottom: original lengths, what is left, can-also-close.
  const lengths = [length];
  const left = [length];
  const boths = [both];
  // Looking at a bounded number of runs keeps this linear on pathological input.
  let budget = 8;
  for (let k = nextUnderscore(s, from, comments); k >= 0 && budget-- > 0; ) {
    const len = runLength(s, k, UNDERSCORE);
    if (s.charCodeAt(k - 1) !== BACKSLASH && !insideBareUrl(s, k)) {
      const role = delimiterRole(s, k, len, UNDERSCORE);
      const canOpen = (role & CAN_OPEN) !== 0;
      let rest = len;
      while ((role & CAN_CLOSE) !== 0 && rest > 0) {
        let m = lengths.length - 1;
        for (; m >= 0; m--) {
          const openerLength = lengths[m] ?? 0;
          const multipleOf3 = (openerLength + len) % 3 === 0 && !(openerLength % 3 === 0 && len % 3 === 0);
          if (!((boths[m] === true || canOpen) && multipleOf3)) break;
        }
        if (m < 0) break;
        lengths.length = left.length = boths.length = m + 1;
        const use = rest >= 2 && (left[m] ?? 0) >= 2 ? 2 : 1;
        rest -= use;
        left[m] = (left[m] ?? 0) - use;
        if (left[m] === 0) {
          if (m === 0) return length;
          lengths.length = left.length = boths.length = m;
        }
      }
      if (rest > 0 && canOpen) {
        lengths.push(len);
        left.push(rest);
        boths.push((role & CAN_CLOSE) !== 0);
      }
    }
    k = nextUnderscore(s, k + len, comments);
  }
  return length - (left[0] ?? length);
}

/**
 * The next `_` at or after `from` that may be a delimiter, or -1: not one in
 * a code span, nor (with `comments`) one in a `%%…%%` or after a `%%` that
 * the leaf does not close (which either hides the rest or is rare enough
 * literal text to give up at).
 */
function nextUnderscore(s: string, from: number, comments: boolean): number {
  let at = from;
  for (;;) {
    const k = s.indexOf('_', at);
    if (k < 0) return k;
    const tick = s.indexOf('`', at);
    const open = comments ? s.indexOf('%%', at) : -1;
    if ((tick < 0 || tick > k) && (open < 0 || open > k)) return k;
    if (tick >= 0 && (open < 0 || tick < open)) {
      const len = runLength(s, tick, BACKTICK);
      const close = findBacktickRun(s, tick + len, len);
      at = close < 0 ? tick + len : close + len;
      continue;
    }
    const close = s.indexOf('%%', open + 2);
    if (close < 0) return -1;
    at = close + 2;
  }
}

/**
 * Reads a possible tag whose sigil is at `i`; appends it to `tags` when it is
 * one. Returns where scanning resumes.
 *
 * Besides the tag rule itself, the end of the tag has to match where the
 * Markdown tree ends the text holding it:
 * - an `_` run inside the run of tag characters ends the tag when it closes
 *   an open `_` (`_see #tag_`) or opens one that a later `_` closes
 *   (`#ml/_em_`); otherwise it is literal (`#snake_case_`);
 * - a GFM bare URL or e-mail address may start inside the run
 *   (`#123https://…`, `#see-www.x.io`, `#foo.bar@example.com`) and takes the
 *   rest of it.
 */
function scanTag(s: string, i: number, tags: string[], underscores: UnderscoreDelimiters, memo: LeafMemo, comments: boolean): number {
  const n = s.length;
  let j = i + 1;
  while (j < n) {
    const cp = s.codePointAt(j) ?? 0;
    if (cp === UNDERSCORE) {
      const len = runLength(s, j, UNDERSCORE);
      const role = delimiterRole(s, j, len, UNDERSCORE);
      if ((role & CAN_CLOSE) !== 0 && underscores.wouldClose(len, (role & CAN_OPEN) !== 0)) break;
      const closed = (role & CAN_OPEN) !== 0 ? underscoresClosedAfter(s, j + len, len, (role & CAN_CLOSE) !== 0, comments) : 0;
      if (closed > 0) {
        j += len - closed; // the underscores no closer takes stay in the tag
        break;
      }
      j += len;
      continue;
    }
    if (!isTagChar(cp)) break;
    j += cp > 0xffff ? 2 : 1;
  }
  if (j === i + 1) return i + 1;
  if (!sigilMayStart(s, i) || memo.inBareUrl(i)) return j;

  let end = j;
  let resume = j;
  // A bare URL starting inside the run (`#123https://…`, `#see-www.x.io`).
  for (let p = i + 1; p < j; p++) {
    const c = s.charCodeAt(p) | 0x20; // ASCII lower case
    if (c !== 104 && c !== 119) continue; // h, w
    if (bareUrlEnd(s, p, true) > 0) {
      end = p;
      resume = p;
      break;
    }
  }
  // `#foo.bar@example.com`: the address starts at the longest run of address
  // characters before its `@`, and the tag (if anything is left) ends there.
  // (remark finds addresses in unescaped text, so `\_` counts as `_`.)
  if (end === j) {
    let at = j;
    for (;;) {
      if (asciiIs(s.charCodeAt(at), Ascii.Atext)) at++;
      else if (s.charCodeAt(at) === BACKSLASH && isEscapedAtext(s.charCodeAt(at + 1))) at += 2;
      else break;
    }
    if (s.charCodeAt(at) === AT && isEmailDomain(s, at + 1)) {
      let local = at;
      while (local > i + 1) {
        if (asciiIs(s.charCodeAt(local - 1), Ascii.Atext)) local--;
        else if (s.charCodeAt(local - 1) === BACKSLASH && isEscapedAtext(s.charCodeAt(local))) local--;
        else break;
      }
      if (local < at) {
        end = local;
        resume = at; // its `@` is then seen, and rejected, as a sigil
      }
    }
  }
  while (end > i + 1 && (s.charCodeAt(end - 1) === SLASH || s.charCodeAt(end - 1) === DASH)) end--;
  const name = s.slice(i + 1, end);
  if (name !== '' && hasNonDigit(name)) tags.push(s[i] + name.toLowerCase());
  return resume;
}

/** An address character that a backslash escapes (`\_`, `\.`, `\-`, `\+`). */
function isEscapedAtext(c: number): boolean {
  return asciiIs(c, Ascii.Atext) && asciiIs(c, Ascii.Punct);
}

/** A GFM e-mail domain at `from`: labels of letters, digits, `-`, `_` joined by dots, ending in a letter. */
function isEmailDomain(s: string, from: number): boolean {
  EMAIL_DOMAIN.lastIndex = from;
  if (!EMAIL_DOMAIN.test(s)) return false;
  const last = s.charCodeAt(EMAIL_DOMAIN.lastIndex - 1);
  return (last >= 65 && last <= 90) || (last >= 97 && last <= 122);
}

function hasNonDigit(name: string): boolean {
  for (const ch of name) {
    const c = ch.charCodeAt(0);
    if (c < 128 ? !(c >= 48 && c <= 57) : !DIGIT_RE.test(ch)) return true;
  }
  return false;
}

/**
 * A sigil starts a tag only at a word's start: not after a letter, digit or
 * `_` (`C#`, `a@b`), a backslash (`\#`), `&` (`&#123;`) or another sigil
 * (`##x`). An `_` run before it counts as emphasis markup when nothing
 * word-like precedes the run (`_#tag_`), and as part of a word otherwise.
 */
function sigilMayStart(s: string, i: number): boolean {
  let k = i;
  if (s.charCodeAt(k - 1) === UNDERSCORE) {
    while (s.charCodeAt(k - 1) === UNDERSCORE) k--;
    return !isWordChar(codePointBefore(s, k));
  }
  const before = codePointBefore(s, k);
  if (before === BACKSLASH || before === AMP || before === HASH || before === AT) return false;
  return !isWordChar(before);
}
