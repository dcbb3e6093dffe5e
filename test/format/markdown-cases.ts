/**
 * The unit tables of the Markdown rules, by function: each case's input and
 * what that function gives for it. markdown.test.ts checks the functions
 * against them; markdown-analyze.test.ts runs analyzeMarkdown over the same
 * inputs.
 */

export type Case<T> = [description: string, input: string, expected: T];
export type SnippetCase = [description: string, input: string, limit: number | undefined, expected: string];

/** extractTags, by group. */
export const TAG_GROUPS: [string, Case<string[]>[]][] = (() => {
  const basics: Case<string[]>[] = [
    ['empty body', '', []],
    ['whitespace only', ' \n\t\n ', []],
    ['no sigil at all', 'Just prose, nothing else.', []],
    ['a hashtag', 'see #idea', ['#idea']],
    ['a mention', 'ask @alice', ['@alice']],
    ['a tag at the very start', '#start of the note', ['#start']],
    ['hashtags and mentions in order', '@bob wrote #draft with @carol', ['@bob', '#draft', '@carol']],
    ['several on one line', '#a #b #c', ['#a', '#b', '#c']],
    ['across paragraphs', '#one\n\nsecond #two\n\n#three', ['#one', '#two', '#three']],
  ];

  const nestedAndCase: Case<string[]>[] = [
    ['a nested tag', '#ml/papers', ['#ml/papers']],
    ['deeper nesting', '#area/sub/leaf', ['#area/sub/leaf']],
    ['parent and child are distinct tags', '#ml #ml/papers', ['#ml', '#ml/papers']],
    ['lower-cased', '#ML/Papers @Alice', ['#ml/papers', '@alice']],
    ['de-duplicated case-insensitively, first spelling position wins', '#b #a #B @c #A @C', ['#b', '#a', '@c']],
    ['same name with both sigils stays two tags', '#sam @sam', ['#sam', '@sam']],
    ['underscores and hyphens inside', '#snake_case #kebab-case #mixed_a-b', ['#snake_case', '#kebab-case', '#mixed_a-b']],
    ['a trailing slash is trimmed', '#ml/', ['#ml']],
    ['a trailing hyphen is trimmed', '#draft-', ['#draft']],
    ['mixed trailing separators are trimmed', '#a/-/-', ['#a']],
    ['a tag of separators only is nothing', '#- #/ #-/-', []],
    ['a leading hyphen stays', '#-x', ['#-x']],
  ];

  const digits: Case<string[]>[] = [
    ['digits only is not a tag', '#123', []],
    ['a year is not a tag', 'since #2024', []],
    ['a number with a trimmed trailing separator is not a tag', '#2024/ #99-', []],
    ['a year with letters is', '#2024-goals', ['#2024-goals']],
    ['letters then digits', '#v2', ['#v2']],
    ['digits then letters', '#3d_printing', ['#3d_printing']],
    ['a date counts: `-` is a non-digit', '#2024-01-05', ['#2024-01-05']],
    ['a mention of digits only is not one', '@123', []],
    ['non-ASCII digits only are not a tag', '#١٢٣', []],
    ['non-ASCII digits with a letter are', '#١٢٣a', ['#١٢٣a']],
  ];

  const unicode: Case<string[]>[] = [
    ['accented letters', '#café #naïve', ['#café', '#naïve']],
    ['lower-casing beyond ASCII', '#Ünïcödé @José #ΩΜΈΓΑ', ['#ünïcödé', '@josé', '#ωμέγα']],
    ['CJK', '#日本語 メモ', ['#日本語']],
    ['Cyrillic', '#заметки', ['#заметки']],
    ['letters outside the BMP', '#𝒜lpha', ['#𝒜lpha']],
    ['combining marks stay in the tag', '#cafe\u0301', ['#cafe\u0301']],
    ['an emoji ends the tag', '#party🎉', ['#party']],
    ['a no-break space before a tag is a boundary', 'a\u00a0#nbsp', ['#nbsp']],
  ];

  const tagEnds: Case<string[]>[] = [
    ['a full stop ends a tag', 'done #tag.', ['#tag']],
    ['commas and semicolons', '#a, #b; #c: #d!', ['#a', '#b', '#c', '#d']],
    ['parentheses and brackets', '(#paren) [#bracket] {#brace}', ['#paren', '#bracket', '#brace']],
    ['quotes', '"#dq" \'#sq\'', ['#dq', '#sq']],
    ['an apostrophe ends a mention', "@bob's notes", ['@bob']],
    ['a second sigil ends a tag and is not one itself', '#a#b @c@d', ['#a', '@c']],
  ];

  const emphasis: Case<string[]>[] = [
    ['strong around a tag', '**#bold**', ['#bold']],
    ['emphasis around a tag', '*#em* and _#under_', ['#em', '#under']],
    ['strong underscores', '__#strong__', ['#strong']],
    ['strikethrough', '~~#gone~~', ['#gone']],
    ['both', '***#both***', ['#both']],
    ['a tag at the end of emphasised text', '_see #this_ later', ['#this']],
    ['intraword underscores belong to the tag', '#snake_case_ here', ['#snake_case_']],
    ['a mention in strong', '**@boss**', ['@boss']],
  ];

  const notCode: Case<string[]>[] = [
    ['inline code', 'use `#notatag` here #real', ['#real']],
    ['double-backtick code with a backtick inside', '``#a ` @b`` #real', ['#real']],
    ['triple-backtick inline code', 'x ```#a``` #real', ['#real']],
    ['code spanning lines', '`#a\n@b` #real', ['#real']],
    ['an unmatched backtick is literal', '`#real', ['#real']],
    ['fenced code with backticks', '```\n#code\n@code\n```\n#real', ['#real']],
    ['fenced code with tildes', '~~~\n#code\n~~~\n#real', ['#real']],
    ['fenced code with an info string', '```python\n# comment #py\n```', []],
    ['a longer closing fence', '````\n```\n#code\n```\n````\n#real', ['#real']],
    ['an unclosed fence runs to the end', '#real\n```\n#code\n\n#more', ['#real']],
    ['a fence in a list item', '- item\n  ```\n  #code\n  ```\n- #real', ['#real']],
    ['a fence in a block quote', '> ```\n> #code\n> ```\n#real', ['#real']],
    ['indented code after a blank line', 'para\n\n    #code\n\n#real', ['#real']],
    ['indented code with a tab', 'para\n\n\t#code', []],
    ['an indented line continues a paragraph', 'para\n    #real', ['#real']],
  ];

  const notHeadingMarkers: Case<string[]>[] = [
    ['an ATX heading marker', '# Heading', []],
    ['every level', '# a\n## b\n### c\n#### d\n##### e\n###### f', []],
    ['a tag inside a heading', '## Heading with #tag', ['#tag']],
    ['a tag as the whole heading', '# #tag', ['#tag']],
    ['a closing sequence', '### Title ###', []],
    ['a tag before a closing sequence', '## Title #tag ##', ['#tag']],
    ['no space after # is a tag, not a heading', '#tag line', ['#tag']],
    ['seven hashes is a paragraph', '####### x #seven', ['#seven']],
    ['an empty heading', '#\n##', []],
    ['a setext heading', 'Title #setext\n===', ['#setext']],
  ];

  const notUrls: Case<string[]>[] = [
    ['https fragment', 'see https://example.com/page#section', []],
    ['http fragment after a query', 'http://example.com/?q=1#frag', []],
    ['www fragment', 'www.example.com/#anchor', []],
    ['upper-case scheme', 'HTTPS://EXAMPLE.COM/#UP', []],
    ['an @ in a URL path', 'https://medium.com/@author/post', []],
    ['an autolink', '<https://example.com/#auto>', []],
    ['a link destination', '[label](https://example.com/#frag)', []],
    ['a relative link destination', '[label](#local-heading)', []],
    ['a link title', '[label](/url "title #t")', []],
    ['a tag in the link label counts', '[read #later](https://example.com/#frag)', ['#later']],
    ['a reference definition', '[ref]: https://example.com/#def "Title #t"\n\n[x][ref]', []],
    ['a tag after a URL', 'https://example.com/#frag #after', ['#after']],
    ['a URL in parentheses', '(https://example.com/#frag) #after', ['#after']],
    ['a tag in front of a URL', '#read https://example.com/#frag', ['#read']],
    ['a URL starting inside a tag-like run', '#123https://example.com/#x', []],
  ];

  const notEmail: Case<string[]>[] = [
    ['an e-mail address', 'mail bob@example.com today', []],
    ['a dotted local part', 'first.last+notes@sub.example.org', []],
    ['an e-mail autolink', '<bob@example.com>', []],
    ['a mailto link', 'mailto:bob@example.com', []],
    ['a mention next to an address', 'bob@example.com or @bob', ['@bob']],
    ['a hashtag glued to an address', '#foo.bar@example.com', []],
    ['a mention glued to an address', '@bob@example.com', []],
    ['not an address without a dot: still no mention after a word', 'a@b', []],
  ];

  const notHtml: Case<string[]>[] = [
    ['an HTML comment', 'text <!-- #hidden --> #real', ['#real']],
    ['a line starting with a comment is an HTML block', '<!-- note --> #hidden', []],
    ['a multi-line HTML comment', '<!--\n#hidden\n-->\n#real', ['#real']],
    ['an attribute', '<a href="#x" title="@y">#inside</a>', ['#inside']],
    ['an HTML block', '<div>\n#hidden\n</div>\n\n#real', ['#real']],
    ['a script block', '<script>\nlet t = "#x";\n</script>\n#real', ['#real']],
    ['a decimal entity', '&#123; and &#35;', []],
    ['a hexadecimal entity', '&#x41; &#xbeef;', []],
    ['a named entity before a tag is a boundary', '&amp; #real', ['#real']],
    ['a lone < is text', 'a < b #real', ['#real']],
  ];

  const notAfterWord: Case<string[]>[] = [
    ['C#', 'I like C# and F#', []],
    ['a@b', 'a@b x@y', []],
    ['a letter before', 'x#y', []],
    ['a digit before', '5#five 2@two', []],
    ['an underscore before', 'snake_#case', []],
    ['a non-ASCII letter before', 'é#x ж@y', []],
    ['an escaped sigil', '\\#escaped \\@escaped', []],
    ['a doubled sigil', '##double @@double', []],
    ['punctuation before is a boundary', '-#dash +#plus =#eq |#pipe', ['#dash', '#plus', '#eq', '#pipe']],
    ['an emphasis underscore before is a boundary', '_#em_', ['#em']],
  ];

  const blocks: Case<string[]>[] = [
    ['list items', '- #a\n* #b\n+ #c\n1. #d\n2) #e', ['#a', '#b', '#c', '#d', '#e']],
    ['task items', '- [ ] #todo\n- [x] #done', ['#todo', '#done']],
    ['nested lists with tabs', '- #a\n\t- #b\n\t\t- #c', ['#a', '#b', '#c']],
    ['a loose list item continuation', '- a\n\n    more #more', ['#more']],
    ['block quotes', '> #q\n> > #qq\nlazy #lazy', ['#q', '#qq', '#lazy']],
    ['a table', '| #h | b |\n|---|:-:|\n| `#code` | #cell |', ['#h', '#cell']],
    ['a footnote definition', 'text[^1]\n\n[^1]: #note', ['#note']],
    ['an image alt text is not text', '![#alt](pic.png) #real', ['#real']],
    ['a reference image alt text', '![#alt][pic] #real\n\n[pic]: /pic.png', ['#real']],
    ['an undefined reference stays text', '[#label][nowhere]', ['#label']],
    ['a wikilink heading', '[[Note#Heading]] [[#Local]] #real', ['#real']],
    ['a wikilink alias', '[[Note|alias #x]]', []],
    ['an embed', '![[image.png#x]]', []],
    ['thematic breaks', '***\n---\n___\n#real', ['#real']],
    ['CRLF line endings', '#a\r\n```\r\n#code\r\n```\r\n#b\r\n', ['#a', '#b']],
  ];

  const obsidian: Case<string[]>[] = [
    ['a tag inside an inline comment', 'Text %%#hidden @gone%% #shown', ['#shown']],
    ['a block comment across paragraphs and a list', '%%\n#hidden\n\n@gone\n- #listed\n%%\n#shown', ['#shown']],
    ['a comment within a heading', '## Title %%#draft%% #final', ['#final']],
    ['a tag right after a comment', 'x%%note%%#tag', ['#tag']],
    ['`%%` in inline code opens no comment', '`%%` #a `%%`', ['#a']],
    ['`%%` in fenced code opens no comment', '```\n%%\n```\n#a\n\n```\n%%\n```', ['#a']],
    ['`%%` in a bare URL opens no comment', 'see x-www.x.io/%%a #b %%', ['#b']],
    ['a `%%` that nothing closes is text', 'a stray %% then #tag', ['#tag']],
    ['an escaped percent sign opens no comment', '\\%%#a%%', ['#a']],
    ['code inside a comment is hidden with it', '%%\n```\n#code\n```\n%%\n#after', ['#after']],
    ['a comment ending inside what read as code: the rest is Markdown again', '%%\n```\n%% #same-line\n#after', ['#same-line', '#after']],
    ['an underscore inside a comment closes no emphasis', '_#a %%b_%% c', ['#a']],
    ['a callout title and body', '> [!note] Title #t\n> body #b', ['#t', '#b']],
    ['a callout marker is no tag', '> [!todo] #open', ['#open']],
    ['a highlight around a tag', '==#marked== text', ['#marked']],
    ['task states', '- [ ] #open\n- [x] #done\n- [/] #half', ['#open', '#done', '#half']],
  ];

  const groups: [string, Case<string[]>[]][] = [
    ['basics', basics],
    ['nesting, case, trimming', nestedAndCase],
    ['digits', digits],
    ['unicode', unicode],
    ['where a tag ends', tagEnds],
    ['emphasis', emphasis],
    ['not in code', notCode],
    ['heading markers', notHeadingMarkers],
    ['not URL anchors', notUrls],
    ['not e-mail', notEmail],
    ['not HTML or entities', notHtml],
    ['not after a word character', notAfterWord],
    ['block structure', blocks],
    ['Obsidian comments, callouts, highlights, tasks', obsidian],
  ];
  return groups;
})();

