/**
 * Differential test: the fast hand-written scanner behind extractTags must find
 * the same tags as an oracle that reads the Markdown tree remark builds
 * (mdast-util-from-markdown + GFM). The oracle takes the tree's `text` nodes,
 * outside code, inline code, HTML and autolinks (whose text is their URL), and
 * applies the tag rule to the source under each text node:
 * - a sigil starts a tag unless the character before it in the source is a
 *   letter, digit, `_`, `\`, `&` or another sigil; an `_` run before it is
 *   emphasis markup unless a word character precedes the run;
 * - not in a bare URL (the non-space run before it holds http://, https:// or
 *   www.) nor in an Obsidian wikilink `[[...]]` (unescaped, not followed by
 *   `(`), which remark does not know;
 * - the tag is the run of letters, digits, `_`, `-`, `/` up to the end of the
 *   text node, trailing `/` and `-` trimmed, with at least one non-digit.
 * The tree alone decides where text ends (emphasis closers, e-mail autolinks,
 * link destinations, image alt text), so that is what the scanner is checked on.
 *
 * Obsidian comments (`%%…%%`), which remark does not know, are taken out of
 * the source first (see withoutComments).
 *
 * Known, deliberately unhandled differences (none in the documents below):
 * remark's post-parse autolink transform running a bare URL through `<` or a
 * no-break space, e-mail literals that swallow emphasis underscores
 * (`__init__a@b.io`), and a wikilink that remark reads as a link label
 * (`[[a|b]][ref]` with `ref` defined, or split by table cells). The scanner
 * reads a note's blocks with its comments in place, so it differs where taking
 * a comment out would change the blocks around it (make a line a fence or a
 * reference definition), and it never sees a `%%` in a fence's info string or
 * in a reference definition. It reads a callout's title apart from its body,
 * so emphasis opened on the title line does not close on the next.
 */
import { describe, expect, it } from 'vitest';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfm } from 'micromark-extension-gfm';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { extractTags } from '../../src/format/markdown.js';
import { COMMENT_HEAVY_FRAGMENTS, generatedDocuments, HAND_WRITTEN } from './markdown-corpora.js';

interface MdNode {
  type: string;
  value?: string;
  url?: string;
  children?: MdNode[];
  position?: { start: { offset?: number }; end: { offset?: number } };
}

