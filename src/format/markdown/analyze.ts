/**
 * The jobs over a whole body, each one block pass and one walk over its
 * prose leaves: all of a note's Markdown facts at once (analyzeMarkdown), or
 * one of them alone (extractTags, toPlainText, toSearchText, makeSnippet).
 * The writer of the text also collects the note's links (the link paths of
 * links.ts), which it sees as it writes them.
 */
import { LEAF_HTML, LEAF_INLINE } from './blocks.js';
import { collectLeafTags, writeLeaf, writeLeafAndCollectTags } from './inline.js';
import { LeafWriter, literalLeafText } from './leaf-text.js';
import { VisibleLeaves } from './leaves.js';
import { cutSnippet, PlainTextBuilder, snippetSource, withTargets } from './plain-text.js';

/** What a note's Markdown body says, read once. */
export interface MarkdownAnalysis {
  /** The `#hashtags` and `@mentions`: lower-cased, with their sigil, de-duplicated, in order of first appearance. */
  tags: string[];
  /** The body as plain readable text, on one line. */
  plain: string;
  /** The start of `plain`, cut at the snippet limit with `…`. */
  snippet: string;
  /** `plain`, then the targets of the wikilinks shown under another name: what the full-text index takes. */
  searchText: string;
  /** The link paths of the note links (links.ts), de-duplicated, in order of first appearance. */
  links: string[];
}

/** How many code points a note's snippet keeps. */
export const SNIPPET_LIMIT = 300;

/**
 * Tags, plain text, snippet and search text of a body from one block pass
 * and one inline walk per prose leaf, which writes the text and finds the
 * tags together. In the rare leaf where the two part ways (see
 * TagScan.losesTrack) the tags are read again on their own.
 */
export function analyzeMarkdown(body: string, snippetLimit = SNIPPET_LIMIT): MarkdownAnalysis {
  const leaves = new VisibleLeaves(body, true);
  const defs = leaves.blocks.defs;
  const writer = new LeafWriter();
  const builder = new PlainTextBuilder(snippetSource(snippetLimit));
  // Most notes carry no sigil at all: then no leaf needs the tag rules.
  const tags: string[] | null = hasSigil(body) ? [] : null;
  let tagsKeptTrack = true;
  while (leaves.next()) {
    const text = leaves.text;
    if (leaves.kind !== LEAF_INLINE) {
      builder.add(literalLeafText(leaves.kind === LEAF_HTML, text), leaves.glued);
      continue;
    }
    writer.start(text);
    // A leaf with no sigil holds no tag: the walk only writes its text.
    if (tags !== null && tagsKeptTrack && hasSigil(text)) tagsKeptTrack = writeLeafAndCollectTags(text, defs, leaves.comments, writer, tags);
    else writeLeaf(text, defs, leaves.comments, writer);
    builder.add(writer.finish(), leaves.glued);
  }
  const plain = builder.text();
  return {
    tags: tags === null ? [] : tagsKeptTrack ? unique(tags) : extractTags(body),
    plain,
    // Cut from the text as it stood when it first held enough for a snippet,
    // as makeSnippet reads it: a leaf glued on later is not part of it.
    snippet: cutSnippet(builder.prefix(plain), snippetLimit),
    searchText: withTargets(plain, writer.targets),
    links: unique(writer.links),
  };
}

/**
 * The `#hashtags` and `@mentions` of a Markdown body: lower-cased, with their
 * sigil, de-duplicated, in order of first appearance.
 */
export function extractTags(body: string): string[] {
  if (!hasSigil(body)) return [];
  // A comment may close inside what the block pass read as code or HTML, so
  // with comments the block pass keeps those leaves too.
  const leaves = new VisibleLeaves(body, body.indexOf('%%') >= 0);
  const found: string[] = [];
  while (leaves.next()) {
    if (leaves.kind !== LEAF_INLINE) continue;
    const text = leaves.text;
    // A leaf with no sigil holds no tag, and without a `%%` it opens or closes no comment either.
    if (hasSigil(text) || (leaves.comments !== null && text.indexOf('%%') >= 0)) collectLeafTags(text, leaves.blocks.defs, leaves.comments, found);
  }
  return unique(found);
}

/**
 * The body as plain readable text, as Obsidian's reading view shows it:
 * Markdown syntax, callout markers, highlight marks, embeds and `%%comments%%`
 * removed, code and link labels kept, task checkboxes as `☐` / `☑`, all
 * whitespace (paragraph breaks too) collapsed to single spaces, trimmed.
 */
export function toPlainText(body: string): string {
  return writePlainText(body).plain;
}

/**
 * What the search index holds of a body: toPlainText, then the targets of the
 * wikilinks shown under another name (`[[Folder/Target Note#Heading|shown]]`
 * adds `Target Note Heading`), so that a search for a note's name also finds
 * the notes linking to it under an alias. One pass, like toPlainText.
 */
export function toSearchText(body: string): string {
  const { plain, targets } = writePlainText(body);
  return withTargets(plain, targets);
}

/**
 * The plain text of a body, or (with `enough`) a prefix of it at least that
 * many UTF-16 units long: the leaves are independent once the reference
 * labels are known, so a snippet need not convert the rest of a long note.
 * With it, the words of the wikilink targets shown under another name.
 */
function writePlainText(body: string, enough = Infinity): { plain: string; targets: string[]; links: string[] } {
  const leaves = new VisibleLeaves(body, true);
  const defs = leaves.blocks.defs;
  const writer = new LeafWriter();
  const builder = new PlainTextBuilder(enough);
  while (!builder.full && leaves.next()) {
    const text = leaves.text;
    if (leaves.kind !== LEAF_INLINE) {
      builder.add(literalLeafText(leaves.kind === LEAF_HTML, text), leaves.glued);
      continue;
    }
    writer.start(text);
    writeLeaf(text, defs, leaves.comments, writer);
    builder.add(writer.finish(), leaves.glued);
  }
  return { plain: builder.text(), targets: writer.targets, links: writer.links };
}

/** The link paths of a body's note links (links.ts), de-duplicated, in order of first appearance. */
export function extractLinks(body: string): string[] {
  return unique(writePlainText(body).links);
}

/**
 * The first `limit` code points of the body's plain text, `…` appended when it
 * was cut. A cut never splits a surrogate pair; a cut inside a word moves back
 * to a space when one lies within the last 20 code points kept.
 */
export function makeSnippet(body: string, limit = SNIPPET_LIMIT): string {
  return cutSnippet(writePlainText(body, snippetSource(limit)).plain, limit);
}

function hasSigil(text: string): boolean {
  return text.indexOf('#') >= 0 || text.indexOf('@') >= 0;
}

/** Tags or links, each once, in order of first appearance. */
function unique(items: string[]): string[] {
  return items.length < 2 ? items : [...new Set(items)];
}
