/**
 * Where the inline constructs of a prose leaf end, for the inline walk
 * (inline.ts): code spans, autolinks and inline HTML, wikilinks, link labels
 * and inline link tails, entities, and CommonMark's flanking rules for
 * emphasis delimiter runs. Pure functions over the leaf's text.
 */
import {
  Ascii,
  asciiIs,
  BACKSLASH,
  BACKTICK,
  BANG,
  codePointBefore,
  DQUOTE,
  GT,
  isPunctCp,
  isSpaceCp,
  LBRACKET,
  LPAREN,
  LT,
  NEWLINE,
  normalizeLabel,
  QUESTION,
  RBRACKET,
  RPAREN,
  runLength,
  SPACE,
  SQUOTE,
  TAB,
  UNDERSCORE,
} from './chars.js';
import type { LeafMemo } from './urls.js';

/** Start of the next backtick run of exactly `len` at or after `from`, or -1. */
export function findBacktickRun(s: string, from: number, len: number): number {
  let k = from;
  for (;;) {
    k = s.indexOf('`', k);
    if (k < 0) return -1;
    const run = runLength(s, k, BACKTICK);
    if (run === len) return k;
    k += run;
  }
}

const AUTOLINK_URI = /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)>/y;
const AUTOLINK_EMAIL =
  /<([A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)>/y;
const INLINE_HTML = new RegExp(
  '<(?:' +
    [
      '[A-Za-z][A-Za-z0-9-]*(?:\\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\\s*=\\s*(?:[^\\s"\'=<>`]+|\'[^\']*\'|"[^"]*"))?)*\\s*/?>',
      '/[A-Za-z][A-Za-z0-9-]*\\s*>',
      '!---?>',
      '!--[\\s\\S]*?-->',
      '\\?[\\s\\S]*?\\?>',
      '![A-Za-z][^>]*>',
      '!\\[CDATA\\[[\\s\\S]*?\\]\\]>',
    ].join('|') +
    ')',
  'y',
);
const LINE_BREAK_TAG = /^<br\s*\/?>$/i;

export interface AngleMatch {
  end: number;
  /** Its plain text: an autolink's address, a space for `<br>`, else nothing. */
  text: string;
}

/** An autolink or inline HTML at the `<` at `i`, or null when neither. */
export function matchAngle(s: string, i: number, memo: LeafMemo): AngleMatch | null {
  if (s.charCodeAt(i + 1) === BANG || s.charCodeAt(i + 1) === QUESTION) {
    // Comments, processing instructions and CDATA need their closer somewhere after.
    if (s.startsWith('<!--', i) && !/^<!---?>/.test(s.slice(i, i + 5)) && !memo.closes('-->', i + 4)) return null;
    if (s.startsWith('<?', i) && !memo.closes('?>', i + 2)) return null;
    if (s.startsWith('<![CDATA[', i) && !memo.closes(']]>', i + 9)) return null;
  }
  AUTOLINK_URI.lastIndex = i;
  let m = AUTOLINK_URI.exec(s);
  if (!m) {
    AUTOLINK_EMAIL.lastIndex = i;
    m = AUTOLINK_EMAIL.exec(s);
  }
  if (m) return { end: i + m[0].length, text: m[1] ?? '' };
  INLINE_HTML.lastIndex = i;
  const html = INLINE_HTML.exec(s);
  if (!html) return null;
  return { end: i + html[0].length, text: LINE_BREAK_TAG.test(html[0]) ? ' ' : '' };
}

/** End (after `]]`) of a wikilink whose first `[` is at `i`, or -1. */
export function wikilinkEnd(s: string, i: number): number {
  for (let k = i + 2; k < s.length; k++) {
    const c = s.charCodeAt(k);
    // `[[x]](text)` is a wikilink followed by text, as Obsidian reads it (not a Markdown link around `[x]`).
    if (c === RBRACKET) return k > i + 2 && s.charCodeAt(k + 1) === RBRACKET ? k + 2 : -1;
    if (c === LBRACKET || c === NEWLINE) return -1;
  }
  return -1;
}

/** End (after `]`) of a link label starting at `i`, or -1: at most 999 characters, no unescaped brackets. */
export function labelEnd(s: string, i: number): number {
  const limit = Math.min(s.length, i + 1001);
  for (let k = i + 1; k < limit; k++) {
    const c = s.charCodeAt(k);
    if (c === BACKSLASH) k++;
    else if (c === LBRACKET) return -1;
    else if (c === RBRACKET) return k + 1;
  }
  return -1;
}

/**
 * After the `]` at `i` closing brackets whose text starts at `textFrom`: the
 * end of an inline link tail `(dest "title")` or of a reference `[ref]` /
 * `[]` / shortcut whose label is defined; -1 when the brackets are not a link.
 */
export function linkTailEnd(s: string, i: number, textFrom: number, defs: Set<string>): number {
  const next = s.charCodeAt(i + 1);
  if (next === LPAREN) {
    const end = inlineLinkTailEnd(s, i + 1);
    if (end > 0) return end;
  }
  const text = s.slice(textFrom, i);
  if (next === LBRACKET) {
    const end = labelEnd(s, i + 1);
    if (end > 0) {
      const ref = s.slice(i + 2, end - 1);
      const label = ref.trim() === '' ? text : ref;
      return defs.has(normalizeLabel(label)) ? end : -1;
    }
  }
  return text.length <= 999 && defs.has(normalizeLabel(text)) ? i + 1 : -1;
}

function skipSpacesAndOneNewline(s: string, k: number): number {
  let newline = false;
  for (;;) {
    const c = s.charCodeAt(k);
    if (c === SPACE || c === TAB) k++;
    else if (c === NEWLINE && !newline) {
      newline = true;
      k++;
    } else return k;
  }
}

/** End (after `)`) of `(destination "title")` starting at the `(` at `open`, or -1. */
function inlineLinkTailEnd(s: string, open: number): number {
  const n = s.length;
  let k = skipSpacesAndOneNewline(s, open + 1);
  if (s.charCodeAt(k) === RPAREN) return k + 1;
  if (s.charCodeAt(k) === LT) {
    for (k++; ; k++) {
      const c = s.charCodeAt(k);
      if (k >= n || c === NEWLINE || c === LT) return -1;
      if (c === BACKSLASH) k++;
      else if (c === GT) {
        k++;
        break;
      }
    }
  } else {
    let depth = 0;
    const from = k;
    for (; k < n; k++) {
      const c = s.charCodeAt(k);
      if (c === BACKSLASH && asciiIs(s.charCodeAt(k + 1), Ascii.Punct)) k++;
      else if (c === LPAREN) {
        if (++depth > 32) return -1;
      } else if (c === RPAREN) {
        if (depth === 0) break;
        depth--;
      } else if (c <= SPACE) break;
    }
    if (k === from || depth !== 0) return -1;
  }
  const afterDestination = k;
  k = skipSpacesAndOneNewline(s, k);
  const q = s.charCodeAt(k);
  if (k > afterDestination && (q === DQUOTE || q === SQUOTE || q === LPAREN)) {
    const close = q === LPAREN ? RPAREN : q;
    for (k++; ; k++) {
      if (k >= n) return -1;
      const c = s.charCodeAt(k);
      if (c === BACKSLASH) k++;
      else if (c === close) break;
      else if (q === LPAREN && c === LPAREN) return -1;
    }
    k = skipSpacesAndOneNewline(s, k + 1);
  }
  return s.charCodeAt(k) === RPAREN ? k + 1 : -1;
}

export const ENTITY = /&(?:#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/y;
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', copy: '©', reg: '®', trade: '™', hellip: '…',
  mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', middot: '·',
  times: '×', deg: '°', euro: '€', pound: '£', yen: '¥', cent: '¢', sect: '§', para: '¶', bull: '•', shy: '',
};

/** What an entity stands for (its groups as ENTITY captures them); undefined for a name not known here. */
export function decodeEntity(dec: string | undefined, hex: string | undefined, name: string | undefined): string | undefined {
  if (name !== undefined) return NAMED_ENTITIES[name];
  const cp = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex ?? '', 16);
  return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : '\uFFFD';
}

export const CAN_OPEN = 1;
export const CAN_CLOSE = 2;

/**
 * Whether the `*`, `_`, `~` or `=` run at `i` can open and/or close emphasis
 * (CAN_OPEN, CAN_CLOSE), by CommonMark's flanking rules. Intraword
 * underscores (snake_case) do neither.
 */
export function delimiterRole(s: string, i: number, len: number, c: number): number {
  const before = codePointBefore(s, i);
  const after = s.codePointAt(i + len) ?? -1;
  const leftFlanking = !isSpaceCp(after) && (!isPunctCp(after) || isSpaceCp(before) || isPunctCp(before));
  const rightFlanking = !isSpaceCp(before) && (!isPunctCp(before) || isSpaceCp(after) || isPunctCp(after));
  if (c !== UNDERSCORE) return (leftFlanking ? CAN_OPEN : 0) | (rightFlanking ? CAN_CLOSE : 0);
  const canOpen = leftFlanking && (!rightFlanking || isPunctCp(before));
  const canClose = rightFlanking && (!leftFlanking || isPunctCp(after));
  return (canOpen ? CAN_OPEN : 0) | (canClose ? CAN_CLOSE : 0);
}
