/**
 * The Markdown rules of a vault note: its tags, its plain text, its snippet,
 * its search text and its links (whose rules are in links.ts), all read at once by analyzeMarkdown when a note is
 * parsed, or one at a time by the functions below.
 *
 * This is a hand-written scanner rather than remark: a cold start indexes every
 * note of the vault, and remark + micromark manage only a few hundred notes a
 * second, while this scanner handles tens of thousands. It follows CommonMark +
 * GFM closely enough to agree with the remark tree on everything that decides
 * where a tag may be (code, HTML, links, headings, tables, containers), which
 * test/format/markdown-oracle.test.ts checks against mdast-util-from-markdown.
 * markdown-it was measured too (BENCHMARKS.md): its parse and a minimal walk
 * for tags and text, without the plugins Obsidian's syntax would need, ran
 * 1.6–2.9× slower than this scanner warm on 3,000 generated notes, the help
 * vault and a 13,415-note zettelkasten, and disagreed with its tags on 1,377
 * of the help vault's 6,280 notes. On top of that it reads Obsidian's own syntax: wikilinks, embeds, callouts,
 * `==highlights==` and `%%comments%%`.
 *
 * It works in two passes over a body, in the modules of ./markdown/:
 * 1. a line-oriented block pass (blocks.ts, with the line rules in
 *    block-syntax.ts): block quotes, list items and footnote definitions as
 *    containers; paragraphs, headings, fenced and indented code, HTML blocks,
 *    tables and link reference definitions as leaves. It yields the leaves in
 *    order plus the set of defined reference labels, and leaves.ts follows
 *    the body's comments across them (comments.ts);
 * 2. an inline walk over every prose leaf (inline.ts, with the construct
 *    rules in inline-syntax.ts and urls.ts): code spans, autolinks, inline
 *    HTML, links, images, wikilinks, emphasis, highlights, comments, escapes,
 *    entities. It reports what it finds to the jobs it serves: the writer of
 *    the leaf's plain text and the aliased wikilinks' targets (leaf-text.ts),
 *    and the tag rules (tags.ts). One walk serves both.
 * Reference labels have to be known before the inline pass, because whether
 * `![alt][ref]` is an image (whose alt text holds no tags) depends on a
 * definition that may come later in the note. analyze.ts runs the passes for
 * each job, and plain-text.ts joins the leaves' texts, cuts the snippet and
 * adds the targets to make the search text.
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
 *   text; embeds `![[file]]` show as nothing. `[[x]](text)` is a wikilink
 *   followed by text, as Obsidian reads it, not a Markdown link around `[x]`.
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
export {
  analyzeMarkdown,
  extractLinks,
  extractTags,
  makeSnippet,
  toPlainText,
  toSearchText,
  type MarkdownAnalysis,
} from './markdown/analyze.js';