/** toPlainText. */
export const PLAIN_TEXT_CASES: Case<string>[] = (() => {
  const cases: Case<string>[] = [
    ['empty body', '', ''],
    ['plain prose is kept', 'Just words.', 'Just words.'],
    ['ATX heading marker', '# Heading', 'Heading'],
    ['ATX closing sequence', '## Heading ##', 'Heading'],
    ['deep heading with a tag', '### Notes on #ml', 'Notes on #ml'],
    ['setext heading', 'Title\n=====\n\nBody', 'Title Body'],
    ['setext level 2', 'Title\n---\nBody', 'Title Body'],
    ['inline link', 'see [the label](https://example.com "title")', 'see the label'],
    ['image', '![alt text](img.png)', 'alt text'],
    ['image inside a link', '[![logo](l.png)](https://x.io)', 'logo'],
    ['full reference link', '[label][ref]\n\n[ref]: https://x.io', 'label'],
    ['collapsed reference link', '[label][]\n\n[label]: /u', 'label'],
    ['shortcut reference link', '[label]\n\n[label]: /u', 'label'],
    ['brackets that are no link stay', '[not a link] and [x]', '[not a link] and [x]'],
    ['autolink', '<https://example.com/a>', 'https://example.com/a'],
    ['e-mail autolink', '<bob@example.com>', 'bob@example.com'],
    ['bare URL kept whole', 'https://x.io/a_b_c*d*', 'https://x.io/a_b_c*d*'],
    ['emphasis and strong', '**bold** *em* _em_ __strong__ ***both***', 'bold em em strong both'],
    ['strikethrough', '~~gone~~', 'gone'],
    ['emphasis inside a link', '[a **b**](u)', 'a b'],
    ['literal asterisks and underscores', '2 * 3 = 6, snake_case_name', '2 * 3 = 6, snake_case_name'],
    ['a lone tilde stays', '~5 minutes', '~5 minutes'],
    ['inline code keeps its content', 'run `npm test` now', 'run npm test now'],
    ['double-backtick code', '``a ` b``', 'a ` b'],
    ['fenced code keeps its content', '```js\nconst x = 1;\n```', 'const x = 1;'],
    ['tilde fence', '~~~\ncode\n~~~', 'code'],
    ['indented code', 'para\n\n    indented code', 'para indented code'],
    ['bullet list', '- one\n- two\n  * nested', 'one two nested'],
    ['ordered list', '1. first\n2) second', 'first second'],
    ['task list', '- [ ] todo\n- [x] done', '☐ todo ☑ done'],
    ['block quote', '> quote\n> > nested', 'quote nested'],
    ['table pipes become spaces', '| a | b |\n|---|---|\n| 1 | 2 |', 'a b 1 2'],
    ['escaped pipe in a table cell', '| a \\| b |\n|---|', 'a | b'],
    ['HTML block', '<div>\n<p>Hello <b>world</b></p>\n</div>', 'Hello world'],
    ['inline HTML', 'a <span class="x">b</span> c', 'a b c'],
    ['HTML comment', '<!-- hidden -->visible', 'visible'],
    ['script block', '<script>\nalert(1)\n</script>\n\nText', 'Text'],
    ['line break tag', 'x<br>y', 'x y'],
    ['entities decoded', '&amp; &lt;tag&gt; &copy; &#169; &#x1F600;', '& <tag> © © 😀'],
    ['unknown entity kept', '&bogus;', '&bogus;'],
    ['backslash escapes', '\\*not em\\* \\# not heading', '*not em* # not heading'],
    ['tags kept as they are', 'Tags #ml and @Bob stay', 'Tags #ml and @Bob stay'],
    ['wikilinks', '[[Note]] and [[Note|alias]] and [[Note#Sec]]', 'Note and alias and Note#Sec'],
    ['embeds vanish', '![[image.png]] caption', 'caption'],
    ['footnote reference and definition', 'Text[^1]\n\n[^1]: Footnote', 'Text Footnote'],
    ['whitespace collapsed, paragraph breaks too', 'a\n\n\nb   c\td\ne', 'a b c d e'],
    ['hard line break', 'line one  \nline two', 'line one line two'],
    ['thematic breaks vanish', 'a\n\n***\n\nb', 'a b'],
    ['reference definitions vanish', '[r]: https://x.io\n\ntext', 'text'],
    ['unicode is kept', 'Ünïcödé 日本語 𝒜', 'Ünïcödé 日本語 𝒜'],
    ['CRLF', 'a\r\nb\r\n', 'a b'],
  ];
  return cases;
})();

