import { isMap, isScalar, parseDocument, visit } from 'yaml';
import { lineEndingOf, type LineEnding } from './body-edit.js';

/**
 * A note file cut into its frontmatter block and its body. Offsets are kept so
 * that edits can splice the new block in without touching a byte of the body.
 */
export interface SplitNote {
  /** The YAML text between the fences, or null when the file has no block. */
  yaml: string | null;
  /** Offset where the YAML text starts (after the opening fence's newline). */
  yamlStart: number;
  /** Offset where the YAML text ends (where the closing fence starts). */
  yamlEnd: number;
  /** The Markdown body: everything after the closing fence's line. */
  body: string;
  bodyStart: number;
  /** The file's line ending (see lineEndingOf), so that inserted lines match the rest. */
  eol: LineEnding;
}

const OPENING = /^(\uFEFF)?---[ \t]*(\r?\n)/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/;

export function splitFrontmatter(source: string): SplitNote {
  const eol = lineEndingOf(source);
  const opening = OPENING.exec(source);
  // A byte-order mark is the file's, not the body's: it stays first whatever is written after it.
  const bom = source.startsWith('\uFEFF') ? 1 : 0;
  const none: SplitNote = { yaml: null, yamlStart: 0, yamlEnd: 0, body: bom === 0 ? source : source.slice(bom), bodyStart: bom, eol };
  if (!opening) return none;

  const yamlStart = opening[0].length;
  let lineStart = yamlStart;
  while (lineStart <= source.length) {
    const newline = source.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? source.length : newline;
    const line = source.slice(lineStart, lineEnd).replace(/\r$/, '');
    if (CLOSING.test(line)) {
      const bodyStart = newline === -1 ? source.length : newline + 1;
      return { yaml: source.slice(yamlStart, lineStart), yamlStart, yamlEnd: lineStart, body: source.slice(bodyStart), bodyStart, eol };
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  // An opening fence without a closing one is a horizontal rule, not a block.
  return none;
}

export type FrontmatterData = Record<string, unknown>;

export type ParsedFrontmatter =
  | { ok: true; data: FrontmatterData }
  | { ok: false; reason: string };

/**
 * A block longer than this (in characters) is not parsed (the note is treated like one whose
 * YAML is broken: listed, never rewritten). Real frontmatter is a few
 * kilobytes; the YAML parser needs about a second per megabyte, so a block of
 * megabytes would stall the server for every client.
 */
export const MAX_FRONTMATTER_LENGTH = 256 * 1024;
/** Deeper nesting than this is refused before parsing: the parser recurses, and thousands of levels exhaust its stack slowly. */
const MAX_NESTING = 64;

/**
 * How deeply a YAML text nests, estimated without parsing: flow brackets
 * (`[[[…`), increasing indentation and compact sequences (`- - - x`). Quotes
 * are ignored, so a string full of brackets may overestimate; that only
 * makes such a note read-only.
 */
export function nestingDepth(yaml: string): number {
  let max = 0;
  let flow = 0;
  const indents: number[] = [];
  let lineStart = true;
  let indent = 0;
  for (let i = 0; i < yaml.length; i++) {
    const char = yaml.charCodeAt(i);
    if (char === 10) {
      lineStart = true;
      indent = 0;
      continue;
    }
    if (lineStart) {
      if (char === 32) {
        indent++;
        continue;
      }
      if (char === 13) continue;
      lineStart = false;
      while (indents.length > 0 && (indents[indents.length - 1] as number) >= indent) indents.pop();
      indents.push(indent);
      let dashes = 0;
      while (yaml.charCodeAt(i + dashes * 2) === 45 && yaml.charCodeAt(i + dashes * 2 + 1) === 32) dashes++;
      max = Math.max(max, indents.length + dashes + flow);
    }
    if (char === 91 || char === 123) max = Math.max(max, indents.length + ++flow);
    else if ((char === 93 || char === 125) && flow > 0) flow--;
  }
  return max;
}

/**
 * Parse a frontmatter block. Anything but a mapping (or an empty block) is
 * broken: such a file is still a note, but the server never rewrites it.
 * Security: the input is whatever a file holds, so every cost is bounded
 * before the parser runs or by the parser itself: length (MAX_FRONTMATTER_LENGTH),
 * nesting (MAX_NESTING), and alias expansion (`maxAliasCount`, so a "billion
 * laughs" block fails here instead of exhausting memory). Duplicate keys make
 * a block broken too (a line edit could not tell which one it changes); they
 * are found with a set, because the parser's own check is quadratic.
 */
export function parseFrontmatter(yaml: string | null): ParsedFrontmatter {
  if (yaml === null || yaml.trim() === '') return { ok: true, data: {} };
  if (yaml.length > MAX_FRONTMATTER_LENGTH) {
    return { ok: false, reason: `frontmatter over ${MAX_FRONTMATTER_LENGTH / 1024} K characters is not read` };
  }
  if (nestingDepth(yaml) > MAX_NESTING) return { ok: false, reason: `frontmatter nested more than ${MAX_NESTING} levels deep is not read` };
  try {
    const doc = parseDocument(yaml, { uniqueKeys: false, prettyErrors: false });
    const first = doc.errors[0];
    if (first) return { ok: false, reason: first.message.split('\n')[0] ?? 'invalid YAML' };
    let duplicate: unknown;
    visit(doc, {
      Map(_key, map) {
        if (!isMap(map)) return undefined;
        const seen = new Set<unknown>();
        for (const pair of map.items) {
          const key = isScalar(pair.key) ? pair.key.value : pair.key;
          if (seen.has(key)) {
            duplicate = key;
            return visit.BREAK;
          }
          seen.add(key);
        }
        return undefined;
      },
    });
    if (duplicate !== undefined) return { ok: false, reason: `duplicate key ${String(duplicate)}` };
    const data: unknown = doc.toJS({ maxAliasCount: 50 });
    if (data === null || data === undefined) return { ok: true, data: {} };
    if (typeof data !== 'object' || Array.isArray(data)) return { ok: false, reason: 'frontmatter is not a mapping' };
    return { ok: true, data: data as FrontmatterData };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message.split('\n')[0] ?? 'invalid YAML' : 'invalid YAML' };
  }
}
