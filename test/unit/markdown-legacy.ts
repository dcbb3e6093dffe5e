/**
 * THE SCANNER AS IT WAS BEFORE ISSUE 14, FROZEN: a verbatim copy of
 * src/vault/markdown.ts from before it was split into src/vault/markdown/
 * and taught to read a note once (analyzeMarkdown). Nothing in src/ uses
 * it. markdown-analyze.test.ts checks that analyzeMarkdown and the functions
 * built on the new modules give exactly what these gave, on every corpus the
 * tests have. When a rule is changed on purpose, the two will disagree:
 * then delete this file and markdown-analyze.test.ts's comparisons with it.
 */

/**
 * The Markdown rules of a vault note: its tags, its plain text, its snippet
 * and its search text.
 *
 * This is a hand-written scanner rather than remark: a cold start indexes every
 * note of the vault, and remark + micromark manage only a few hundred notes a
 * second, while this scanner handles tens of thousands. It follows CommonMark +
 * GFM closely enough to agree with the remark tree on everything that decides
 * where a tag may be (code, HTML, links, headings, tables, containers), which
 * test/unit/markdown-oracle.test.ts checks against mdast-util-from-markdown.
 * On top of that it reads Obsidian's own syntax: wikilinks, embeds, callouts,
 * `==highlights==` and `%%comments%%`.
 *
 * It works in two passes over a body:
 * 1. a line-oriented block pass (block quotes, list items and footnote
 *    definitions as containers; paragraphs, headings, fenced and indented code,
 *    HTML blocks, tables and link reference definitions as leaves), which
 *    yields the leaves in order plus the set of defined reference labels;
 * 2. an inline pass over every prose leaf (code spans, autolinks, inline HTML,
 *    links, images, wikilinks, emphasis, highlights, comments, escapes,
 *    entities) that either collects tags or writes plain text, and for the
 *    search text the targets of aliased wikilinks as it meets them.
 * Reference labels have to be known before the inline pass, because whether
 * `![alt][ref]` is an image (whose alt text holds no tags) depends on a
 * definition that may come later in the note.
 *
 * Choices made here:
 * - toPlainText collapses all whitespace, paragraph breaks included, to single
 *   spaces: the text feeds the search index and one-line snippets, neither of
 *   which wants line structure.
 * - makeSnippet, when the cut falls inside a word and a space lies within the
 *   last 20 code points kept, cuts at that space instead.
 * - "At least one non-digit" counts `-`, `_` and `/` as non-digits, as
 *   Obsidian does: `#2024-01-05` is a tag, `#2024` is not (nor `#2024/`, whose
 *   trailing `/` is trimmed first).
 * - Obsidian wikilinks `[[Note#Heading|alias]]` are link targets, not prose:
 *   they hold no tags, and show as their alias (else their target) in plain
 *   text; embeds `![[file]]` show as nothing. (`[[x]](url)` stays a Markdown
 *   link around `[x]`.)
 * - toSearchText is the plain text followed by the targets of the wikilinks
 *   shown under another name, so that a search for a note's name finds the
 *   notes that link to it under an alias. A target contributes the note's name
 *   without its folder or `.md` (the name is what the note is called and what
 *   its title is; the folder would make every note linking into a folder match
 *   the folder's name) and the headings it points to (`[[Setup#Proxy|here]]`
 *   is about the proxy); block ids (`#^a1b2`) are not words and are left out.
 *   Embeds add nothing: they are not shown under a name.
 * - `%%comments%%` hold no tags and are no text, as in the reading view. A
 *   `%%` outside code (spans, blocks, inline HTML, autolinks, wikilinks, bare
 *   URLs) opens a comment; the next `%%` closes it, whatever lies between:
 *   other lines, blank lines, code fences, headings, since nothing in a
 *   comment is Markdown. A `%%` that nothing closes is text: a stray `%%`
 *   (`100%%`) should not hide the rest of a note from search. The blocks are
 *   still those of the note read with its comments in place (the comment is
 *   followed from leaf to leaf), except that when a comment ends inside what
 *   read as code or HTML, that block's start was in the comment, so the rest
 *   of it is read again as Markdown.
 * - Something left out of the text (an embed, a comment, a footnote mark)
 *   takes the space before it along when punctuation follows it
 *   (`and ![[x.png]].` → `and.`); other spaces collapse to one.
 * - A callout's marker (`> [!note]`, `[!warning]-`, `[!tip]+`, `[!x|meta]`)
 *   is styling and is left out; its title is a line of its own, apart from
 *   the callout's body, as the reading view shows it. A callout without a
 *   title adds nothing: the reading view's default title ("Note") is the
 *   type's name, which says nothing about the note and would put "note" or
 *   "warning" in the search text of every note that has one.
 * - `==highlight==` marks pair up as `~~` does, as a run of exactly two, and
 *   are removed; `a == b` and `===` stay.
 * - Task items show their state: `[ ]` as `☐`, `[x]` / `[X]` as `☑`. Other
 *   Obsidian states (`[/]`, `[-]`, `[>]`, `[?]`…) keep their mark as it is:
 *   Obsidian checks them all, but themes and plugins give them their own
 *   meanings (in progress, cancelled, deferred), which neither box would say.
 * - An image's alt text holds no tags (in the Markdown tree it is an attribute,
 *   not text), but it is the image's plain text.
 * - `\#escaped` is not a tag: a backslash before a sigil blocks it like a word
 *   character does; `\%%` opens no comment.
 */

// ---------------------------------------------------------------------------
// Public API

/**
 * The `#hashtags` and `@mentions` of a Markdown body: lower-cased, with their
 * sigil, de-duplicated, in order of first appearance.
 */
export function extractTags(body: string): string[] {
  // Most notes carry no sigil at all; skip both passes for them.
  if (body.indexOf('#') < 0 && body.indexOf('@') < 0) return [];
  const hasComments = body.indexOf('%%') >= 0;
  // A comment may close inside what the block pass read as code or HTML, so
  // with comments about those leaves are needed too.
  const blocks = parseBlocks(body, hasComments);
  const { kinds, texts, defs } = blocks;
  const comments = hasComments ? new Comments(texts) : null;
  const found: string[] = [];
  for (let k = 0; k < kinds.length; k++) {
    let text = texts[k] ?? '';
    if (comments) {
      comments.leaf = k;
      const from = comments.visibleFrom(text);
      if (from < 0) continue;
      if (from > 0 && kinds[k] !== LEAF_INLINE) {
        comments.readAgain(blocks, k, text.slice(from));
        k--; // the leaves read again take this one's place and come next
        continue;
      }
      if (from > 0) text = text.slice(from);
      else if (kinds[k] !== LEAF_INLINE) continue;
      if (text.indexOf('#') < 0 && text.indexOf('@') < 0 && text.indexOf('%%') < 0) continue;
    } else {
      if (kinds[k] !== LEAF_INLINE) continue;
      if (text.indexOf('#') < 0 && text.indexOf('@') < 0) continue;
    }
    scanInline(text, defs, found, null, comments, null);
  }
  if (found.length < 2) return found;
  return [...new Set(found)];
}

