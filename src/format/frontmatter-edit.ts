import { isDeepStrictEqual } from 'node:util';
import { Document, isMap, isScalar, isSeq, Lexer, parseDocument } from 'yaml';
import { withLineEnding, type LineEnding } from './body-edit.js';
import { parseFrontmatter, splitFrontmatter, type FrontmatterData, type SplitNote } from './frontmatter.js';
import { DexiError } from '../storage/errors.js';

/**
 * Writing frontmatter: top-level keys set in a note's block with every other
 * byte kept (comments, key order, quoting, line endings), and the one place a
 * block and a body are put together (`joinNote`), each checked by reading the
 * result back (frontmatter.ts reads).
 */

/** How the person wrote a value: a quoted string, or a list on one line (`[a, b]`, FLOW), kept when it is rewritten. */
type Quoting = 'QUOTE_DOUBLE' | 'QUOTE_SINGLE' | 'FLOW' | undefined;

function renderEntry(key: string, value: unknown, eol: LineEnding, quoting: Quoting): string {
  const options = { lineWidth: 0, flowCollectionPadding: false, ...(quoting && quoting !== 'FLOW' ? { defaultStringType: quoting, defaultKeyType: 'PLAIN' as const } : {}) };
  const doc = new Document({ [key]: value });
  const node = doc.get(key, true);
  if (quoting === 'FLOW' && isSeq(node)) node.flow = true;
  return withLineEnding(doc.toString(options), eol);
}

/** Whether `text`, parsed on its own, is exactly the one entry `key: value`. */
function entryReadsAs(text: string, key: string, value: unknown): boolean {
  const parsed = parseFrontmatter(text);
  return parsed.ok && Object.keys(parsed.data).length === 1 && isDeepStrictEqual(normalise(parsed.data[key]), normalise(value));
}

/** A key that YAML reads as itself when written bare. */
const BARE_KEY = /^[A-Za-z_][A-Za-z0-9_-]*(?: [A-Za-z0-9_-]+)*$/;

/**
 * `text` as a one-line double-quoted YAML scalar: JSON's escaping (which YAML
 * reads the same way), plus `\u` escapes for the characters YAML does not
 * allow as they are (C1 controls, line and paragraph separators, BOM,
 * non-characters). It never spans lines and every character comes back.
 */