/** toPlainText on Obsidian's own syntax, by group. */
export const OBSIDIAN_GROUPS: [string, Case<string>[]][] = (() => {
  const callouts: Case<string>[] = [
    ['the marker is removed, the title and body kept', '> [!note] Title\n> Body text.', 'Title Body text.'],
    ['a folded callout', '> [!warning]- Foldable\n> hidden at first', 'Foldable hidden at first'],
    ['an unfolded callout without a title', '> [!tip]+\n> Only the body', 'Only the body'],
    ['upper-case type', '> [!WARNING] Careful', 'Careful'],
    ['metadata after the type', '> [!info|wide] Wide one\n> x', 'Wide one x'],
    ['nested callouts', '> [!note] Outer\n> > [!tip] Inner\n> > inner body\n> outer body', 'Outer Inner inner body outer body'],
    ['a title holding Markdown', '> [!example] See **this** and [[Note|that]]', 'See this and that'],
    ['the title is a line of its own', '> [!note] Title\n> ---\n> after the rule', 'Title after the rule'],
    ['a callout in a list item', '- > [!tip] In a list\n  > body', 'In a list body'],
    ['a marker on a later line of a quote is text', '> quote\n> [!note] not a callout', 'quote [!note] not a callout'],
    ['an escaped marker is text', '> [\\!note] x', '[!note] x'],
  ];
  const highlights: Case<string>[] = [
    ['a highlight', 'a ==marked== word', 'a marked word'],
    ['inside a word', 'un==mark==ed', 'unmarked'],
    ['around emphasis', '==**both**==', 'both'],
    ['`==` in inline code stays', '`a == b` and `==x==`', 'a == b and ==x=='],
    ['`==` in fenced code stays', '```\n==x==\n```', '==x=='],
    ['`==` between spaces stays', 'a == b', 'a == b'],
    ['a run of three is no highlight', 'x ===y=== z', 'x ===y=== z'],
    ['an unclosed highlight stays', '==open', '==open'],
  ];
  const comments: Case<string>[] = [
    ['an inline comment', 'This is an %%inline%% comment.', 'This is an comment.'],
    [
      'a block comment spanning paragraphs',
      'Before\n\n%%\nThis is a block comment.\n\nBlock comments can span multiple lines.\n%%\n\nAfter',
      'Before After',
    ],
    ['a comment before punctuation leaves no space', 'Done %%for now%%.', 'Done.'],
    ['the same across paragraphs', 'Done %%for\n\nnow%%, then more', 'Done, then more'],
    ['a comment hides code and blocks', 'a %%`code` and\n```\nblock\n```\n# Heading\n%% b', 'a b'],
    ['a comment in a callout', '> [!note] Title %%draft%%\n> body', 'Title body'],
    ['`%%` in inline code is text', 'type `%%` to comment', 'type %% to comment'],
    ['`%%` in fenced code is text', '```\n%% not a comment %%\n```', '%% not a comment %%'],
    ['a `%%` that nothing closes is text', 'I am 100%% sure', 'I am 100%% sure'],
    ['an empty comment', 'a%%%%b', 'ab'],
    ['a comment at the start', '%% hidden %%Visible', 'Visible'],
  ];
  const embeds: Case<string>[] = [
    ['an embed before a full stop', 'See [[Canvas]] and ![[Canvas.png]].', 'See Canvas and.'],
    ['an embed with a heading before a comma', 'As ![[Note#Part]], shown', 'As, shown'],
    ['an embed before a closing bracket', '(see ![[x.png]])', '(see)'],
    ['an embed with a size', 'Logo ![[img.png|100]] here', 'Logo here'],
    ['embeds side by side leave one space', 'a ![[x]] ![[y]] b', 'a b'],
    ['an embed before a dash keeps the space', 'a ![[x]] - b', 'a - b'],
    ['an embed alone', '![[diagram.png]]', ''],
    ['a footnote reference before punctuation', 'Claim [^1].\n\n[^1]: Source', 'Claim. Source'],
  ];
  const tasks: Case<string>[] = [
    ['an open task', '- [ ] buy milk', '☐ buy milk'],
    ['a done task', '- [x] done', '☑ done'],
    ['a done task with a capital X', '* [X] shipped', '☑ shipped'],
    ['an ordered task list', '1. [ ] first\n2) [x] second', '☐ first ☑ second'],
    ['a task in a block quote', '> - [ ] quoted', '☐ quoted'],
    ['a nested task', '- parent\n  - [x] child', 'parent ☑ child'],
    ['a task with no text', '- [ ]', '☐'],
    ['other states keep their mark', '- [/] half\n- [-] dropped\n- [>] later', '[/] half [-] dropped [>] later'],
    ['brackets later in an item are text', '- see [ ] here', 'see [ ] here'],
  ];
  const wikilinks: Case<string>[] = [
    ['a wikilink shows its target', 'Go to [[Target]].', 'Go to Target.'],
    ['an aliased wikilink shows its alias', 'Go to [[Target|there]].', 'Go to there.'],
  ];
  const groups: [string, Case<string>[]][] = [
    ['callouts', callouts],
    ['highlights', highlights],
    ['comments', comments],
    ['embeds', embeds],
    ['tasks', tasks],
    ['wikilinks', wikilinks],
  ];
  return groups;
})();