/**
 * The body as plain readable text, as Obsidian's reading view shows it:
 * Markdown syntax, callout markers, highlight marks, embeds and `%%comments%%`
 * removed, code and link labels kept, task checkboxes as `☐` / `☑`, all
 * whitespace (paragraph breaks too) collapsed to single spaces, trimmed.
 */
export function toPlainText(body: string): string {
  return plainText(body, Infinity, null);
}

/**
 * What the search index holds of a body: toPlainText, then the targets of the
 * wikilinks shown under another name (`[[Folder/Target Note#Heading|shown]]`
 * adds `Target Note Heading`), so that a search for a note's name also finds
 * the notes linking to it under an alias. One pass, like toPlainText.
 */
export function toSearchText(body: string): string {
  const targets: string[] = [];
  const text = plainText(body, Infinity, targets);
  if (targets.length === 0) return text;
  const words = targets.join(' ');
  return text === '' ? words : text + ' ' + words;
}

/**
 * toPlainText, or a prefix of it at least `enough` UTF-16 units long: the
 * leaves are independent once the reference labels are known, so a snippet
 * need not convert the rest of a long note. With `targets`, the targets of
 * aliased wikilinks are appended to it as they are met.
 */
function plainText(body: string, enough: number, targets: string[] | null): string {
  const blocks = parseBlocks(body, true);
  const { kinds, texts, defs } = blocks;
  const comments = body.indexOf('%%') >= 0 ? new Comments(texts) : null;
  const leaves: string[] = [];
  const out: string[] = [];
  let length = 0;
  // A leaf whose start a comment hid and whose rest starts with punctuation
  // joins the leaf before it without a space (see dropSpaceBeforePunctuation).
  let glueNext = false;
  for (let k = 0; k < kinds.length && length < enough; k++) {
    let text = texts[k] ?? '';
    const kind = kinds[k];
    let glued: boolean = glueNext;
    glueNext = false;
    if (comments) {
      comments.leaf = k;
      const from = comments.visibleFrom(text);
      if (from < 0) continue;
      if (from > 0) {
        glued = isClosingPunctuation(text, from);
        if (kind !== LEAF_INLINE) {
          comments.readAgain(blocks, k, text.slice(from));
          glueNext = glued; // for the first of the leaves read again,
          k--; // which take this one's place and come next
          continue;
        }
        text = text.slice(from);
      }
    }
    out.length = 0;
    if (kind === LEAF_INLINE) scanInline(text, defs, null, out, comments, targets);
    else if (kind === LEAF_HTML) out.push(htmlBlockText(text));
    else out.push(text);
    // Collapsing each leaf and joining them with one space is the same as
    // collapsing the whole, and keeps the words of separate blocks apart.
    const leaf = out.join('').replace(WHITESPACE_RUN, ' ').trim();
    if (leaf === '') continue;
    if (glued && leaves.length > 0) leaves[leaves.length - 1] += leaf;
    else leaves.push(leaf);
    length += leaf.length + 1;
  }
  return leaves.join(' ');
}

/**
 * The first `limit` code points of the body's plain text, `…` appended when it
 * was cut. A cut never splits a surrogate pair; a cut inside a word moves back
 * to a space when one lies within the last 20 code points kept.
 */
export function makeSnippet(body: string, limit = 300): string {
  // Twice the limit in UTF-16 units holds more than `limit` code points: enough
  // to know whether, and where, to cut.
  const text = plainText(body, 2 * limit + 2, null);
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
  // toPlainText leaves single ASCII spaces only, so a space is the one break.
  const cutsWord = text.charCodeAt(end) !== SPACE && kept.charCodeAt(kept.length - 1) !== SPACE;
  if (cutsWord) {
    const space = kept.lastIndexOf(' ');
    if (space > 0 && codePointLength(kept, space + 1) <= WORD_CUT_WINDOW) kept = kept.slice(0, space);
  }
  return kept.trimEnd() + '…';
}

/** How far back (in code points) makeSnippet looks for a space to cut at. */
const WORD_CUT_WINDOW = 20;

// ---------------------------------------------------------------------------
// Character classes

const TAB = 9;
const NEWLINE = 10;
const CR = 13;
const SPACE = 32;
const BANG = 33;
const HASH = 35;
const AMP = 38;
const STAR = 42;
const PLUS = 43;
const DASH = 45;
const DOT = 46;
const SLASH = 47;
const COLON = 58;
const LT = 60;
const EQUALS = 61;
const GT = 62;
const AT = 64;
const LBRACKET = 91;
const BACKSLASH = 92;
const RBRACKET = 93;
const CARET = 94;
const UNDERSCORE = 95;
const BACKTICK = 96;
const PIPE = 124;
const TILDE = 126;
const RPAREN = 41;
const LPAREN = 40;
const DQUOTE = 34;
const PERCENT = 37;
const COMMA = 44;
const SEMICOLON = 59;
const QUESTION = 63;
const RBRACE = 125;
const SQUOTE = 39;

const WHITESPACE_RUN = /\s+/g;
const WORD_CHAR_RE = /^[\p{L}\p{M}\p{N}_]$/u;
const TAG_CHAR_RE = /^[\p{L}\p{M}\p{Nd}_/-]$/u;
const DIGIT_RE = /^\p{Nd}$/u;
const PUNCT_RE = /^[\p{P}\p{S}]$/u;
const SPACE_RE = /^\s$/u;

const enum Ascii {
  Word = 1, // letter, digit, underscore
  Tag = 2, // letter, digit, _ - /
  Punct = 4, // CommonMark ASCII punctuation
  Space = 8, // space, tab, line ending, form feed
  Atext = 16, // an e-mail local part character as GFM autolinks read it
  UrlTrail = 32, // trailing punctuation that a bare URL leaves out: ! " ' ) * , . : ; ? _ ~
}

const ASCII = new Uint8Array(128);
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