function doubleQuoted(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\u009f\u2028\u2029\ufeff\ufff0-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * One `key: value` entry as YAML text ending in a newline, at the top level; a
 * string in `quoting` if given. The text is read back: where the serializer's
 * choice would not give the value again (a block scalar of spaces only, a
 * folded double-quoted string, a carriage return that the file's line ending
 * would rewrite), a string is written as a one-line double-quoted scalar
 * instead, which holds any characters exactly.
 */
function serializeEntry(key: string, value: unknown, eol: LineEnding, quoting?: Quoting): string {
  const text = renderEntry(key, value, eol, quoting);
  if (typeof value !== 'string' || entryReadsAs(text, key, value)) return text;
  const quoted = `${BARE_KEY.test(key) ? key : doubleQuoted(key)}: ${doubleQuoted(value)}${eol}`;
  return entryReadsAs(quoted, key, value) ? quoted : text;
}

/** How the person quoted a scalar on this line (`key: "…"`), or wrote a list on it (`key: [a, b]`), so that a new value is written the same way. */
function quotingOf(code: string, key: string): Quoting {
  const match = new RegExp(`^[ \\t]*${escapeRegExp(key)}[ \\t]*:[ \\t]*(["'[])(?:.*(\\])[ \\t]*$)?`).exec(code);
  return match?.[1] === '"' ? 'QUOTE_DOUBLE' : match?.[1] === "'" ? 'QUOTE_SINGLE' : match?.[2] === ']' ? 'FLOW' : undefined;
}

/**
 * The YAML block as lines split at `\n`: a CRLF file's lines keep their `\r`,
 * so that every line not rewritten goes back byte for byte.
 */
interface BlockLines {
  lines: string[];
  eol: LineEnding;
}

/** A span of lines, `start` inclusive, `end` exclusive. */
interface LineRange {
  start: number;
  end: number;
}

/** A line without the `\r` that splitting a CRLF file at `\n` leaves on it. */
function bare(line: string | undefined): string {
  return line === undefined ? '' : line.endsWith('\r') ? line.slice(0, -1) : line;
}

function indentOf(line: string): number {
  return /^ */.exec(line)?.[0].length ?? 0;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const BLANK_OR_COMMENT = /^[ \t]*(?:#.*)?$/;
/** A block sequence item, which YAML allows at its key's own indentation (`tags:` then `- a`). */
const SEQUENCE_ITEM = /^-(?:[ \t]|$)/;
/**
 * A `key:` line whose key is a plain scalar: not quoted, not a complex `? `
 * key, no anchor, tag or alias, no flow collection. Only a block of such lines
 * can be edited key by key with a line's worth of context. (Spaces before the
 * colon are left to `[^#]*?`: a `[ \t]*` of its own there would backtrack
 * quadratically over a long run of spaces.)
 */
const PLAIN_KEY_LINE = /^[^\s\-?:,[\]{}#&*!|>'"%@`][^#]*?:(?:[ \t]|$)/;
/** A block scalar header (`|`, `>-`, `|2+`) as the YAML lexer yields it. */
const BLOCK_SCALAR_HEADER = /^[|>]/;

/**
 * The trailing comment of one YAML line, with the spaces or tabs before its
 * `#`, and the text before it. The line is run through the YAML lexer, so a
 * `#` inside a quoted scalar or glued to a plain one (`a#b`) is no comment.
 * The lexer also says whether the value is a block scalar, whose following
 * lines are text even where they begin with `#`.
 */
function splitTrailingComment(line: string): { code: string; comment: string; blockScalar: boolean } {
  let comment: string | undefined;
  let blockScalar = false;
  for (const token of new Lexer().lex(line)) {
    if (token.startsWith('#')) comment = token;
    else if (BLOCK_SCALAR_HEADER.test(token)) blockScalar = true;
  }
  // A comment runs to the end of its line; anything else is no trailing comment.
  if (comment === undefined || !line.endsWith(comment)) return { code: line, comment: '', blockScalar };
  let start = line.length - comment.length;
  while (start > 0 && (line[start - 1] === ' ' || line[start - 1] === '\t')) start--;
  return { code: line.slice(0, start), comment: line.slice(start), blockScalar };
}

/**
 * The extent of the entry `key:` written at exactly `indent` spaces within
 * `range`: its first line, then the lines of its value, indented deeper (or
 * sequence items at the key's own indentation). Blank and comment lines
 * belong to it only when more of its value follows, so that a comment after
 * the value (about what comes next) survives a rewrite of the entry; in a
 * block scalar, deeper lines are text even when they begin with `#`.
 */
function findEntry(block: BlockLines, key: string, indent: number, range: LineRange): LineRange | undefined {
  const head = new RegExp(`^ {${indent}}${escapeRegExp(key)}[ \\t]*:(?:[ \\t]|$)`);
  for (let start = range.start; start < range.end; start++) {
    const first = bare(block.lines[start]);
    if (!head.test(first)) continue;
    const literal = splitTrailingComment(first).blockScalar;
    let end = start + 1;
    for (let i = start + 1; i < range.end; i++) {
      const line = bare(block.lines[i]);
      const spaces = indentOf(line);
      if (literal && spaces > indent) end = i + 1;
      else if (BLANK_OR_COMMENT.test(line)) continue;
      else if (spaces > indent || (spaces === indent && SEQUENCE_ITEM.test(line.slice(indent)))) end = i + 1;
      else break;
    }
    return { start, end };
  }
  return undefined;
}

/**
 * The indentation of the keys of the block mapping in `range` (an entry's
 * value lines), when it is one that can be edited key by key: every line is
 * blank, a comment, a plain `key:` at one indentation deeper than `parent`,
 * or part of such a key's value. Undefined for anything else (a sequence, a
 * block scalar, quoted or complex keys, uneven indentation).
 */
function editableMappingIndent(block: BlockLines, range: LineRange, parent: number): number | undefined {
  let indent: number | undefined;
  for (let i = range.start; i < range.end; i++) {
    const line = bare(block.lines[i]);
    if (BLANK_OR_COMMENT.test(line)) continue;
    const spaces = indentOf(line);
    if (indent === undefined) {
      if (spaces <= parent || !PLAIN_KEY_LINE.test(line.slice(spaces))) return undefined;
      indent = spaces;
    }
    if (spaces > indent) continue;
    if (spaces < indent) return undefined;
    const rest = line.slice(spaces);
    if (!PLAIN_KEY_LINE.test(rest) && !SEQUENCE_ITEM.test(rest)) return undefined;
  }
  return indent;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The updates that turn mapping `old` into `value`, key by key: the keys no
 * longer there are removed first, so that a key the value adds lands after
 * the ones kept, in the value's order.
 */
function mappingUpdates(old: Record<string, unknown>, value: Record<string, unknown>): [string, unknown][] {
  const removed = Object.keys(old)
    .filter((key) => !Object.hasOwn(value, key))
    .map((key): [string, unknown] => [key, undefined]);
  return [...removed, ...Object.entries(value)];
}

/** Lines as a CRLF or LF file holds them after splitting at `\n`. */
function withEol(lines: string[], eol: LineEnding): string[] {
  return eol === '\r\n' ? lines.map((line) => `${line}\r`) : lines;
}

/**
 * The lines of `key: value` at `indent` spaces, carrying `comment` (a trailing
 * comment with the spacing before its `#`) on the first line. When the value
 * takes several lines, the first is the key (`tags:`) or a block scalar header
 * (`note: |-`), both of which may carry a comment; should the comment still
 * change what the entry parses to, it goes on a line of its own above it.
 */
function entryLines(key: string, value: unknown, indent: number, comment: string, eol: LineEnding, quoting?: Quoting): string[] {
  // Serialized in the file's own line ending, so that the read-back check sees what will be written; then cut into lines at `\n`.
  const lines = serializeEntry(key, value, eol, typeof value === 'string' || (Array.isArray(value) && quoting === 'FLOW') ? quoting : undefined)
    .split(eol)
    .slice(0, -1);
  if (comment !== '') {
    const withComment = [`${lines[0] ?? ''}${comment}`, ...lines.slice(1)];
    const parsed = parseFrontmatter(`${withComment.join('\n')}\n`);
    const intended = parseFrontmatter(`${lines.join('\n')}\n`);
    if (parsed.ok && intended.ok && isDeepStrictEqual(parsed.data, intended.data)) lines.splice(0, lines.length, ...withComment);
    else lines.unshift(comment.trimStart());
  }
  const prefix = ' '.repeat(indent);
  return withEol(
    lines.map((line) => prefix + line),
    eol,
  );
}

/**
 * Apply `updates` to the entries at `indent` spaces within `range` of the
 * block, editing lines in place: a removed key loses its lines, an unchanged
 * key keeps them untouched, a changed scalar gets its line rewritten with its
 * trailing comment kept, an object replacing an editable block mapping is
 * applied key by key inside it, and a new key goes at the end of the range
 * (`id`, at the top level, first). Returns the range's new end.
 */
function editEntries(
  block: BlockLines,
  range: LineRange,
  indent: number,
  updates: [string, unknown][],
  old: Record<string, unknown>,
): number {
  let end = range.end;
  const splice = (at: LineRange, lines: string[]): void => {
    block.lines.splice(at.start, at.end - at.start, ...lines);
    end += lines.length - (at.end - at.start);
  };
  for (const [key, value] of updates) {
    if (value !== undefined && Object.hasOwn(old, key) && isDeepStrictEqual(old[key], value)) continue;
    const found = findEntry(block, key, indent, { start: range.start, end });
    if (value === undefined) {
      if (found) splice(found, []);
      continue;
    }
    if (!found) {
      const at = indent === 0 && key === 'id' ? range.start : end;
      splice({ start: at, end: at }, entryLines(key, value, indent, '', block.eol));
      continue;
    }
    const head = splitTrailingComment(bare(block.lines[found.start]));
    const oldValue = old[key];
    // Key by key only under a bare `key:` line (a comment allowed: an anchor or
    // tag there would describe the old node), and only for a value with keys:
    // removing every key would leave `key:` meaning null, not `{}`.
    const bareHead = new RegExp(`^ {${indent}}${escapeRegExp(key)}[ \\t]*:[ \\t]*$`).test(head.code);
    if (bareHead && isPlainObject(value) && Object.keys(value).length > 0 && isPlainObject(oldValue)) {
      const inner = { start: found.start + 1, end: found.end };
      const innerIndent = editableMappingIndent(block, inner, indent);
      if (innerIndent !== undefined) {
        const innerEnd = editEntries(block, inner, innerIndent, mappingUpdates(oldValue, value), oldValue);
        end += innerEnd - inner.end;
        continue;
      }
    }
    splice(found, entryLines(key, value, indent, head.comment, block.eol, quotingOf(head.code, key)));
  }
  return end;
}

/**
 * The Document API's version of the same edit, for layouts the line edit
 * cannot express. It keeps the comments attached to the nodes it keeps: an
 * object replacing a mapping is applied key by key, and a scalar replacing a
 * scalar keeps that node (and its trailing comment).
 */
function editDocument(doc: Document, path: string[], updates: [string, unknown][], old: Record<string, unknown>): void {
  for (const [key, value] of updates) {
    const at = [...path, key];
    if (value === undefined) {
      doc.deleteIn(at);
      continue;
    }
    const oldValue = old[key];
    if (Object.hasOwn(old, key) && isDeepStrictEqual(oldValue, value)) continue;
    const node = doc.getIn(at, true);
    const stringKeys = isMap(node) && node.items.every((pair) => isScalar(pair.key) && typeof pair.key.value === 'string');
    if (stringKeys && isPlainObject(value) && Object.keys(value).length > 0 && isPlainObject(oldValue)) {
      editDocument(doc, at, mappingUpdates(oldValue, value), oldValue);
    } else doc.setIn(at, value);
  }
}

/**
 * An edit that would write a file which does not read back as the
 * frontmatter and body it was built from. Nothing is written; the message is
 * a plain sentence, which the vault model hands on to the assistant.
 */
export class FrontmatterLayoutError extends DexiError {
  constructor(reason: string) {
    super(`The note was left as it was: ${reason}.`);
  }
}

const LAYOUT_REASON = 'written this way, its frontmatter and its body would not read back apart as they were meant';

/** Whether splitting `content` gives exactly this block text (null: none) and this body. */
function splitsAs(content: string, yaml: string | null, body: string): boolean {
  const split = splitFrontmatter(content);
  return split.yaml === yaml && split.body === body;
}

/**
 * A note's head: everything before its body. That is its frontmatter block,
 * from the opening fence to the end of the closing fence's line (with no line
 * break when the fence is the file's last byte), or else a byte-order mark or
 * nothing.
 */
export function headOf(source: string, split: SplitNote = splitFrontmatter(source)): string {
  return source.slice(0, split.bodyStart);
}

/**
 * The file made of a head (see headOf) and a body, built so that splitting it
 * again gives exactly the head's block and exactly `body`: this is the one
 * place where a note's frontmatter and body are put together, so that no body
 * can ever become frontmatter, whatever bytes the head ends with.
 *
 * - A closing fence that is the head's last byte gets a line break before a
 *   body follows: `\n` after a carriage return (making the CRLF it lacked),
 *   else the file's own line ending. An empty body adds nothing.
 * - A head without a block whose body would read as one (a `---` line, a
 *   `---` or `...` line later), or would lose a leading byte-order mark on
 *   reading, gets an empty block first (`---`, `---`), which keeps all of it
 *   body; no key is added.
 * - Anything else that would not read back as meant (a head that is not a
 *   whole head, a block whose YAML holds a fence line) throws
 *   FrontmatterLayoutError, and nothing is to be written.
 */
export function joinNote(head: string, body: string, eol: LineEnding): string {
  const own = splitFrontmatter(head);
  if (own.body !== '') throw new FrontmatterLayoutError(LAYOUT_REASON);
  let start = head;
  if (own.yaml !== null && body !== '' && !head.endsWith('\n')) start += head.endsWith('\r') ? '\n' : eol;
  const joined = start + body;
  if (splitsAs(joined, own.yaml, body)) return joined;
  if (own.yaml === null) {
    const guarded = `${head}---${eol}---${eol}${body}`;
    if (splitsAs(guarded, '', body)) return guarded;
  }
  throw new FrontmatterLayoutError(LAYOUT_REASON);
}

/**
 * Set (or, with `undefined`, remove) top-level keys of a note's frontmatter
 * and return the whole new file. Only the lines of the keys being changed are
 * rewritten: comments (a trailing comment on a rewritten line too), quoting,
 * key order and every other byte of the file stay as they were. An object
 * replacing a block mapping of plain keys (the `review` block) is applied key
 * by key inside it, keeping the comment lines and the indentation there; its
 * new keys go at the end of the block. New top-level keys go at the end of
 * the frontmatter, except `id`, which goes first. A file without a block
 * gets one. Every line written uses the file's line ending.
 *
 * The file is split once into its head and its body; the head alone is
 * edited (editedHead) and the body put back after it by joinNote, so that the
 * new file splits into exactly the new block and exactly the old body.
 */
export function setFrontmatterKeys(source: string, updates: Record<string, unknown>): string {
  const split = splitFrontmatter(source);
  return joinNote(editedHead(source, split, updates), split.body, split.eol);
}

/**
 * The head (see headOf) of `source` with these top-level keys set or removed,
 * as setFrontmatterKeys describes. The new YAML is parsed again and compared
 * with what was intended; if the line edit could not express the change
 * faithfully (unusual layouts), the YAML Document API does it instead, which
 * keeps the comments attached to the nodes it keeps. Should that not read back
 * as intended either (or be over the length a block is read at,
 * MAX_FRONTMATTER_LENGTH, when the note would turn into all body), it throws
 * FrontmatterLayoutError rather than hand back a block that reads otherwise.
 */
export function editedHead(source: string, split: SplitNote, updates: Record<string, unknown>): string {
  const { eol } = split;
  const entries = Object.entries(updates);

  if (split.yaml === null) {
    const yaml = entries
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => serializeEntry(key, value, eol))
      .join('');
    assertReadsAs(yaml, Object.fromEntries(entries.filter(([, value]) => value !== undefined)));
    // A byte-order mark stays the file's first character, before the new block.
    const bom = source.startsWith('\uFEFF') ? '\uFEFF' : '';
    return `${bom}---${eol}${yaml}---${eol}`;
  }

  const before = parseFrontmatter(split.yaml);
  if (!before.ok) throw new Error('Refusing to rewrite a note whose frontmatter is not valid YAML.');

  // The block always ends with the line break before the closing fence, or is empty.
  const block: BlockLines = { lines: split.yaml === '' ? [] : split.yaml.slice(0, -1).split('\n'), eol };
  editEntries(block, { start: 0, end: block.lines.length }, 0, entries, before.data);
  let yaml = block.lines.length === 0 ? '' : block.lines.join('\n') + '\n';

  const expected: FrontmatterData = { ...before.data };
  for (const [key, value] of entries) {
    if (value === undefined) delete expected[key];
    else expected[key] = value;
  }
  if (!readsAs(yaml, expected)) {
    const doc = parseDocument(split.yaml);
    editDocument(doc, [], entries, before.data);
    yaml = withLineEnding(doc.toString({ lineWidth: 0, flowCollectionPadding: false }), eol);
    assertReadsAs(yaml, expected);
  }
  return source.slice(0, split.yamlStart) + yaml + source.slice(split.yamlEnd, split.bodyStart);
}

/** Whether a block's YAML parses to exactly `expected` (as JSON sees it). */
function readsAs(yaml: string, expected: FrontmatterData): boolean {
  const parsed = parseFrontmatter(yaml);
  return parsed.ok && isDeepStrictEqual(normalise(parsed.data), normalise(expected));
}

function assertReadsAs(yaml: string, expected: FrontmatterData): void {
  const parsed = parseFrontmatter(yaml);
  if (!parsed.ok) throw new FrontmatterLayoutError(`its new frontmatter would not be read back (${parsed.reason})`);
  if (!isDeepStrictEqual(normalise(parsed.data), normalise(expected))) {
    throw new FrontmatterLayoutError('its frontmatter could not be written so that it reads back as the keys that were meant');
  }
}

/** Compare parsed data as JSON would see it (key order ignored by isDeepStrictEqual). */
function normalise(data: unknown): unknown {
  return data === undefined ? undefined : (JSON.parse(JSON.stringify(data)) as unknown);
}