const NOT_PROSE = new Set(['code', 'inlineCode', 'html']);
const SIGIL_MAY_START = /(?:^|[^\p{L}\p{M}\p{N}_\\&#@])$|(?:^|[^\p{L}\p{M}\p{N}_])_+$/u;
const IN_BARE_URL = /(?:https?:\/\/|www\.)[^\s<]*$/iu;
const TAG_RUN = /^[\p{L}\p{M}\p{Nd}_/-]+/u;
const WIKILINK = /(?<!\\)!?\[\[[^[\]\n]+\]\](?!\()/g;

/** An autolink (`<url>`, a bare GFM URL or e-mail): its text is its address. */
function isAutolink(node: MdNode): boolean {
  const only = node.children?.length === 1 ? node.children[0] : undefined;
  if (only?.type !== 'text' || only.value === undefined) return false;
  const url = node.url ?? '';
  return url === only.value || url === 'mailto:' + only.value || url === 'http://' + only.value;
}

/**
 * A pattern for the source text behind a decoded text value: any character may
 * have been written as an entity, punctuation may have been escaped, and a line
 * break may be followed by container prefixes and indentation.
 */
function sourcePattern(value: string): RegExp {
  const parts = [...value].map((ch) => {
    if (ch === '\n') return '[ \\t]*\\r?\\n[ \\t>]*';
    const literal = ch.replace(/[\^$\\.*+?()[\]{}|/]/g, '\\$&');
    return `(?:${literal}|\\\\${literal}|&[#A-Za-z0-9]+;)`;
  });
  return new RegExp(parts.join(''), 'gu');
}

function parse(source: string): MdNode {
  return fromMarkdown(source, {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  }) as unknown as MdNode;
}

function wikilinkRanges(source: string): (readonly [number, number])[] {
  return [...source.matchAll(WIKILINK)].map((m) => [m.index, m.index + m[0].length] as const);
}

/** Blocks whose text is one leaf of the scanner's block pass. */
const LEAF_BLOCKS = new Set(['paragraph', 'heading', 'tableCell', 'code', 'html']);
/** Blocks holding other blocks. */
const CONTAINER_BLOCKS = new Set(['root', 'blockquote', 'list', 'listItem', 'footnoteDefinition', 'table', 'tableRow']);

interface ProseText {
  from: number;
  to: number;
  /** The paragraph, heading or table cell holding it. */
  block: MdNode | undefined;
}

/**
 * The source ranges of the tree's prose text nodes, in order: outside code,
 * inline code, HTML and autolinks (whose text is their URL).
 */
function proseTexts(source: string, tree: MdNode): ProseText[] {
  const texts: ProseText[] = [];
  // GFM's autolink-literal transform splits text nodes after parsing and leaves
  // the pieces without positions; they are found again in the source, in order,
  // from the end of whatever was seen last.
  let cursor = 0;
  const locate = (node: MdNode): [number, number] => {
    const from = node.position?.start.offset;
    const to = node.position?.end.offset;
    if (from !== undefined && to !== undefined) return [from, to];
    const value = node.type === 'text' ? (node.value ?? '') : (node.children?.[0]?.value ?? '');
    const pattern = sourcePattern(value);
    pattern.lastIndex = cursor;
    const found = pattern.exec(source);
    if (!found) throw new Error(`cannot locate ${JSON.stringify(value)} in the source`);
    return [found.index, found.index + found[0].length];
  };
  const visit = (node: MdNode, block: MdNode | undefined): void => {
    if (node.type !== 'root' && (NOT_PROSE.has(node.type) || node.type === 'text' || (node.type === 'link' && isAutolink(node)))) {
      const [from, to] = locate(node);
      if (node.type === 'text') texts.push({ from, to, block });
      cursor = to;
      return;
    }
    if (node.position?.start.offset !== undefined) cursor = node.position.start.offset;
    const inner = LEAF_BLOCKS.has(node.type) ? node : block;
    for (const child of node.children ?? []) visit(child, inner);
    if (node.position?.end.offset !== undefined) cursor = node.position.end.offset;
  };
  visit(tree, undefined);
  return texts;
}

/** The leaf block whose source holds `offset`, if any. */
function leafBlockAt(tree: MdNode, offset: number): MdNode | undefined {
  let node: MdNode | undefined = tree;
  while (node && CONTAINER_BLOCKS.has(node.type)) {
    node = node.children?.find((child) => (child.position?.start.offset ?? Infinity) <= offset && offset < (child.position?.end.offset ?? -1));
    if (node && LEAF_BLOCKS.has(node.type)) return node;
  }
  return undefined;
}

/**
 * Where the scanner never looks for a `%%`: the first line of a fenced code
 * block (its info string) and link reference definitions, which its block
 * pass reads and drops.
 */
function unseenRanges(source: string, tree: MdNode): [number, number][] {
  const ranges: [number, number][] = [];
  const visit = (node: MdNode): void => {
    const from = node.position?.start.offset;
    const to = node.position?.end.offset;
    if (from !== undefined && to !== undefined) {
      if (node.type === 'definition') ranges.push([from, to]);
      else if (node.type === 'code' && FENCE.test(source.slice(from))) {
        const newline = source.indexOf('\n', from);
        ranges.push([from, newline < 0 || newline > to ? to : newline]);
      }
    }
    for (const child of node.children ?? []) visit(child);
  };
  visit(tree);
  return ranges;
}
const FENCE = /^(`{3,}|~{3,})/;

/**
 * The rest of a code or HTML block after `close`, as the scanner's leaf holds
 * it: a fenced block without its closing fence, an indented one without its
 * indentation.
 */
function restOfLiteralBlock(source: string, block: MdNode, close: number): string {
  const from = block.position?.start.offset ?? 0;
  const to = block.position?.end.offset ?? source.length;
  const rest = source.slice(close, to);
  if (block.type !== 'code') return rest;
  const opening = FENCE.exec(source.slice(from))?.[1];
  if (opening === undefined) return rest.replace(/\n {1,4}/g, '\n');
  const lastLine = rest.lastIndexOf('\n');
  if (lastLine < 0) return rest;
  const closing = /^[ \t>]*(`{3,}|~{3,})[ \t]*$/.exec(rest.slice(lastLine + 1))?.[1];
  const closes = closing !== undefined && closing[0] === opening[0] && closing.length >= opening.length;
  return closes ? rest.slice(0, lastLine) : rest;
}

/**
 * The source with its Obsidian comments taken out: the first `%%` in prose
 * (not escaped, not in a wikilink) opens a comment that the next `%%`
 * anywhere closes, whatever lies between; a `%%` that nothing closes stays.
 * The tree is read again after each comment, since what a comment hid (a
 * backtick, a fence) no longer counts.
 *
 * The scanner reads blocks first and follows comments across their leaves,
 * so the blocks on either side of a comment stay apart. A comment within one
 * leaf block gives way to `¤`, inert punctuation, as the scanner sees the
 * comment's `%` around it. One across blocks gives way to `¤`, a blank line
 * and `¤` again, so that the rest of the block it ends in starts a block of
 * its own: a paragraph, or a heading when it ends in one. When it ends in code
 * or HTML, the rest of that block (as the scanner's leaf holds it) is read as
 * the scanner reads it again: the rest of the `%%`'s line a paragraph of its
 * own, the lines after it blocks of their own, apart from what follows.
 */
function withoutComments(original: string): string {
  let source = original;
  for (;;) {
    if (source.indexOf('%%') < 0) return source;
    const tree = parse(source);
    const wikilinks = wikilinkRanges(source);
    let open = -1;
    let block: MdNode | undefined;
    search: for (const text of proseTexts(source, tree)) {
      for (let p = text.from; p + 1 < text.to; p++) {
        if (source[p] === '\\') p++;
        else if (
          source[p] === '%' &&
          source[p + 1] === '%' &&
          !wikilinks.some(([start, end]) => p >= start && p < end) &&
          // In a bare URL by the tag rule's test (`https://x.io/100%%`).
          !IN_BARE_URL.test(source.slice(Math.max(0, p - 400), p))
        ) {
          open = p;
          block = text.block;
          break search;
        }
      }
    }
    if (open < 0) return source;
    const unseen = unseenRanges(source, tree);
    let close = source.indexOf('%%', open + 2);
    while (close >= 0 && unseen.some(([start, end]) => close >= start && close < end)) close = source.indexOf('%%', close + 1);
    if (close < 0) return source;
    const closing = leafBlockAt(tree, close);
    if (block !== undefined && closing === block) {
      source = source.slice(0, open) + '¤' + source.slice(close + 2);
    } else if (closing?.type === 'code' || closing?.type === 'html') {
      const end = closing.position?.end.offset ?? source.length;
      const rest = restOfLiteralBlock(source, closing, close + 2);
      const newline = rest.indexOf('\n');
      const [line, lines] = newline < 0 ? [rest, ''] : [rest.slice(0, newline), rest.slice(newline + 1)];
      source = source.slice(0, open) + '¤\n\n¤' + line + '\n\n' + lines + '\n\n' + source.slice(end);
    } else if (closing?.type === 'heading') {
      source = source.slice(0, open) + '¤\n\n# ¤' + source.slice(close + 2);
    } else {
      source = source.slice(0, open) + '¤\n\n¤' + source.slice(close + 2);
    }
  }
}

function oracleTags(original: string): string[] {
  const source = withoutComments(original);
  const tree = parse(source);
  const wikilinks = wikilinkRanges(source);
  const tags: string[] = [];
  for (const { from, to } of proseTexts(source, tree)) {
    for (let p = from; p < to; p++) {
      const sigil = source[p];
      if (sigil !== '#' && sigil !== '@') continue;
      if (wikilinks.some(([start, end]) => p >= start && p < end)) continue;
      const before = source.slice(0, p);
      if (!SIGIL_MAY_START.test(before) || IN_BARE_URL.test(before.slice(-400))) continue;
      const run = TAG_RUN.exec(source.slice(p + 1, to))?.[0];
      if (run === undefined) continue;
      const name = run.replace(/[/-]+$/u, '');
      if (/[^\p{Nd}]/u.test(name)) tags.push(sigil + name.toLowerCase());
    }
  }
  return [...new Set(tags)];
}

// ---------------------------------------------------------------------------

describe('oracle sanity', () => {
  it('reads tags from prose and none from code, URLs, e-mail or HTML', () => {
    expect(oracleTags('#a `#b` https://x.io/#c bob@x.io <i>#d</i> <!-- #e --> C#f [#g](h#i)')).toEqual(['#a', '#d', '#g']);
  });

  it('reads none from comments, which code does not open and which may span blocks', () => {
    expect(oracleTags('#a %%#b%% #c `%%` %%\n\n#d\n%% #e %% #f')).toEqual(['#a', '#c', '#e', '#f']);
  });
});

describe('extractTags agrees with the remark tree', () => {
  it.each(HAND_WRITTEN.map((doc, k) => [k + 1, doc] as const))('hand-written document %i', (_k, doc) => {
    expect(extractTags(doc)).toEqual(oracleTags(doc));
  });

  it.each(generatedDocuments(300, 20240611).map((doc, k) => [k + 1, doc] as const))(
    'generated document %i',
    (_k, doc) => {
      expect(extractTags(doc)).toEqual(oracleTags(doc));
    },
  );

  it.each(generatedDocuments(300, 20250817, COMMENT_HEAVY_FRAGMENTS).map((doc, k) => [k + 1, doc] as const))(
    'generated document with comments %i',
    (_k, doc) => {
      expect(extractTags(doc)).toEqual(oracleTags(doc));
    },
  );

  it('the hand-written documents do exercise tags', () => {
    const total = HAND_WRITTEN.reduce((sum, doc) => sum + oracleTags(doc).length, 0);
    expect(total).toBeGreaterThan(150);
  });
});