/** toSearchText. */
export const SEARCH_TEXT_CASES: Case<string>[] = (() => {
  const cases: Case<string>[] = [
    ['empty body', '', ''],
    ['no wikilinks: the plain text', '# Title\n\nBody **bold**.', 'Title Body bold.'],
    ['a wikilink shown as its target adds nothing', 'See [[Target Note]].', 'See Target Note.'],
    ['an aliased wikilink adds its target', 'See [[Target Note|this]].', 'See this. Target Note'],
    ['in a folder, to a heading: the note name and the heading', 'Read [[Folder/Target#Heading|x]]', 'Read x Target Heading'],
    ['nested headings', '[[Note#Part#Detail|see]]', 'see Note Part Detail'],
    ['a block reference is no word', '[[Note#^a1b2c3|quoted]]', 'quoted Note'],
    ['a heading in the same note', '[[#Setup|below]]', 'below Setup'],
    ['the .md extension is dropped', '[[Notes/Plan.md|the plan]]', 'the plan Plan'],
    ['an alias equal to the target adds nothing', '[[Plan|plan]]', 'plan'],
    ['targets follow the whole text, in order', '[[A|one]] text\n\nmore [[B|two]]', 'one text more two A B'],
    ['an aliased wikilink in a table cell', '| [[Target\\|alias]] | b |\n|---|---|', 'alias b Target'],
    ['an aliased wikilink in a callout title', '> [!note] [[Guide|the guide]]', 'the guide Guide'],
    ['in a comment: nothing', '%%[[Secret|s]]%% x', 'x'],
    ['in inline code: nothing', '`[[Code|c]]`', '[[Code|c]]'],
    ['an embed adds nothing', 'x ![[Picture.png|300]]', 'x'],
    ['only targets', '![[a]] %%c%% [[Only|]]', 'Only'],
  ];
  return cases;
})();

