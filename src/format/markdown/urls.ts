/**
 * GFM's bare URLs (`http://`, `https://`, `www.`), by micromark's rules, and
 * the question both passes ask of a `#`, `@` or `%%`: does it sit inside one?
 */
import { AMP, Ascii, ASCII, asciiIs, codePointBefore, DASH, DOT, isAsciiLetter, isPunctCp, isSpaceCp, LBRACKET, LPAREN, LT, RBRACKET, RPAREN, SPACE_RE, UNDERSCORE } from './chars.js';

/** A leaf that may hold a bare URL: only then does the inline pass stop at `h` and `w`. */
export const URL_HINT = /:\/\/|www\./i;
const URL_START = /https?:\/\/|www\./iy;

function isUrlEnd(s: string, k: number): boolean {
  if (k >= s.length) return true;
  const c = s.charCodeAt(k);
  return c === LT || (c < 128 ? asciiIs(c, Ascii.Space) : isSpaceCp(s.codePointAt(k) ?? 0));
}

/**
 * Whether the characters from `k` are trailing punctuation up to the URL's end
 * (micromark's "trail"): -1 if so, else where that reading fails. From any
 * position between `k` and that one it fails too, which lets callers skip.
 */
function trailFailure(s: string, k: number): number {
  for (;;) {
    if (isUrlEnd(s, k)) return -1;
    const c = s.charCodeAt(k);
    if (asciiIs(c, Ascii.UrlTrail)) k++;
    else if (c === AMP) {
      // `&name;` counts as one trailing character.
      let e = k + 1;
      while (isAsciiLetter(s.charCodeAt(e))) e++;
      if (e === k + 1 || s.charCodeAt(e) !== 59) return e;
      k = e + 1;
    } else if (c === RBRACKET) {
      k++;
      const after = s.charCodeAt(k);
      if (isUrlEnd(s, k) || after === LPAREN || after === LBRACKET) return -1;
    } else return k;
  }
}

/**
 * End of a GFM bare URL (`http://`, `https://`, `www.`) starting at `i`, or
 * -1, by micromark's rules: `http` must not follow an ASCII letter, and `www.`
 * must follow whitespace or one of `(*_[]~` (with `lenient`, which a tag run
 * needs because remark's autolink transform also finds them there, any ASCII
 * punctuation); the domain runs to punctuation other than `-`, `.`, `_` and
 * holds no `_` in its last two labels; the path runs to whitespace or `<`; and
 * trailing punctuation (with unbalanced `)`) is not part of it.
 */
export function bareUrlEnd(s: string, i: number, lenient = false): number {
  const isWww = (s.charCodeAt(i) | 0x20) === 119;
  if ((s.charCodeAt(i + 1) | 0x20) !== (isWww ? 119 : 116)) return -1; // cheap reject before the regex
  URL_START.lastIndex = i;
  if (!URL_START.test(s)) return -1;
  const before = codePointBefore(s, i);
  if (isWww) {
    const allowed = before < 0 || isSpaceCp(before) || (lenient ? asciiIs(before, Ascii.Punct) : '(*_[]~'.includes(String.fromCharCode(before)));
    if (!allowed) return -1;
  } else {
    if (before >= 0 && before < 128 && isAsciiLetter(before)) return -1;
    const first = s.codePointAt(URL_START.lastIndex) ?? -1;
    if (first < 0 || isSpaceCp(first) || isPunctCp(first)) return -1;
  }
  const n = s.length;
  let k = isWww ? i : URL_START.lastIndex;
  const domainStart = k;
  // Positions before this are known not to start a trail (see trailFailure).
  let noTrailBefore = -1;
  const isTrail = (at: number): boolean => {
    if (at < noTrailBefore) return false;
    const failure = trailFailure(s, at);
    if (failure < 0) return true;
    noTrailBefore = failure;
    return false;
  };
  let underscoreInLast = false;
  let underscoreInLastButOne = false;
  while (k < n) {
    const cp = s.codePointAt(k) ?? 0;
    if (cp === DOT || cp === UNDERSCORE) {
      if (isTrail(k)) break;
      if (cp === UNDERSCORE) underscoreInLast = true;
      else {
        underscoreInLastButOne = underscoreInLast;
        underscoreInLast = false;
      }
      k++;
      continue;
    }
    if (isSpaceCp(cp) || (cp !== DASH && isPunctCp(cp))) break;
    k += cp > 0xffff ? 2 : 1;
  }
  if (k === domainStart || underscoreInLast || underscoreInLastButOne) return -1;
  let opened = 0;
  let closed = 0;
  while (k < n) {
    const c = s.charCodeAt(k);
    if (c < 128) {
      const flags = ASCII[c] ?? 0;
      if (c === LPAREN) opened++;
      else if (c === RPAREN && closed < opened) closed++;
      else if ((flags & Ascii.UrlTrail) !== 0 || c === AMP || c === RBRACKET || c === LT) {
        if (isTrail(k)) break;
        if (c === RPAREN) closed++;
      } else if ((flags & Ascii.Space) !== 0) break;
    } else if (isUrlEnd(s, k)) break;
    k++;
  }
  return k;
}