function asciiIs(c: number, flag: Ascii): boolean {
  return c < 128 && ((ASCII[c] ?? 0) & flag) !== 0;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** The code point ending just before `i`, or -1 at the start (treated as whitespace). */
function codePointBefore(s: string, i: number): number {
  if (i <= 0) return -1;
  const c = s.charCodeAt(i - 1);
  if (isLowSurrogate(c) && i >= 2 && isHighSurrogate(s.charCodeAt(i - 2))) return s.codePointAt(i - 2) ?? c;
  return c;
}

function codePointLength(s: string, from: number): number {
  let n = 0;
  for (let i = from; i < s.length; i++) {
    if (!(isHighSurrogate(s.charCodeAt(i)) && isLowSurrogate(s.charCodeAt(i + 1)))) n++;
  }
  return n;
}

function isWordChar(cp: number): boolean {
  if (cp < 0) return false;
  if (cp < 128) return asciiIs(cp, Ascii.Word);
  return WORD_CHAR_RE.test(String.fromCodePoint(cp));
}

function isTagChar(cp: number): boolean {
  if (cp < 128) return asciiIs(cp, Ascii.Tag);
  return TAG_CHAR_RE.test(String.fromCodePoint(cp));
}

/** Unicode whitespace as CommonMark's flanking rules see it; -1 (start or end) counts. */
function isSpaceCp(cp: number): boolean {
  if (cp < 0) return true;
  if (cp < 128) return asciiIs(cp, Ascii.Space);
  return SPACE_RE.test(String.fromCodePoint(cp));
}

function isPunctCp(cp: number): boolean {
  if (cp < 0) return false;
  if (cp < 128) return asciiIs(cp, Ascii.Punct);
  return PUNCT_RE.test(String.fromCodePoint(cp));
}

// ---------------------------------------------------------------------------
// Block pass

const LEAF_INLINE = 0; // paragraph, heading or table cell: inline Markdown
const LEAF_LITERAL = 1; // text shown as it is: fenced or indented code, a task's checkbox
const LEAF_HTML = 2; // an HTML block

interface Blocks {
  kinds: number[];
  texts: string[];
  /** Normalized labels of link reference definitions; footnotes as `^label`. */
  defs: Set<string>;
}

const CONTAINER_QUOTE = 0;
const CONTAINER_ITEM = 1; // list item or footnote definition

interface Container {
  kind: number;
  /** Items: the column where their content starts. */
  col: number;
  /** Items: opened on a line with no content and no content line since. */
  empty: boolean;
}

const enum Open {
  None,
  Paragraph,
  Fenced,
  Indented,
  Html,
  Table,
}

const THEMATIC_BREAK = /^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const SETEXT_UNDERLINE = /^(?:=+|-+)[ \t]*$/;
const TABLE_DELIMITER = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const TASK_MARKER = /\[[ xX]\](?=[ \t]|$)/y;
const TASK_MARKER_LENGTH = 3;
/** `[!type]`, `[!type|metadata]`, then `+` or `-` when it folds. */
const CALLOUT_MARKER = /\[![^\]\s]+\][+-]?/y;

/** What a task list item's checkbox at `p` shows, `☐` or `☑`; '' when there is none. */
function taskState(line: string, p: number): string {
  if (line.charCodeAt(p) !== LBRACKET) return '';
  TASK_MARKER.lastIndex = p;
  if (!TASK_MARKER.test(line)) return '';
  return line.charCodeAt(p + 1) === SPACE ? '☐' : '☑';
}

/**
 * The title of an Obsidian callout whose marker starts at `q` ('' when it
 * has none), or null when this is no callout's first line: a block quote
 * opened on this line, the innermost container, starting with `[!type]`. The
 * marker is styling; the title is a line of its own, apart from the callout's
 * body, as the reading view shows it.
 */
function calloutTitle(line: string, q: number, stack: readonly Container[]): string | null {
  if (line.charCodeAt(q + 1) !== BANG || stack[stack.length - 1]?.kind !== CONTAINER_QUOTE) return null;
  CALLOUT_MARKER.lastIndex = q;
  if (!CALLOUT_MARKER.test(line)) return null;
  return line.slice(CALLOUT_MARKER.lastIndex).trim();
}
const FOOTNOTE_DEF = /\[\^([^\]\s]+)\]:/y;
const LINK_DEFINITION =
  /^\[((?:[^\\[\]]|\\.){1,999})\]:[ \t]*(?:<[^<>\n]*>|[^\x00-\x20<][^\x00-\x20]*)(?:[ \t]+("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^)\\]|\\.)*\)))?[ \t]*$/;
const DEFINITION_TITLE = /^(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^)\\]|\\.)*\))[ \t]*$/;

const HTML_RAW_START = /^<(?:pre|script|style|textarea)(?:[ \t>]|$)/i;
const HTML_RAW_END = /<\/(?:pre|script|style|textarea)>/i;
const HTML_BLOCK_TAG = /^<\/?([A-Za-z][A-Za-z0-9-]*)(?:[ \t>]|\/>|$)/;
const HTML_COMPLETE_TAG =
  /^(?:<[A-Za-z][A-Za-z0-9-]*(?:[ \t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t]*=[ \t]*(?:[^ \t"'=<>`]+|'[^']*'|"[^"]*"))?)*[ \t]*\/?>|<\/[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$/;
const HTML_BLOCK_NAMES = new Set(
  (
    'address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt ' +
    'fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link ' +
    'main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead ' +
    'title tr track ul'
  ).split(' '),
);

/** Where a block-level HTML start ends, by CommonMark's seven kinds; null: at a blank line. */
function htmlBlockEnd(rest: string, interruptsParagraph: boolean): RegExp | null | undefined {
  if (HTML_RAW_START.test(rest)) return HTML_RAW_END;
  if (rest.startsWith('<!--')) return /-->/;
  if (rest.startsWith('<?')) return /\?>/;
  if (rest.startsWith('<![CDATA[')) return /\]\]>/;
  if (/^<![A-Za-z]/.test(rest)) return />/;
  const named = HTML_BLOCK_TAG.exec(rest);
  if (named && HTML_BLOCK_NAMES.has((named[1] ?? '').toLowerCase())) return null;
  // Kind 7, any other complete tag alone on its line (`</pre>` too), cannot interrupt a paragraph.
  if (!interruptsParagraph && HTML_COMPLETE_TAG.test(rest)) return null;
  return undefined;
}

/** A kind 7 HTML start: a complete tag alone on its line, which cannot interrupt a paragraph. */
function isLoneTagLine(rest: string): boolean {
  return htmlBlockEnd(rest, true) === undefined && htmlBlockEnd(rest, false) === null;
}

/**
 * How many characters of an HTML start the end search skips, so that `<?>`
 * or `<!X` cannot end themselves while `<!-->` and `<!--->` (empty comments,
 * as micromark reads them) do.
 */
function htmlStartLength(end: RegExp | null): number {
  return end === null || end === HTML_RAW_END ? 1 : 2;
}

/**
 * Expands the tabs in the run of spaces and tabs starting at `p` to spaces, so
 * that from then on a position on the line is also its column. Every character
 * before `p` is a single-column container marker or an already expanded space.
 */
function expandIndent(line: string, p: number): string {
  let q = p;
  let hasTab = false;
  for (;;) {
    const c = line.charCodeAt(q);
    if (c === SPACE) q++;
    else if (c === TAB) {
      hasTab = true;
      q++;
    } else break;
  }
  if (!hasTab) return line;
  let spaces = '';
  let col = p;
  for (let k = p; k < q; k++) {
    const width = line.charCodeAt(k) === TAB ? 4 - (col % 4) : 1;
    spaces += ' '.repeat(width);
    col += width;
  }
  return line.slice(0, p) + spaces + line.slice(q);
}

function spacesAt(line: string, p: number): number {
  let q = p;
  while (line.charCodeAt(q) === SPACE) q++;
  return q - p;
}

function isBlankFrom(line: string, p: number): boolean {
  for (let q = p; q < line.length; q++) {
    const c = line.charCodeAt(q);
    if (c !== SPACE && c !== TAB) return false;
  }
  return true;
}

/** The run length of `c` at `p`. */
function runLength(line: string, p: number, c: number): number {
  let q = p;
  while (line.charCodeAt(q) === c) q++;
  return q - p;
}

/** A trimmed ATX heading's text without its optional closing `#`s (which need a space before them). */
function withoutClosingSequence(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === HASH) end--;
  if (end === text.length) return text;
  if (end === 0) return '';
  const before = text.charCodeAt(end - 1);
  return before === SPACE || before === TAB ? text.slice(0, end).trimEnd() : text;
}

