import { describe, expect, it } from 'vitest';
import { escapePlainText } from '../../src/import/plain-text.js';
import { extractTags, toPlainText } from '../../src/format/markdown/analyze.js';

describe('escapePlainText: plain text as Markdown that shows the same text', () => {
  const cases: [string, string, string][] = [
    ['a tag and a mention', 'Ask @bob about #launch today.', 'Ask \\@bob about \\#launch today.'],
    ['a nested tag, and one in brackets', '(#ml/papers)', '(\\#ml/papers)'],
    ['not tags: C#, an address, an issue number, a URL anchor', 'C# by bob@example.org, #42, https://x.example/a#part', 'C# by bob@example.org, #42, https://x.example/a#part'],
    ['a heading at the start of a line', '# of users: 12\n## Notes', '\\# of users: 12\n\\## Notes'],
    ['a setext underline after text', 'Results\n-------\nTotals\n=====', 'Results\n\\-------\nTotals\n\\====='],
    ['a signature line right under text', 'Thanks,\n--\nAlex', 'Thanks,\n\\--\nAlex'],
    ["Outlook's rule and a starred rule", '____________\n* * *', '\\____________\n\\* * *'],
    ['a line of text between dashes stays', '-----Original Message-----', '-----Original Message-----'],
    ['HTML-looking text', 'Use <b>bold</b> or <!-- not a comment -->', 'Use \\<b>bold\\</b> or \\<!-- not a comment -->'],
    ['autolinks and comparisons stay', 'See <https://x.example/> or <a@b.org>; 1 < 2', 'See <https://x.example/> or <a@b.org>; 1 < 2'],
    ['quotes keep their marker, their inside is escaped', '> #thanks\n> # Title\n>> ---', '> \\#thanks\n> \\# Title\n>> \\---'],
    ['lists stay lists', '- item #one\n1. first', '- item \\#one\n1. first'],
    ['a list item continued by indentation is text, not code', '- item\n\n    more #two', '- item\n\n    more \\#two'],
    ['an indented block after a blank line is code: no backslash shows', 'Patch:\n\n    #include <stdio.h>\n    @@ -1 +1 @@', 'Patch:\n\n    #include <stdio.h>\n    @@ -1 +1 @@'],
    ['a closed fence is code', '```sh\n# comment @x\n```\nafter #tag', '```sh\n# comment @x\n```\nafter \\#tag'],
    ['a fence never closed would hide the rest: escaped', '```\n#tag', '\\```\n\\#tag'],
    ['a code span stays', 'Run `git log #1` now', 'Run `git log #1` now'],
    ['already escaped stays', '\\#done', '\\#done'],
    ["where Markdown reads text the block rules here took for code (a footnote's paragraph), the tag reader's check escapes all", '[^1]: note\n\n    #tag', '[^1]: note\n\n    \\#tag'],
  ];
  it.each(cases)('%s', (_what, text, expected) => {
    const escaped = escapePlainText(text);
    expect(escaped).toBe(expected);
    expect(extractTags(escaped)).toEqual([]);
  });

  it('shows the same words as the text (no markup eats any)', () => {
    const text = 'Ask @bob about #launch.\nResults\n-------\n<b>x</b>';
    expect(toPlainText(escapePlainText(text))).toBe('Ask @bob about #launch. Results ------- <b>x</b>');
  });
});
