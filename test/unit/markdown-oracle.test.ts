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
import { extractTags } from '../../src/vault/markdown.js';

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
// Documents

const HAND_WRITTEN: string[] = [
  // 1. a typical note
  `# Weekly review #weekly

Met with @alice and @Bob about #project/alpha. Next: #todo, #2024-goals.
Numbers are not tags: #1, #2024, #99- (trimmed to #99). But #v2 and #2024-01-05 are.

- [ ] follow up with @carol #todo
- [x] send notes #done
`,
  // 2. headings of every kind
  `# Title
## Heading with #tag
### Closing hashes ###
#### Trailing #hash ####
#NotAHeading but a tag
####### seven is a paragraph #seven
#
# #
Setext with #setext
===================
Another @setext2
---
`,
  // 3. code everywhere
  `Inline \`#code\` and \`\`#double \` code\`\` then #after and \`unclosed #open

\`\`\`python
# comment #python
print("@user")
\`\`\`

~~~
#tilde
~~~~

    #indented code
    @indented

Paragraph
    #lazy-indent continues the paragraph
`,
  // 4. links, images and references
  `See [the #label](https://example.com/page#fragment "title #t") and ![alt #alt](img.png#x).
[ref link #reflabel][ref] and [collapsed #c][] and [shortcut] and ![img #imgref][ref].
[undefined #undef][nope] stays text, as does [bare #bare].
[a](<dest with spaces#frag>) [b](dest(with)parens#frag) [c]( spaced#frag 'title' )

[ref]: https://example.com/#def "Title #title"
[collapsed #c]: /c#c
[shortcut]: /s
`,
  // 5. URLs, e-mail, autolinks
  `Visit https://example.com/#anchor or http://x.org/path?q=1#frag or www.example.com/#www.
Also HTTPS://UPPER.example/#upper and <https://auto.link/#auto> and <mailto:me@x.com>.
Mail bob@example.com or first.last+tag@sub.example.org, not @mentions inside.
But @real-mention and ftp://host/#ftp is not a URL we know.
Then #after-url (https://x.com/#paren) #after-paren.
`,
  // 6. HTML
  `<div>
#in-html-block
</div>

Text <span class="x">#in-span</span> <!-- #comment --> <b>@bold-html</b>

<!--
#multi-line comment
-->

<script>
const tag = "#script";
</script>

<custom-element attr="#x">
#type7
</custom-element>
para #after-html
`,
  // 7. entities and escapes
  `Entities &#123; &#x41; &#xbeef; &amp;#amp-tag &nbsp;#nbsp-tag
Escapes \\#escaped \\@escaped \\\\#double-backslash \\*#star-escaped
Word chars C# F#m a@b x_#under 5#five
`,
  // 8. emphasis around tags
  `**#bold** *#italic* _#under_ __#strong__ ~~#strike~~ ***#both***
a**#b** *#c*d _#e_f foo_#bar_ _see #tag_ and more_
#snake_case_tag and _#open only and #trail_ here
`,
  // 9. nested lists with tabs (Obsidian style) and spaces
  `- level one #l1
\t- level two #l2
\t\t- level three #l3
\t\t\t- level four #l4
- back #back

1. ordered #o1
2. second
   - nested #nested-under-ordered

       indented code in item #code-in-item

   continuation #cont
`,
  // 10. block quotes
  `> quoted #q1
> > nested #q2
lazy continuation #lazy

> - list in quote #lq
>   more #lq2
>
>     code in quote #cq

>\ttab after marker #tq
`,
  // 11. tables
  `| Name | Tags |
|------|:----:|
| a    | #t1 @m1 |
| \`#code\` | [#link](u#x) |
| esc \\| pipe #t2 | x |

not a table #nt
|---|
`,
  // 12. tags punctuation and trimming
  `#ml/ #ml/papers/ #a- #a-b- #-dash #/slash #--- #a//b (#paren) [#bracket] "#quote" #end.
#comma, #semi; #colon: #bang! #q? #tag's @name's
`,
  // 13. unicode
  `#café #naïve #日本語 #Ωμέγα #über/Ärger @José #𝒜lpha #١٢٣ #١٢٣a #emoji😀 #hashtag🏷️x
Ünïcödé#attached а#кириллица
`,
  // 14. dedupe and case
  `#Tag #tag #TAG @Me @me #Tag/Sub #tag/sub
`,
  // 15. thematic breaks and setext
  `para #p
---
***
___
- - -
* * *
after #after
`,
  // 16. wikilinks
  `[[Note#Heading]] [[#Local heading]] [[Note|alias #notatag]] ![[image.png#x]] and #real
[[broken [[#nested]] text
`,
  // 17. footnotes
  `Text with a footnote[^1] and #body.

[^1]: The footnote #fn
    continues here #fn2

[^note]: Second #fn3
`,
  // 18. fences inside lists and quotes, unclosed fence
  `- item
  \`\`\`
  #fenced-in-item
  \`\`\`
- next #next

> \`\`\`
> #fenced-in-quote
> \`\`\`
outside #outside

\`\`\`\`
\`\`\`
#still-code
\`\`\`
\`\`\`\`
#out

\`\`\`
#unclosed to the end
`,
  // 19. hard breaks, line endings
  'first #crlf\r\nsecond line #crlf2\r\n\r\n    code #crlfcode\r\n',
  // 20. mentions
  `@alice @bob.smith @carol_d @dave-e @123 @2024team email@host.com (@paren) @@double`,
  // 21. HTML inline edge cases
  `a <br/> #br <img src="x#y" alt="#alt"> #img-after <a href="https://x#frag">#anchor-text</a>
Not html: a < b #lt and 3 > 2 #gt <notatag #in-angle
`,
  // 22. code span edge cases
  'A ``` `` ``` triple #t and `` `#inner` `` and ` `` ` then #after-all\n\n`multi\nline #span` #out-span\n',
  // 23. link edge cases
  `[outer [inner #in](u1) #outer](u2) ![img [link #l](u)](src) [](empty#frag) [x] (not-link #space)
[nested](a(b)#c) [unbalanced](a(b#c #tail
`,
  // 24. emphasis mixing with links
  `*[#em-link](u)* _[#u-link](u)_ **@strong-mention** [**#bold-in-link**](u)
`,
  // 25. lists interrupting paragraphs
  `Paragraph #p1
- list interrupts #li
2. ordered not starting at 1 #o2
1. does interrupt #o1

-
  empty start #empty-start
`,
  // 26. indented code vs paragraph continuation
  `Para
    still para #still

    now code #nope

  two-space para #two
`,
  // 27. real-world note
  `# Reading notes: Attention Is All You Need #ml/papers #transformers

> "Attention is all you need" — Vaswani et al., 2017 #quote

Key ideas:
1. **Self-attention** replaces recurrence #architecture
2. Multi-head attention, see [paper](https://arxiv.org/abs/1706.03762#section3)
3. Positional encodings \`PE(pos, 2i)\` #math

\`\`\`python
import torch  # not a #tag
\`\`\`

Discussed with @sam on 2024-01-05. Follow up: #todo/read-next, #2024-q1.
Related: [[Transformers#History]], [[BERT]] #nlp
`,
  // 28. tricky sigil neighbors
  `(#paren) {#brace} <#angle> "#dq" '#sq' -#dash +#plus =#eq ~#tilde ^#caret |#pipe .#dot ,#comma ;#semi :#colon !#bang ?#q %#pct $#dollar
`,
  // 29. an empty and a whitespace-only body are fine
  ``,
  // 30. HTML block kinds
  `<?php echo "#php"; ?>
para #p1

<!DOCTYPE html #doctype>
para #p2

<![CDATA[
#cdata
]]>
para #p3

<pre>
#pre
</pre>
para #p4
`,
  // 31. tables interrupting paragraphs, cells in lists
  `Intro #intro
a | #b
--|--
#c | d

- in list #il
  x | #y
  -|-
  #z | w
`,
  // 32. blocks interrupting paragraphs
  `para #a
# heading #h
para #b
\`\`\`
#code
\`\`\`
para #c
> quote #qq
para #d
<div>
#html
</div>
`,
  // 33. Obsidian comments, inline and block
  `Visible #before %%inline #hidden @gone%% #after.
%%
Block comment #block-hidden

spanning paragraphs @hidden2
- and a list #in-list
%%
After the block #after-block

\`%%\` in code is literal #code-literal \`%%\`

\`\`\`
%% #fenced-not-a-comment
\`\`\`
#after-fence

Escaped \\%%#escaped-sigil and a stray %% then #after-stray
`,
  // 34. comments meeting block structure
  `# Heading %%with a comment #h-hidden%% #h-shown

| a | b |
|---|---|
| %%#cell-hidden%% #cell | x |

> quoted %%#q-hidden
> still hidden%% #q-shown

Opened here %%
\`\`\`
code #not-code-inside-comment
\`\`\`
%% closed after the fence #after-comment-fence

[[Note%%#wiki]] #after-wiki %%#x%%#glued

%%
\`\`\`
%%
#after-unbalanced-fence
`,
  // 35. callouts, highlights, task states
  `> [!note] Callout title #callout-title
> Body of the callout #callout-body

> [!warning]- Foldable @fold
> > [!tip]+ Nested #nested-callout
> > inner body #inner

==highlighted #hl== and a==b #after-eq and \`==#code-hl==\`

- [ ] open task #open
- [x] done task #done
- [/] half #half
`,
];