/** Length of a code fence opening at `q`, or 0. */
function fenceOpening(line: string, q: number): number {
  const c = line.charCodeAt(q);
  if (c !== BACKTICK && c !== TILDE) return 0;
  const len = runLength(line, q, c);
  if (len < 3) return 0;
  // A backtick fence's info string cannot hold a backtick (it would be a code span).
  if (c === BACKTICK && line.indexOf('`', q + len) >= 0) return 0;
  return len;
}

function isAtxStart(line: string, q: number): number {
  const level = runLength(line, q, HASH);
  if (level < 1 || level > 6) return 0;
  const after = line.charCodeAt(q + level);
  return after === SPACE || after === TAB || Number.isNaN(after) ? level : 0;
}

interface ListMarker {
  /** Column of the item's content for continuation lines. */
  col: number;
  /** Where the first line's content starts. */
  contentPos: number;
  empty: boolean;
  line: string;
}

/** A list item marker at `q`; when it would interrupt a paragraph it must be non-empty and, if ordered, start at 1. */
function listMarkerAt(line: string, q: number, interruptsParagraph: boolean): ListMarker | null {
  const c = line.charCodeAt(q);
  let markerEnd: number;
  if (c === DASH || c === STAR || c === PLUS) {
    markerEnd = q + 1;
  } else if (c >= 48 && c <= 57) {
    let d = q;
    while (d - q < 10 && line.charCodeAt(d) >= 48 && line.charCodeAt(d) <= 57) d++;
    const delim = line.charCodeAt(d);
    if (d - q > 9 || (delim !== DOT && delim !== RPAREN)) return null;
    if (interruptsParagraph && line.slice(q, d) !== '1') return null;
    markerEnd = d + 1;
  } else return null;
  const after = line.charCodeAt(markerEnd);
  if (!Number.isNaN(after) && after !== SPACE && after !== TAB) return null;
  if ((c === DASH || c === STAR) && THEMATIC_BREAK.test(line.slice(q))) return null;
  const expanded = expandIndent(line, markerEnd);
  const width = spacesAt(expanded, markerEnd);
  if (markerEnd + width >= expanded.length) {
    if (interruptsParagraph) return null;
    return { col: markerEnd + 1, contentPos: expanded.length, empty: true, line: expanded };
  }
  // Five or more spaces: the content is indented code one space after the marker.
  if (width >= 5) return { col: markerEnd + 1, contentPos: markerEnd + 1, empty: false, line: expanded };
  return { col: markerEnd + width, contentPos: markerEnd + width, empty: false, line: expanded };
}

/** Whether a line that failed to match its containers still continues the open paragraph ("laziness"). */
function continuesParagraph(line: string, p: number): boolean {
  const ind = spacesAt(line, p);
  if (ind >= 4) return true;
  const q = p + ind;
  if (fenceOpening(line, q) > 0 || isAtxStart(line, q) > 0) return false;
  const rest = line.slice(q);
  if (THEMATIC_BREAK.test(rest)) return false;
  if (line.charCodeAt(q) === LT && htmlBlockEnd(rest, true) !== undefined) return false;
  return true;
}

/** The cells of a table row: outer pipes dropped, split on unescaped pipes, trimmed. */
function splitCells(row: string): string[] {
  let s = row.trim();
  if (s.charCodeAt(0) === PIPE) s = s.slice(1);
  if (s.charCodeAt(s.length - 1) === PIPE && s.charCodeAt(s.length - 2) !== BACKSLASH) s = s.slice(0, -1);
  const cells: string[] = [];
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === PIPE) {
      cells.push(s.slice(from, i).trim());
      from = i + 1;
    }
  }
  cells.push(s.slice(from).trim());
  return cells;
}

function normalizeLabel(label: string): string {
  return label.trim().replace(WHITESPACE_RUN, ' ').toLowerCase();
}

/**
 * The block pass: CommonMark's container/leaf line algorithm, reduced to what
 * tags and plain text need. `keepLiteral` false skips collecting the text of
 * code and HTML blocks, which tags never look at.
 */
