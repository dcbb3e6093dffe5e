import { extractTags } from '../format/markdown/analyze.js';

/**
 * Plain text (a plain-text e-mail, a bookmark's description) made into
 * Markdown that shows the same text: what Markdown would read as structure
 * or as a tag is backslash-escaped, which hides the backslash when shown.
 *
 * Escaped, outside code:
 * - `#` at the start of a line (an ATX heading, or a tag);
 * - a line of only `-` or `=` (`-- ` before a signature, `=====`), which
 *   would make the line above it a heading, and a line of three or more `*`
 *   or `_` (Outlook's `____` rule), which would become a rule;
 * - a `#tag` or `@mention` anywhere (not `C#`, `a@b.org`, a URL's `#anchor`);
 * - `<` before a letter, `/`, `!` or `?`, which would start HTML
 *   (`<https://…>` and `<a@b.org>` stay links);
 * - a code fence that is never closed, which would hide the rest as code.
 * Left as they are, because they read the same as text: `> ` quotes, `- `
 * and `1. ` lists, emphasis, `-----Original Message-----`, and code (a
 * closed fence, a block indented four spaces after a blank line, a
 * `` `span` ``), where a backslash would show.
 */
export function escapePlainText(text: string): string {
  const escaped = escapeLines(text.split('\n'), false);
  // Indentation read as code where Markdown reads a list's continuation is the
  // one place the reading above can be wrong; then nothing is left unescaped.
  return extractTags(escaped).length === 0 ? escaped : escapeLines(text.split('\n'), true);
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const QUOTE_MARKERS = /^(?: {0,3}>[ \t]?)*/;
const UNDERLINE = /^( {0,3})([-=])[ \t]*(?:\2[ \t]*)*$/;
const RULE = /^( {0,3})([*_])[ \t]*(?:\2[ \t]*){2,}$/;

/** Columns of leading space, a tab counting to the next multiple of four. */
function indentOf(line: string): number {
  let columns = 0;
  for (const c of line) {
    if (c === ' ') columns++;
    else if (c === '\t') columns += 4 - (columns % 4);
    else break;
  }
  return columns;
}

function closingFence(lines: readonly string[], from: number, fence: string): number {
  const closer = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
  for (let k = from; k < lines.length; k++) if (closer.test(lines[k] ?? '')) return k;
  return -1;
}

function escapeLines(lines: string[], everywhere: boolean): string {
  const out: string[] = [];
  let previousBlank = true;
  let inCode = false;
  let inList = false;
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k] ?? '';
    const blank = line.trim() === '';
    const fence = FENCE.exec(line);
    if (fence && !everywhere) {
      const close = closingFence(lines, k + 1, fence[1] ?? '```');
      if (close >= 0) {
        out.push(...lines.slice(k, close + 1));
        k = close;
        previousBlank = false;
        continue;
      }
    }
    if (!blank && indentOf(line) >= 4 && !inList && (previousBlank || inCode) && !everywhere) {
      inCode = true;
      out.push(line);
      continue;
    }
    if (!blank) {
      inCode = false;
      if (indentOf(line) < 4) inList = LIST_ITEM.test(line) || (inList && !previousBlank);
    }
    out.push(blank ? line : escapeLine(line));
    previousBlank = blank;
  }
  return out.join('\n');
}

/** One line of prose: its block start (see escapePlainText), then its inline text. */
function escapeLine(line: string): string {
  const quote = QUOTE_MARKERS.exec(line)?.[0] ?? '';
  const rest = line.slice(quote.length);
  const mark = UNDERLINE.exec(rest) ?? RULE.exec(rest);
  if (mark) return `${quote}${mark[1] ?? ''}\\${rest.slice((mark[1] ?? '').length)}`;
  const fence = FENCE.exec(rest);
  if (fence) {
    const at = fence[0].length - (fence[1] ?? '').length;
    return `${quote}${rest.slice(0, at)}\\${escapeInline(rest.slice(at))}`;
  }
  const heading = /^ {0,3}#/.exec(rest);
  if (heading) return `${quote}${heading[0].slice(0, -1)}\\#${escapeInline(rest.slice(heading[0].length))}`;
  return `${quote}${escapeInline(rest)}`;
}

// Spans left as written: code spans (a backtick run to the next run of the same
// length), bare web addresses, and `<…>` autolinks.
const KEPT = /(`+)[^`]*?\1(?!`)|(?:https?:\/\/|www\.)[^\s<]*|<(?:[a-z][a-z0-9+.-]{1,31}:[^\s<>]*|[^\s<>@]+@[^\s<>]+)>/gi;
// A `#`/`@` that starts a tag: after no letter, digit, `_`, `\`, `&` or sigil, before tag
// characters that are not all digits (`#42` is an issue number, `#1-2` a tag).
const SIGIL = /(?<![\p{L}\p{N}_\\&#@])[#@](?=\p{N}*(?:[\p{L}_]|[/-]+[\p{L}\p{N}_]))/gu;
const HTML_START = /<(?=[A-Za-z/!?])/g;

function escapeText(text: string): string {
  return text.replace(SIGIL, '\\$&').replace(HTML_START, '\\<');
}

function escapeInline(text: string): string {
  let out = '';
  let from = 0;
  for (const kept of text.matchAll(KEPT)) {
    out += escapeText(text.slice(from, kept.index)) + kept[0];
    from = kept.index + kept[0].length;
  }
  return out + escapeText(text.slice(from));
}
