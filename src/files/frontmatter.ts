import { isDeepStrictEqual } from 'node:util';
import { parse, parseDocument, stringify } from 'yaml';

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
  /** The file's line ending, so that inserted lines match the rest. */
  eol: '\n' | '\r\n';
}

const OPENING = /^(\uFEFF)?---[ \t]*(\r?\n)/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/;

export function splitFrontmatter(source: string): SplitNote {
  const eol: '\n' | '\r\n' = /\r\n/.test(source.slice(0, 4096)) ? '\r\n' : '\n';
  const opening = OPENING.exec(source);
  const none: SplitNote = { yaml: null, yamlStart: 0, yamlEnd: 0, body: source, bodyStart: 0, eol };
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
 * Parse a frontmatter block. Anything but a mapping (or an empty block) is
 * broken: such a file is still a note, but the server never rewrites it.
 * Alias expansion is capped by the parser, so a "billion laughs" block fails
 * here instead of exhausting memory.
 */
export function parseFrontmatter(yaml: string | null): ParsedFrontmatter {
  if (yaml === null || yaml.trim() === '') return { ok: true, data: {} };
  try {
    const data: unknown = parse(yaml, { maxAliasCount: 50, uniqueKeys: true, prettyErrors: false });
    if (data === null || data === undefined) return { ok: true, data: {} };
    if (typeof data !== 'object' || Array.isArray(data)) return { ok: false, reason: 'frontmatter is not a mapping' };
    return { ok: true, data: data as FrontmatterData };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message.split('\n')[0] ?? 'invalid YAML' : 'invalid YAML' };
  }
}

function serializeEntry(key: string, value: unknown, eol: string): string {
  const text = stringify({ [key]: value }, { lineWidth: 0, flowCollectionPadding: false });
  return eol === '\n' ? text : text.replace(/\n/g, eol);
}

/** The extent, in lines, of a top-level `key:` entry and its indented continuation. */
function findEntry(lines: string[], key: string): { start: number; end: number } | undefined {
  const head = new RegExp(`^${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[ \\t]*:(?:[ \\t]|$)`);
  const start = lines.findIndex((line) => head.test(line.replace(/\r$/, '')));
  if (start === -1) return undefined;
  let end = start + 1;
  while (end < lines.length) {
    const line = (lines[end] ?? '').replace(/\r$/, '');
    if (/^[ \t]/.test(line) || /^-(?:[ \t]|$)/.test(line)) end++;
    else break;
  }
  return { start, end };
}

/**
 * Set (or, with `undefined`, remove) top-level keys of a note's frontmatter
 * and return the whole new file. Only the lines of the keys being changed are
 * rewritten: comments, quoting, key order and every byte of the body stay as
 * they were. New keys go at the end of the block, except `id`, which goes
 * first. A file without a block gets one.
 *
 * The result is parsed again and compared with what was intended; if the
 * line edit could not express the change faithfully (unusual layouts), the
 * YAML Document API does it instead, which still keeps comments.
 */
export function setFrontmatterKeys(source: string, updates: Record<string, unknown>): string {
  const split = splitFrontmatter(source);
  const { eol } = split;
  const entries = Object.entries(updates);

  if (split.yaml === null) {
    const block = entries
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => serializeEntry(key, value, eol))
      .join('');
    return `---${eol}${block}---${eol}${source}`;
  }

  const before = parseFrontmatter(split.yaml);
  if (!before.ok) throw new Error('Refusing to rewrite a note whose frontmatter is not valid YAML.');

  const endsWithNewline = split.yaml === '' || split.yaml.endsWith('\n');
  const lines = split.yaml === '' ? [] : (endsWithNewline ? split.yaml.slice(0, -1) : split.yaml).split('\n');
  for (const [key, value] of entries) {
    const found = findEntry(lines, key);
    const replacement =
      value === undefined
        ? []
        : serializeEntry(key, value, '\n')
            .replace(/\n$/, '')
            .split('\n')
            .map((line) => (eol === '\r\n' ? `${line}\r` : line));
    if (found) lines.splice(found.start, found.end - found.start, ...replacement);
    else if (key === 'id') lines.unshift(...replacement);
    else lines.push(...replacement);
  }
  let yaml = lines.length === 0 ? '' : lines.join('\n') + '\n';

  const expected: FrontmatterData = { ...before.data };
  for (const [key, value] of entries) {
    if (value === undefined) delete expected[key];
    else expected[key] = value;
  }
  const after = parseFrontmatter(yaml);
  if (!after.ok || !isDeepStrictEqual(normalise(after.data), normalise(expected))) {
    const doc = parseDocument(split.yaml);
    for (const [key, value] of entries) {
      if (value === undefined) doc.delete(key);
      else doc.set(key, value);
    }
    yaml = doc.toString({ lineWidth: 0, flowCollectionPadding: false });
    if (eol === '\r\n') yaml = yaml.replace(/\r?\n/g, '\r\n');
  }
  return source.slice(0, split.yamlStart) + yaml + source.slice(split.yamlEnd);
}

/** Compare parsed data as JSON would see it (key order ignored by isDeepStrictEqual). */
function normalise(data: FrontmatterData): unknown {
  return JSON.parse(JSON.stringify(data)) as unknown;
}