function parseBlocks(body: string, keepLiteral: boolean): Blocks {
  const kinds: number[] = [];
  const texts: string[] = [];
  const defs = new Set<string>();
  const stack: Container[] = [];
  let open = Open.None;
  let paragraph: string[] = [];
  let literal: string[] = [];
  let pendingBlankLines = 0;
  let fenceChar = 0;
  let fenceLength = 0;
  let htmlEnd: RegExp | null = null;
  let titleMayFollow = false; // a definition without a title may take one from the next line

  const emit = (kind: number, text: string): void => {
    kinds.push(kind);
    texts.push(text);
  };
  const emitCells = (row: string): void => {
    for (const cell of splitCells(row)) if (cell !== '') emit(LEAF_INLINE, cell);
  };
  const closeLeaf = (): void => {
    if (open === Open.Paragraph && paragraph.length > 0) emit(LEAF_INLINE, paragraph.join('\n'));
    else if ((open === Open.Fenced || open === Open.Indented) && keepLiteral) emit(LEAF_LITERAL, literal.join('\n'));
    else if (open === Open.Html && keepLiteral) emit(LEAF_HTML, literal.join('\n'));
    open = Open.None;
    paragraph = [];
    literal = [];
    pendingBlankLines = 0;
    titleMayFollow = false;
  };
  const closeTo = (depth: number): void => {
    closeLeaf();
    stack.length = depth;
  };

  /**
   * Link reference definitions open a paragraph, as CommonMark reads them off
   * its start: what follows continues it (an indented or lazy line is not a
   * new block), and a definition without a title may take one from the next line.
   */
  const takeDefinitionLine = (rest: string): boolean => {
    const afterDefinition = titleMayFollow;
    titleMayFollow = false;
    if (afterDefinition && DEFINITION_TITLE.test(rest)) return true;
    if (rest.charCodeAt(0) !== LBRACKET) return false;
    const def = LINK_DEFINITION.exec(rest);
    if (!def) return false;
    defs.add(normalizeLabel(def[1] ?? ''));
    open = Open.Paragraph;
    titleMayFollow = def[2] === undefined;
    return true;
  };

  const processLine = (raw: string): void => {
    let line = raw;
    let p = 0;
    // End of the (tab-expanded) run of spaces holding `p`, so that a line
    // inside many nested items measures its indentation once, not per item.
    let spacesEnd = -1;
    const indentAt = (): number => {
      if (p > spacesEnd) {
        line = expandIndent(line, p);
        spacesEnd = p + spacesAt(line, p);
      }
      return spacesEnd - p;
    };

    // 1. Which open containers does this line continue?
    let matched = 0;
    for (; matched < stack.length; matched++) {
      const container = stack[matched]!;
      const ind = indentAt();
      if (container.kind === CONTAINER_QUOTE) {
        if (ind > 3 || line.charCodeAt(p + ind) !== GT) break;
        p += ind + 1;
        if (indentAt() > 0) p++;
      } else if (p + ind >= line.length) {
        // A blank line continues an item, unless the item has had no content yet.
        if (container.empty) break;
      } else if (p + ind >= container.col) {
        p = container.col;
        container.empty = false;
      } else break;
    }
    const allMatched = matched === stack.length;

    // 2. Literal blocks swallow their lines before any block start is looked for.
    if (allMatched && open === Open.Fenced) {
      const ind = indentAt();
      const q = p + ind;
      if (ind <= 3 && runLength(line, q, fenceChar) >= fenceLength && isBlankFrom(line, q + runLength(line, q, fenceChar))) {
        closeLeaf();
      } else if (keepLiteral) literal.push(line.slice(p));
      return;
    }
    if (allMatched && open === Open.Html) {
      if (htmlEnd === null && isBlankFrom(line, p)) {
        closeLeaf();
        return;
      }
      if (keepLiteral) literal.push(line.slice(p));
      if (htmlEnd !== null && htmlEnd.test(line.slice(p))) closeLeaf();
      return;
    }

    // 3. New containers: block quotes, list items, footnote definitions.
    let opened = false;
    const openContainer = (container: Container): void => {
      if (!opened) {
        closeTo(matched);
        opened = true;
      }
      stack.push(container);
    };
    for (;;) {
      const ind = indentAt();
      if (ind >= 4) break;
      const q = p + ind;
      const c = line.charCodeAt(q);
      if (c === GT) {
        openContainer({ kind: CONTAINER_QUOTE, col: 0, empty: false });
        p = q + 1;
        if (indentAt() > 0) p++;
        continue;
      }
      const interruptsParagraph = open === Open.Paragraph && allMatched && !opened;
      const marker = listMarkerAt(line, q, interruptsParagraph);
      if (marker) {
        openContainer({ kind: CONTAINER_ITEM, col: marker.col, empty: marker.empty });
        line = marker.line;
        p = marker.contentPos;
        // A task list item's `[ ]` / `[x]` is a checkbox: its state is text of
        // its own, and the item's content starts after it.
        const task = taskState(line, p);
        if (task !== '') {
          p += TASK_MARKER_LENGTH;
          if (keepLiteral) emit(LEAF_LITERAL, task);
        }
        continue;
      }
      if (c === LBRACKET && line.charCodeAt(q + 1) === CARET) {
        FOOTNOTE_DEF.lastIndex = q;
        const def = FOOTNOTE_DEF.exec(line);
        if (def) {
          defs.add('^' + normalizeLabel(def[1] ?? ''));
          // Its continuation lines are indented four columns past where it starts.
          openContainer({ kind: CONTAINER_ITEM, col: p + 4, empty: false });
          p = FOOTNOTE_DEF.lastIndex;
          p += indentAt();
          continue;
        }
      }
      break;
    }

    const ind = indentAt();
    const q = p + ind;
    const blank = q >= line.length;

    // An Obsidian callout's first line: its title is a line of its own.
    if (opened && line.charCodeAt(q) === LBRACKET && ind < 4) {
      const title = calloutTitle(line, q, stack);
      if (title !== null) {
        if (title !== '') emit(LEAF_INLINE, title);
        return;
      }
    }

    // 4. A line that leaves some containers unmatched either lazily continues a
    //    paragraph or closes them.
    if (!opened && !allMatched) {
      if (open === Open.Paragraph && !blank && line.charCodeAt(q) === LT && ind < 4 && isLoneTagLine(line.slice(q))) {
        // micromark reads a lone tag on a lazy line as a one-line HTML block
        // inside the paragraph's containers; the next line closes them.
        closeLeaf();
        if (keepLiteral) emit(LEAF_HTML, line.slice(q));
        return;
      }
      if (open === Open.Paragraph && !blank && continuesParagraph(line, p)) {
        if (paragraph.length === 0 && takeDefinitionLine(line.slice(q))) return;
        paragraph.push(line.slice(q));
        return;
      }
      closeTo(matched);
    }

    // 5. The leaf block.
    if (blank) {
      if (open === Open.Paragraph || open === Open.Table) closeLeaf();
      else if (open === Open.Indented) pendingBlankLines++;
      return;
    }
    if (ind >= 4 && open !== Open.Paragraph) {
      if (open !== Open.Indented) {
        closeLeaf();
        open = Open.Indented;
      }
      if (keepLiteral) {
        for (; pendingBlankLines > 0; pendingBlankLines--) literal.push('');
        literal.push(line.slice(p + 4));
      }
      return;
    }
    if (open === Open.Indented) closeLeaf();
    const rest = line.slice(q);
    if (ind >= 4) {
      // Only a paragraph gets here with four columns of indentation: it continues.
      paragraph.push(rest);
      return;
    }
    const c = line.charCodeAt(q);

    const fence = fenceOpening(line, q);
    if (fence > 0) {
      closeLeaf();
      open = Open.Fenced;
      fenceChar = c;
      fenceLength = fence;
      return;
    }
    const level = c === HASH ? isAtxStart(line, q) : 0;
    if (level > 0) {
      closeLeaf();
      const heading = withoutClosingSequence(line.slice(q + level).trim());
      if (heading !== '') emit(LEAF_INLINE, heading);
      return;
    }
    if (open === Open.Paragraph && paragraph.length > 0 && (c === EQUALS || c === DASH) && SETEXT_UNDERLINE.test(rest)) {
      closeLeaf(); // the paragraph becomes a heading; its underline is markup
      return;
    }
    if ((c === STAR || c === DASH || c === UNDERSCORE) && THEMATIC_BREAK.test(rest)) {
      closeLeaf();
      return;
    }
    if (c === LT) {
      const end = htmlBlockEnd(rest, open === Open.Paragraph);
      if (end !== undefined) {
        closeLeaf();
        open = Open.Html;
        htmlEnd = end;
        if (keepLiteral) literal.push(rest);
        if (end !== null && end.test(rest.slice(htmlStartLength(end)))) closeLeaf();
        return;
      }
    }
    if (open === Open.Paragraph && paragraph.length > 0 && (c === PIPE || c === COLON || c === DASH) && TABLE_DELIMITER.test(rest)) {
      // The paragraph's last line is the header row, when the cell counts agree.
      const header = paragraph[paragraph.length - 1] ?? '';
      if (rest.includes('|') || rest.includes(':')) {
        if (splitCells(header).length === splitCells(rest).length) {
          paragraph.pop();
          if (paragraph.length > 0) emit(LEAF_INLINE, paragraph.join('\n'));
          paragraph = [];
          open = Open.Table;
          emitCells(header);
          return;
        }
      }
    }
    if (open === Open.Table) {
      emitCells(rest);
      return;
    }
    if ((open === Open.None || (open === Open.Paragraph && paragraph.length === 0)) && takeDefinitionLine(rest)) return;
    if (open !== Open.Paragraph) {
      closeLeaf();
      open = Open.Paragraph;
    }
    paragraph.push(rest);
  };

  let start = 0;
  for (;;) {
    let nl = body.indexOf('\n', start);
    if (nl < 0) nl = body.length;
    let end = nl;
    if (end > start && body.charCodeAt(end - 1) === CR) end--;
    processLine(body.slice(start, end));
    if (nl >= body.length) break;
    start = nl + 1;
  }
  closeLeaf();
  return { kinds, texts, defs };
}