/** Fragments mixed at random into more documents, joined by blank lines, newlines or spaces. */
const FRAGMENTS: string[] = [
  // prose and tags
  '#alpha', '@beta', '#gamma/delta', '#123', '#12a', '#ml/', '#a-b-', '#-x', '#_', '#Äpfel', '#日本', '@Ünï', '@𝒜b',
  '#Tag', '#tag', '#x#y', '@@z', '(#p)', '#x.y', '#x,y', '#xy!', 'x#y', 'C#', 'a_#b', '#trail_', '#x_y', '#a_', '_b',
  '#a/_b_', '__init__', 'text', 'more words here', 'h', 'www', 'http',
  // blocks
  '# Heading #head', '## Sub', '```', '~~~', '    ```', '    #indent', '- #item', '1. #ordered', '1) #one', '+ #plus',
  '* #star', '- [ ] #task', '\t- #tab', '  - #two', '> #quote', '>> #deep', '---', '===', '***', ':-:', '| #t | x |',
  '|---|---|', '[r]: /url#d', '[x]: <u#a> "t"', '  [x]: /u', '[a]: b\n"#t"', '[^f]', '[^f]: #foot', '[^1]:',
  '<div>', '</div>', '<pre>', '</pre>', '<?x ?>', '<!X>', '\n', '\n\n', '\t', '    ',
  // inlines
  '`#code`', '``#dbl``', '`', '``', '[#label](u#frag)', '![#alt](s#x)', '[#ref][r]', '[a](<b c#d>)', '[a](b "c #d")',
  '](', '](u)', '"t"', '[[#wiki]]', '![[#emb]]', '<b>#b</b>', '<span>', '</span>', '<!-- #c -->', '<!--', '-->',
  '&#123;', '&#x41;', '&amp;', '\\#esc', '\\', '#x\\_y', '_#em_', '**#strong**', '~~#del~~', '*#x*', '_a_', 'x_',
  '*a*#b', '#b*a*', '__', '*', '_', '~', '~~', '[', ']', '(', ')', '<', '>',
  // URLs and addresses
  'https://h.io/#u', 'www.w.io/#w', 'www.x.io/#a.', '(www.x.io/#y)', 'http://q.io/a_(b)#c', '<https://a.io/#x>',
  '#http://x.io', '#a-https://x.io/#b', '#a-www.x.io/#b', 'bob@mail.com', '#tag@mail.com', 'a@b.io#x', '#y@z.io',
  '<a@b.io>',
  // Obsidian
  '%%', '%%', '%%#hid%%', '%% @c', '`%%`', '\\%%', '==#hl==', '==', '> [!note] #callout\n\n', '- [/] #half', '- [x] #done',
];

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FRAGMENTS with Obsidian comments made common, so that they open and close across every kind of block. */
const COMMENT_HEAVY_FRAGMENTS: string[] = [...FRAGMENTS, ...Array.from({ length: 12 }, () => ['%%', '%%', '%%#hid%%', '%% @c', '`%%`']).flat()];

function generatedDocuments(count: number, seed: number, fragments: readonly string[] = FRAGMENTS): string[] {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const separators = ['\n\n', '\n', ' ', ' ', ''];
  const docs: string[] = [];
  for (let d = 0; d < count; d++) {
    let doc = '';
    const length = 6 + Math.floor(random() * 14);
    for (let f = 0; f < length; f++) doc += (f > 0 ? pick(separators) : '') + pick(fragments);
    docs.push(doc);
  }
  return docs;
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