/** makeSnippet, with its limit (undefined: the default). */
export const SNIPPET_CASES: SnippetCase[] = (() => {
  const long = 'word '.repeat(100).trim(); // 499 characters

  const cases: SnippetCase[] = [
    ['empty body', '', undefined, ''],
    ['short text is whole, no ellipsis', 'Short note.', undefined, 'Short note.'],
    ['Markdown is removed', '# Title\n\nBody with **bold** and [a link](u).', undefined, 'Title Body with bold and a link.'],
    ['exactly the limit is not cut', 'abcde', 5, 'abcde'],
    ['one over the limit is cut', 'abcdef', 5, 'abcde…'],
    ['the default limit is 300', long, undefined, long.slice(0, 299) + '…'],
    ['a cut right before a space', 'abc def', 3, 'abc…'],
    ['trailing whitespace before the ellipsis is trimmed', 'abc def', 4, 'abc…'],
    ['a cut inside a word moves back to the space', 'alpha bravo', 8, 'alpha…'],
    ['a partial word of 20 code points moves back', 'a ' + 'b'.repeat(30), 22, 'a…'],
    ['a partial word of 21 code points is cut hard', 'a ' + 'b'.repeat(30), 23, 'a ' + 'b'.repeat(21) + '…'],
    ['one long word is cut hard', 'x'.repeat(50), 30, 'x'.repeat(30) + '…'],
    ['code points, not UTF-16 units, are counted', '😀'.repeat(10), 5, '😀'.repeat(5) + '…'],
    ['a surrogate pair is never split', 'a😀b😀c', 3, 'a😀b…'],
    ['astral letters', '𝒜'.repeat(8), 8, '𝒜'.repeat(8)],
    ['astral letters cut', '𝒜'.repeat(8), 7, '𝒜'.repeat(7) + '…'],
    ['paragraph breaks are spaces in the snippet', 'one\n\ntwo\n\nthree', 9, 'one two…'],
    ['a callout starts with its title', '> [!warning] Back up first\n> Then upgrade.', undefined, 'Back up first Then upgrade.'],
    ['a leading comment is left out', '%%\ndraft: ' + 'words '.repeat(80) + '\n%%\nReal start.', undefined, 'Real start.'],
    ['tasks keep their state', '- [x] one\n- [ ] two', undefined, '☑ one ☐ two'],
  ];
  return cases;
})();