// ---------------------------------------------------------------------------
// Inline pass

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
const EMAIL_DOMAIN = /[A-Za-z0-9_-]+(?:\.[A-Za-z0-9][A-Za-z0-9_-]*)+/y;
const ENTITY = /&(?:#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/y;
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', copy: '©', reg: '®', trade: '™', hellip: '…',
  mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', middot: '·',
  times: '×', deg: '°', euro: '€', pound: '£', yen: '¥', cent: '¢', sect: '§', para: '¶', bull: '•', shy: '',
};

/**
 * Characters where the inline scanner has something to decide, by what it
 * does (tags or text) and what the leaf may hold: the first letters of bare
 * URLs, for leaves that may hold one; `%`, in a body that holds a comment.
 */
const STOPS_TEXT = 1;
const STOPS_URL = 2;
const STOPS_COMMENT = 4;
const STOPS: Uint8Array[] = Array.from({ length: 8 }, (_, mode) =>
  stopTable(
    '\\`<![]_' +
      ((mode & STOPS_TEXT) !== 0 ? '*~&=' : '#@') +
      ((mode & STOPS_URL) !== 0 ? 'hHwW' : '') +
      ((mode & STOPS_COMMENT) !== 0 ? '%' : ''),
  ),
);
const URL_HINT = /:\/\/|www\./i;

function stopTable(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (const ch of chars) table[ch.charCodeAt(0)] = 1;
  return table;
}

/**
 * The Obsidian comments of one body, followed across its leaves: a `%%`
 * outside code opens a comment and the next `%%` closes it, wherever that
 * is, block structure and code included, since nothing inside a comment is
 * Markdown. A `%%` that nothing closes is literal text.
 */
class Comments {
  /** A comment opened in an earlier leaf is still open. */
  open = false;
  /** The index of the leaf being scanned. */
  leaf = 0;
  /** The last leaf holding a `%%`; -2 until needed. */
  private lastWithMarker = -2;

  constructor(private readonly texts: readonly string[]) {}

  /**
   * Where the visible part of a leaf starts: 0 with no comment open, after
   * the closing `%%` when one is, -1 when the open comment hides all of it.
   */
  visibleFrom(text: string): number {
    if (!this.open) return 0;
    const close = text.indexOf('%%');
    if (close < 0) return -1;
    this.open = false;
    return close + 2;
  }

  /**
   * When a comment ends inside what the block pass read as code or HTML, the
   * block's start was in the comment, so it is no block: the rest of its text
   * (`rest`) is read again, in place of leaf `k`. What follows the `%%` on
   * its line continues the line the comment began on, so it is prose; the
   * lines after it are read as blocks.
   */
  readAgain(blocks: Blocks, k: number, rest: string): void {
    const newline = rest.indexOf('\n');
    const line = (newline < 0 ? rest : rest.slice(0, newline)).trim();
    const again = parseBlocks(newline < 0 ? '' : rest.slice(newline + 1), true);
    if (line !== '') {
      again.kinds.unshift(LEAF_INLINE);
      again.texts.unshift(line);
    }
    blocks.kinds.splice(k, 1, ...again.kinds);
    blocks.texts.splice(k, 1, ...again.texts);
    for (const label of again.defs) blocks.defs.add(label);
    this.lastWithMarker = -2;
  }

  /** Whether a leaf after the current one holds a `%%`, which would close a comment left open. */
  closedLater(): boolean {
    if (this.lastWithMarker === -2) {
      let k = this.texts.length - 1;
      while (k >= 0 && (this.texts[k] ?? '').indexOf('%%') < 0) k--;
      this.lastWithMarker = k;
    }
    return this.lastWithMarker > this.leaf;
  }
}

interface Opener {
  /** Index of the `[` (or of the `!` of `![`). */
  pos: number;
  image: boolean;
  active: boolean;
  /** Plain text: the output slot holding the bracket, blanked when it turns out to be a link. */
  slot: number;
  /** Tags: how many tags were found before it, so an image can drop those in its alt text. */
  tagCount: number;
}

/**
 * Scans one prose leaf. With `tags` it appends the tags found; with `out` it
 * appends plain text, and with `targets` too the targets of aliased
 * wikilinks. `comments`, for a body that holds a `%%`, follows comments from
 * leaf to leaf. A link is only known to be one at its closing `]`, so openers
 * are kept on a stack, as CommonMark's bracket algorithm does.
 */
