/**
 * Character codes and classes shared by the block and inline passes: ASCII
 * through a lookup table, everything else through Unicode property
 * patterns, code points read across surrogate pairs.
 */

export const TAB = 9;
export const NEWLINE = 10;
export const CR = 13;
export const SPACE = 32;
export const BANG = 33;
export const DQUOTE = 34;
export const HASH = 35;
export const PERCENT = 37;
export const AMP = 38;
export const SQUOTE = 39;
export const LPAREN = 40;
export const RPAREN = 41;
export const STAR = 42;
export const PLUS = 43;
export const COMMA = 44;
export const DASH = 45;
export const DOT = 46;
export const SLASH = 47;
export const COLON = 58;
export const SEMICOLON = 59;
export const LT = 60;
export const EQUALS = 61;
export const GT = 62;
export const QUESTION = 63;
export const AT = 64;
export const LBRACKET = 91;
export const BACKSLASH = 92;
export const RBRACKET = 93;
export const CARET = 94;
export const UNDERSCORE = 95;
export const BACKTICK = 96;
export const PIPE = 124;
export const RBRACE = 125;
export const TILDE = 126;

export const WHITESPACE_RUN = /\s+/g;
const WORD_CHAR_RE = /^[\p{L}\p{M}\p{N}_]$/u;
const TAG_CHAR_RE = /^[\p{L}\p{M}\p{Nd}_/-]$/u;
const PUNCT_RE = /^[\p{P}\p{S}]$/u;
export const SPACE_RE = /^\s$/u;

/** The classes of an ASCII character, as flags in the ASCII table. */
export const Ascii = {
  Word: 1, // letter, digit, underscore
  Tag: 2, // letter, digit, _ - /
  Punct: 4, // CommonMark ASCII punctuation
  Space: 8, // space, tab, line ending, form feed
  Atext: 16, // an e-mail local part character as GFM autolinks read it
  UrlTrail: 32, // trailing punctuation that a bare URL leaves out: ! " ' ) * , . : ; ? _ ~
} as const;
export type AsciiClass = (typeof Ascii)[keyof typeof Ascii];

export const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  let flags = 0;
  if (/[A-Za-z0-9_]/.test(ch)) flags |= Ascii.Word;
  if (/[A-Za-z0-9_/-]/.test(ch)) flags |= Ascii.Tag;
  if (/[!-/:-@[-`{-~]/.test(ch)) flags |= Ascii.Punct;
  if (c === SPACE || c === TAB || c === NEWLINE || c === CR || c === 12 || c === 11) flags |= Ascii.Space;
  if (/[A-Za-z0-9._+-]/.test(ch)) flags |= Ascii.Atext;
  if (`!"')*,.:;?_~`.includes(ch)) flags |= Ascii.UrlTrail;
  ASCII[c] = flags;
}

export function asciiIs(c: number, flag: AsciiClass): boolean {
  return c < 128 && ((ASCII[c] ?? 0) & flag) !== 0;
}

export function isAsciiLetter(c: number): boolean {
  return (c | 0x20) >= 97 && (c | 0x20) <= 122;
}

export function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

export function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** The code point ending just before `i`, or -1 at the start (treated as whitespace). */
export function codePointBefore(s: string, i: number): number {
  if (i <= 0) return -1;
  const c = s.charCodeAt(i - 1);
  if (isLowSurrogate(c) && i >= 2 && isHighSurrogate(s.charCodeAt(i - 2))) return s.codePointAt(i - 2) ?? c;
  return c;
}

/** How many code points `s` holds from `from` on. */
export function codePointLength(s: string, from: number): number {
  let n = 0;
  for (let i = from; i < s.length; i++) {
    if (!(isHighSurrogate(s.charCodeAt(i)) && isLowSurrogate(s.charCodeAt(i + 1)))) n++;
  }
  return n;
}

export function isWordChar(cp: number): boolean {
  if (cp < 0) return false;
  if (cp < 128) return asciiIs(cp, Ascii.Word);
  return WORD_CHAR_RE.test(String.fromCodePoint(cp));
}

export function isTagChar(cp: number): boolean {
  if (cp < 128) return asciiIs(cp, Ascii.Tag);
  return TAG_CHAR_RE.test(String.fromCodePoint(cp));
}

/** Unicode whitespace as CommonMark's flanking rules see it; -1 (start or end) counts. */
export function isSpaceCp(cp: number): boolean {
  if (cp < 0) return true;
  if (cp < 128) return asciiIs(cp, Ascii.Space);
  return SPACE_RE.test(String.fromCodePoint(cp));
}

export function isPunctCp(cp: number): boolean {
  if (cp < 0) return false;
  if (cp < 128) return asciiIs(cp, Ascii.Punct);
  return PUNCT_RE.test(String.fromCodePoint(cp));
}

/** The run length of `c` at `p`. */
export function runLength(line: string, p: number, c: number): number {
  let q = p;
  while (line.charCodeAt(q) === c) q++;
  return q - p;
}

/** A link or footnote label as CommonMark compares them: trimmed, inner whitespace collapsed, case folded. */
export function normalizeLabel(label: string): string {
  return label.trim().replace(WHITESPACE_RUN, ' ').toLowerCase();
}

const CLOSING_PUNCTUATION = /^[\p{Pe}\p{Pf}…]$/u;

/** Punctuation that clings to the word before it: `. , ; : ! ? …` and closing brackets and quotes. */
export function isClosingPunctuation(s: string, k: number): boolean {
  const c = s.charCodeAt(k);
  if (c < 128) {
    return c === DOT || c === COMMA || c === SEMICOLON || c === COLON || c === BANG || c === QUESTION || c === RPAREN || c === RBRACKET || c === RBRACE;
  }
  return CLOSING_PUNCTUATION.test(s[k] ?? '');
}
