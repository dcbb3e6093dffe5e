/**
 * Markdown documents for the differential tests of the scanner: documents
 * written by hand to exercise the tag rules (markdown-oracle.test.ts checks
 * each against the remark tree), and a seeded generator that mixes fragments
 * into many more. markdown-analyze.test.ts reads them too, and compares the
 * scanner's answers with those the old scanner gave for these very bodies
 * (markdown-recorded.json): a changed fragment, seed or generator leaves it
 * bodies without a recorded answer, so add new fragments in a list of their own.
 */

export const HAND_WRITTEN: string[] = [
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
export const FRAGMENTS: string[] = [
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
export const COMMENT_HEAVY_FRAGMENTS: string[] = [...FRAGMENTS, ...Array.from({ length: 12 }, () => ['%%', '%%', '%%#hid%%', '%% @c', '`%%`']).flat()];

export function generatedDocuments(count: number, seed: number, fragments: readonly string[] = FRAGMENTS): string[] {
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

/**
 * Fragments where a tag's reading runs past what the walk has visited: an
 * e-mail-like run after a sigil that holds the start of a bare URL (so the
 * walk and the tag rules part ways, and the tags are read again on their
 * own), `_` runs a tag ends inside, escapes in an address, and code, links
 * and comments for the parted readings to disagree about.
 */
export const PARTING_FRAGMENTS: string[] = [
  '#a.b_www.x.@ex.com/`',
  '#a.b_www.x.@ex.com/``',
  '&#x_www.y.io/_a',
  'a@b_www.c.io/[x](y)',
  '#k.l_www.m.@n.io/_o',
  '@p_www.q.io/#r_',
  '#s\\_www.t.@u.io/`%%`',
  '#foo\\_bar@example.com',
  '#___x__',
  '#ml/_em_',
  '_see #tag_',
  '#a_b_ c_',
  '` %% `',
  '%% #in',
  '[#l](u "#t")',
  '`` #c ``',
];

/** Long bodies whose leaves glue together after comments, so that the snippet's source ends inside a leaf. */
export function gluedBodies(): string[] {
  const bodies: string[] = [];
  for (const piece of ['.😀', '.😀😀', '.', '. word', ',😀 x']) {
    for (const count of [99, 100, 101, 149, 150, 151, 200, 300, 301, 400]) {
      bodies.push('a %%' + `\n\n%%${piece} %%`.repeat(count) + '\n\n%%.');
      bodies.push('start here\n\n' + `x %%\n\n%%${piece}\n\n`.repeat(count));
    }
  }
  return bodies;
}

/** Bodies where the walk and the tag rules part ways and read what follows differently. */
export const DISAGREEING_BODIES: string[] = [
  '#a.b_www.x.@ex.com/`` %% ``\n\nlater #u %% #t',
  '#a.b_www.x.@ex.com/` #hidden `',
  '#a.b_www.x.@ex.com/[x](y "#title") #after',
  '#a.b_www.x.@ex.com/_z ok_ #k',
];