/** How far back inBareUrl looks for the start of a URL, so that long unbroken lines stay linear. */
const MAX_URL_LOOKBACK = 2048;

function isChunkBreak(s: string, k: number): boolean {
  const c = s.charCodeAt(k);
  return c === LT || (c < 128 ? asciiIs(c, Ascii.Space) : SPACE_RE.test(s[k] ?? ''));
}

function hasUrlMarker(text: string): boolean {
  const lower = text.toLowerCase();
  return lower.includes('www.') || lower.includes('http://') || lower.includes('https://');
}

/**
 * Whether the sigil at `i` sits inside a bare URL: the run of non-space
 * characters before it (up to a `<`) holds `http://`, `https://` or `www.`.
 * Such a `#` is the URL's fragment and such an `@` part of its path.
 */
function inBareUrl(s: string, i: number): boolean {
  let k = i - 1;
  const stop = Math.max(-1, i - MAX_URL_LOOKBACK);
  while (k > stop && !isChunkBreak(s, k)) k--;
  return i - k - 1 >= 4 && hasUrlMarker(s.slice(k + 1, i));
}

/** Whether position `k` lies inside a GFM bare URL (by its actual extent, not just its run of non-spaces). */
export function insideBareUrl(s: string, k: number): boolean {
  let start = k;
  const stop = Math.max(0, k - MAX_URL_LOOKBACK);
  while (start > stop && !isChunkBreak(s, start - 1)) start--;
  const chunk = s.slice(start, k).toLowerCase();
  for (let at = 0; at < chunk.length; at++) {
    const c = chunk.charCodeAt(at);
    if (c !== 104 && c !== 119) continue; // h, w
    const end = bareUrlEnd(s, start + at, true);
    if (end > k) return true;
    if (end > 0) at = end - start - 1;
  }
  return false;
}

/**
 * Per-leaf memory that keeps the inline pass linear on long unbroken lines
 * (minified code, CSS colours): inBareUrl answered incrementally, since
 * sigils come left to right, and where the last HTML comment and processing
 * instruction close, so an unclosed `<!--` is rejected at once.
 */
export class LeafMemo {
  private chunkFrom = 0;
  private checkedTo = 0;
  private chunkHasUrl = false;
  private readonly closers = new Map<string, number>();

  constructor(private readonly s: string) {}

  /** inBareUrl(s, i), for positions that come left to right. */
  inBareUrl(i: number): boolean {
    const s = this.s;
    if (i < this.checkedTo) return inBareUrl(s, i);
    let k = i - 1;
    while (k >= this.checkedTo && !isChunkBreak(s, k)) k--;
    let from: number;
    if (k >= this.checkedTo) {
      this.chunkFrom = k + 1;
      this.chunkHasUrl = false;
      from = k + 1;
    } else from = Math.max(this.chunkFrom, this.checkedTo - 8); // a marker may straddle the last check
    if (!this.chunkHasUrl && i - from >= 4) this.chunkHasUrl = hasUrlMarker(s.slice(from, i));
    this.checkedTo = i;
    return this.chunkHasUrl;
  }

  /** Makes `k` the start of a run of non-space characters, as if a space came before it. */
  startChunk(k: number): void {
    this.chunkFrom = this.checkedTo = k;
    this.chunkHasUrl = false;
  }

  /** Whether `closer` occurs at or after `from`. */
  closes(closer: string, from: number): boolean {
    let last = this.closers.get(closer);
    if (last === undefined) {
      last = this.s.lastIndexOf(closer);
      this.closers.set(closer, last);
    }
    return last >= from;
  }
}