function scanInline(
  s: string,
  defs: Set<string>,
  tags: string[] | null,
  out: string[] | null,
  comments: Comments | null,
  targets: string[] | null,
): void {
  const n = s.length;
  const mayHoldUrl = URL_HINT.test(s);
  const memo = new LeafMemo(s);
  const stops = STOPS[(tags ? 0 : STOPS_TEXT) | (mayHoldUrl ? STOPS_URL : 0) | (comments ? STOPS_COMMENT : 0)]!;
  const openers: Opener[] = [];
  // Backtick run lengths known to have no closing run after some position.
  let noCloser: Set<number> | null = null;
  // `_` runs that may still be closed: a tag's trailing `_` may be such a closer.
  const underscores = tags ? new UnderscoreDelimiters() : null;
  let literalFrom = 0; // plain text: start of the not yet copied literal run
  let delimiters: Delimiter[] | null = null; // plain text: `*`, `_`, `~` runs that may be emphasis
  let i = 0;

  const flush = (to: number): void => {
    if (out && to > literalFrom) out.push(s.slice(literalFrom, to));
  };

  while (i < n) {
    const c = s.charCodeAt(i);
    if (c >= 128 || stops[c] === 0) {
      i++;
      continue;
    }
    switch (c) {
      case BACKSLASH: {
        if (asciiIs(s.charCodeAt(i + 1), Ascii.Punct)) {
          flush(i);
          literalFrom = i + 1; // drop the backslash, keep the escaped character
          i += 2;
        } else i++;
        break;
      }
      case BACKTICK: {
        const len = runLength(s, i, BACKTICK);
        const close = noCloser?.has(len) ? -1 : findBacktickRun(s, i + len, len);
        if (close < 0) {
          (noCloser ??= new Set()).add(len);
          i += len;
          break;
        }
        if (out) {
          flush(i);
          out.push(codeSpanText(s.slice(i + len, close)));
          literalFrom = close + len;
        }
        i = close + len;
        break;
      }
      case LT: {
        const end = matchAngle(s, i, memo);
        if (end > 0) {
          flush(i);
          if (out && angleText !== '') out.push(angleText);
          literalFrom = end;
          i = end;
        } else i++;
        break;
      }
      case BANG: {
        if (s.charCodeAt(i + 1) !== LBRACKET) {
          i++;
          break;
        }
        const wiki = s.charCodeAt(i + 2) === LBRACKET ? wikilinkEnd(s, i + 1) : -1;
        if (wiki > 0) {
          // An embed shows as nothing in plain text.
          flush(i);
          literalFrom = wiki;
          i = wiki;
          if (out) dropSpaceBeforePunctuation(out, s, i);
          break;
        }
        if (out) {
          flush(i);
          out.push('![');
          literalFrom = i + 2;
        }
        openers.push({ pos: i, image: true, active: true, slot: out ? out.length - 1 : 0, tagCount: tags ? tags.length : 0 });
        i += 2;
        break;
      }
      case LBRACKET: {
        const next = s.charCodeAt(i + 1);
        if (next === LBRACKET) {
          const wiki = wikilinkEnd(s, i);
          if (wiki > 0) {
            if (out) {
              flush(i);
              const inner = s.slice(i + 2, wiki - 2);
              const bar = inner.indexOf('|');
              // `[[target#heading|alias]]` reads as its alias, else its target.
              const shown = (bar >= 0 ? inner.slice(bar + 1) : inner).trim();
              out.push(shown);
              if (targets && bar >= 0) {
                const words = wikilinkTargetWords(inner.slice(0, bar));
                if (words !== '' && words.toLowerCase() !== shown.toLowerCase()) targets.push(words);
              }
              literalFrom = wiki;
            }
            i = wiki;
            break;
          }
        } else if (next === CARET) {
          const end = labelEnd(s, i);
          if (end > 0 && defs.has('^' + normalizeLabel(s.slice(i + 2, end - 1)))) {
            // A footnote reference is a marker, not text.
            flush(i);
            literalFrom = end;
            i = end;
            if (out) dropSpaceBeforePunctuation(out, s, i);
            break;
          }
        }
        if (out) {
          flush(i);
          out.push('[');
          literalFrom = i + 1;
        }
        openers.push({ pos: i, image: false, active: true, slot: out ? out.length - 1 : 0, tagCount: tags ? tags.length : 0 });
        i++;
        break;
      }
      case RBRACKET: {
        const opener = openers.pop();
        if (!opener || !opener.active) {
          i++;
          break;
        }
        const end = linkTailEnd(s, i, opener, defs);
        if (end < 0) {
          i++;
          break;
        }
        if (opener.image) {
          if (tags) tags.length = opener.tagCount;
        } else {
          // Links cannot contain links: an enclosing `[` can no longer open one.
          for (const outer of openers) if (!outer.image) outer.active = false;
        }
        if (out) {
          flush(i);
          out[opener.slot] = '';
          literalFrom = end;
        }
        i = end;
        break;
      }
      case HASH:
      case AT: {
        i = tags && underscores ? scanTag(s, i, tags, underscores, memo, comments !== null) : i + 1;
        break;
      }
      case UNDERSCORE:
      case STAR:
      case TILDE: {
        const len = runLength(s, i, c);
        const role = delimiterRole(s, i, len, c);
        const canOpen = (role & CAN_OPEN) !== 0;
        const canClose = (role & CAN_CLOSE) !== 0;
        if (c === UNDERSCORE) underscores?.add(len, canOpen, canClose);
        // Plain text drops the markers that pair up as emphasis (see dropEmphasisMarkers).
        if (out && (canOpen || canClose)) {
          flush(i);
          out.push(s.slice(i, i + len));
          (delimiters ??= []).push({ slot: out.length - 1, char: c, length: len, canOpen, canClose });
          literalFrom = i + len;
        }
        i += len;
        break;
      }
      case EQUALS: {
        // Obsidian's `==highlight==`: its marks pair up like `~~`, and only
        // as a run of exactly two (`a === b` stays).
        const len = runLength(s, i, EQUALS);
        if (out && len === 2) {
          const role = delimiterRole(s, i, len, EQUALS);
          if (role !== 0) {
            flush(i);
            out.push('==');
            const canOpen = (role & CAN_OPEN) !== 0;
            const canClose = (role & CAN_CLOSE) !== 0;
            (delimiters ??= []).push({ slot: out.length - 1, char: EQUALS, length: len, canOpen, canClose });
            literalFrom = i + len;
          }
        }
        i += len;
        break;
      }
      case PERCENT: {
        if (!comments || s.charCodeAt(i + 1) !== PERCENT) {
          i++;
          break;
        }
        const close = s.indexOf('%%', i + 2);
        // Nothing closing it, or inside a bare URL (`https://x.io/100%%`): literal.
        if ((close < 0 && !comments.closedLater()) || memo.inBareUrl(i)) {
          i += 2;
          break;
        }
        flush(i);
        if (close < 0) {
          // It closes in a later leaf: the rest of this one is hidden.
          comments.open = true;
          literalFrom = i = n;
          break;
        }
        literalFrom = i = close + 2;
        // A URL in the comment does not reach past it.
        memo.startChunk(i);
        if (out) dropSpaceBeforePunctuation(out, s, i);
        break;
      }
      case 104: // h
      case 72: // H
      case 119: // w
      case 87: {
        // A GFM bare URL is read left to right like any other construct, so it
        // can swallow a backtick or bracket that would otherwise open something.
        // Inside an unclosed `[` it is not recognised (micromark's rule).
        // Most of these letters sit inside words, where no URL starts: skip those cheaply.
        const end = openers.length === 0 && !isAsciiLetter(s.charCodeAt(i - 1)) ? bareUrlEnd(s, i) : -1;
        i = end > 0 ? end : i + 1;
        break;
      }
      case AMP: {
        ENTITY.lastIndex = i;
        const m = ENTITY.exec(s);
        const decoded = m ? decodeEntity(m) : undefined;
        if (m && decoded !== undefined) {
          flush(i);
          out?.push(decoded);
          literalFrom = ENTITY.lastIndex;
          i = ENTITY.lastIndex;
        } else i++;
        break;
      }
      default:
        i++;
    }
  }
  flush(n);
  if (out && delimiters) dropEmphasisMarkers(out, delimiters);
}

interface Delimiter {
  /** The output slot holding the run. */
  slot: number;
  char: number;
  length: number;
  canOpen: boolean;
  canClose: boolean;
}

/**
 * Blanks the delimiter runs that pair up as emphasis, strong or strikethrough:
 * each closer with the nearest earlier opener of the same character (for `~`,
 * the same length too), as CommonMark's delimiter stack does, less its
 * rule-of-three subtleties. Unpaired runs stay literal (`2 * 3`, `snake_case_`).
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

/** Start of the next backtick run of exactly `len` at or after `from`, or -1. */
function findBacktickRun(s: string, from: number, len: number): number {
  let k = from;
  for (;;) {
    k = s.indexOf('`', k);
    if (k < 0) return -1;
    const run = runLength(s, k, BACKTICK);
    if (run === len) return k;
    k += run;
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

/** The plain text of the last construct matchAngle found: an autolink's address, a space for `<br>`. */
let angleText = '';

/** An autolink or inline HTML at `i`: its end (its plain text in angleText), or 0 when neither. */
function matchAngle(s: string, i: number, memo: LeafMemo): number {
  angleText = '';
  if (s.charCodeAt(i + 1) === BANG || s.charCodeAt(i + 1) === QUESTION) {
    // Comments, processing instructions and CDATA need their closer somewhere after.
    if (s.startsWith('<!--', i) && !/^<!---?>/.test(s.slice(i, i + 5)) && !memo.closes('-->', i + 4)) return 0;
    if (s.startsWith('<?', i) && !memo.closes('?>', i + 2)) return 0;
    if (s.startsWith('<![CDATA[', i) && !memo.closes(']]>', i + 9)) return 0;
  }
  AUTOLINK_URI.lastIndex = i;
  let m = AUTOLINK_URI.exec(s);
  if (!m) {
    AUTOLINK_EMAIL.lastIndex = i;
    m = AUTOLINK_EMAIL.exec(s);
  }
  if (m) {
    angleText = m[1] ?? '';
    return i + m[0].length;
  }
  INLINE_HTML.lastIndex = i;
  const html = INLINE_HTML.exec(s);
  if (!html) return 0;
  if (LINE_BREAK_TAG.test(html[0])) angleText = ' ';
  return i + html[0].length;
}

/** End (after `]]`) of a wikilink whose first `[` is at `i`, or -1. */
function wikilinkEnd(s: string, i: number): number {
  for (let k = i + 2; k < s.length; k++) {
    const c = s.charCodeAt(k);
    // `[[x]](text)` is a wikilink followed by text (issue 30: as Obsidian reads it; the frozen scanner follows this one rule).
    if (c === RBRACKET) return k > i + 2 && s.charCodeAt(k + 1) === RBRACKET ? k + 2 : -1;
    if (c === LBRACKET || c === NEWLINE) return -1;
  }
  return -1;
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

/**
 * After something left out of plain text (an embed, a comment, a footnote
 * reference), the space before it goes when punctuation follows, so that
 * `and ![[x.png]].` reads `and.`, not `and .`.
 */
function dropSpaceBeforePunctuation(out: string[], s: string, next: number): void {
  if (!isClosingPunctuation(s, next)) return;
  for (let k = out.length - 1; k >= 0; k--) {
    const chunk = out[k] ?? '';
    const kept = chunk.trimEnd();
    out[k] = kept;
    if (kept !== '') return;
  }
}

/** Punctuation that clings to the word before it: `. , ; : ! ? …` and closing brackets and quotes. */
function isClosingPunctuation(s: string, k: number): boolean {
  const c = s.charCodeAt(k);
  if (c < 128) {
    return c === DOT || c === COMMA || c === SEMICOLON || c === COLON || c === BANG || c === QUESTION || c === RPAREN || c === RBRACKET || c === RBRACE;
  }
  return CLOSING_PUNCTUATION.test(s[k] ?? '');
}
const CLOSING_PUNCTUATION = /^[\p{Pe}\p{Pf}…]$/u;

/** End (after `]`) of a link label starting at `i`, or -1: at most 999 characters, no unescaped brackets. */
function labelEnd(s: string, i: number): number {
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
 * After the `]` at `i` closing `opener`: the end of an inline link tail
 * `(dest "title")` or of a reference `[ref]` / `[]` / shortcut whose label is
 * defined; -1 when the brackets are not a link.
 */
function linkTailEnd(s: string, i: number, opener: Opener, defs: Set<string>): number {
  const next = s.charCodeAt(i + 1);
  if (next === LPAREN) {
    const end = inlineLinkTailEnd(s, i + 1);
    if (end > 0) return end;
  }
  const text = s.slice(opener.pos + (opener.image ? 2 : 1), i);
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

/** End (after `)`) of `(destination "title")` starting at the `(` at `k`, or -1. */
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

function isUrlEnd(s: string, k: number): boolean {
  if (k >= s.length) return true;
  const c = s.charCodeAt(k);
  return c === LT || (c < 128 ? asciiIs(c, Ascii.Space) : isSpaceCp(s.codePointAt(k) ?? 0));
}

function isAsciiLetter(c: number): boolean {
  return (c | 0x20) >= 97 && (c | 0x20) <= 122;
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
function bareUrlEnd(s: string, i: number, lenient = false): number {
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

function decodeEntity(m: RegExpExecArray): string | undefined {
  const [, dec, hex, name] = m;
  if (name !== undefined) return NAMED_ENTITIES[name];
  const cp = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex ?? '', 16);
  return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : '\uFFFD';
}

/** Plain text of an HTML block: comments, scripts and styles dropped, tags as spaces, entities decoded. */
function htmlBlockText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
    .replace(/<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, ' ')
    // An unclosed tag runs to the end of the block (and this stays linear).
    .replace(/<\/?[A-Za-z][^>]*(?:>|$)|<[?!][^>]*(?:>|$)/g, ' ')
    .replace(ENTITY_GLOBAL, (whole: string, dec?: string, hex?: string, name?: string) => {
      if (name !== undefined) return NAMED_ENTITIES[name] ?? whole;
      const cp = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex ?? '', 16);
      return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : '\uFFFD';
    });
}
const ENTITY_GLOBAL = new RegExp(ENTITY.source, 'g');

// ---------------------------------------------------------------------------
// The tag rule

const CAN_OPEN = 1;
const CAN_CLOSE = 2;

/**
 * Whether the `*`, `_` or `~` run at `i` can open and/or close emphasis, by
 * CommonMark's flanking rules. Intraword underscores (snake_case) do neither.
 */
function delimiterRole(s: string, i: number, len: number, c: number): number {
  const before = codePointBefore(s, i);
  const after = s.codePointAt(i + len) ?? -1;
  const leftFlanking = !isSpaceCp(after) && (!isPunctCp(after) || isSpaceCp(before) || isPunctCp(before));
  const rightFlanking = !isSpaceCp(before) && (!isPunctCp(before) || isSpaceCp(after) || isPunctCp(after));
  if (c !== UNDERSCORE) return (leftFlanking ? CAN_OPEN : 0) | (rightFlanking ? CAN_CLOSE : 0);
  const canOpen = leftFlanking && (!rightFlanking || isPunctCp(before));
  const canClose = rightFlanking && (!leftFlanking || isPunctCp(after));
  return (canOpen ? CAN_OPEN : 0) | (canClose ? CAN_CLOSE : 0);
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

/** Whether position `k` lies inside a GFM bare URL (by its actual extent, not just its run of non-spaces). */
function insideBareUrl(s: string, k: number): boolean {
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

const URL_START = /https?:\/\/|www\./iy;

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
 * Per-leaf memory that keeps the inline pass linear on long unbroken lines
 * (minified code, CSS colours): inBareUrl answered incrementally, since
 * sigils come left to right, and where the last HTML comment and processing
 * instruction close, so an unclosed `<!--` is rejected at once.
 */
class LeafMemo {
  private chunkFrom = 0;
  private checkedTo = 0;
  private chunkHasUrl = false;
  private readonly closers = new Map<string, number>();

  constructor(private readonly s: string) {}

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
