import { describe, expect, it } from 'vitest';
import { parseTagRename, renameTagInNote, TagRenameError } from '../../src/format/tag-rename.js';

/** [what, from, to, file, file after (undefined: unchanged)] */
type RenameCase = [string, string, string, string, string | undefined];

const BODY: RenameCase[] = [
  ['an inline tag', '#proj', '#project', 'see #proj today', 'see #project today'],
  ['a tag at the start and end', '#proj', '#project', '#proj\n\nend #proj', '#project\n\nend #project'],
  ['a nested tag keeps its nested part as spelt', '#proj', '#project', 'on #proj/Alpha/Beta', 'on #project/Alpha/Beta'],
  ['case-insensitive, the person\'s case elsewhere kept', '#proj', '#project', '#PROJ and #Proj/ALPHA', '#project and #project/ALPHA'],
  ['the new name as spelt', '#proj', '#Project', '#proj', '#Project'],
  ['a longer tag is another tag', '#proj', '#project', '#projects #proj-x #proj_y #projX', undefined],
  ['a parent is not renamed by its child', '#proj/alpha', '#proj/beta', '#proj and #proj/alphabet, #proj/alpha/x', '#proj and #proj/alphabet, #proj/beta/x'],
  ['a nested tag renamed alone', '#proj/alpha', '#archive/alpha', '#proj/alpha', '#archive/alpha'],
  ['not inside inline code', '#proj', '#project', 'a `#proj` b #proj', 'a `#proj` b #project'],
  ['not inside fenced code', '#proj', '#project', '```\n#proj\n```\n#proj', '```\n#proj\n```\n#project'],
  ['not inside indented code', '#proj', '#project', 'x\n\n    #proj\n\n#proj', 'x\n\n    #proj\n\n#project'],
  ['not inside an HTML comment', '#proj', '#project', '<!-- #proj -->\n\n#proj', '<!-- #proj -->\n\n#project'],
  ['not inside a %% comment', '#proj', '#project', '%%#proj%% #proj %%\n#proj\n%%', '%%#proj%% #project %%\n#proj\n%%'],
  ['not in a link target or URL', '#proj', '#project', '[a](#proj) [[Note#proj]] https://x.io/#proj #proj', '[a](#proj) [[Note#proj]] https://x.io/#proj #project'],
  ['in a link label it is a tag', '#proj', '#project', '[see #proj](https://x.io)', '[see #project](https://x.io)'],
  ['not after a word or an escape', '#proj', '#project', 'C#proj \\#proj &#proj', undefined],
  ['a heading is not a tag', '#proj', '#project', '# proj\n#proj', '# proj\n#project'],
  ['in quotes, lists, tasks and tables', '#proj', '#project', '> q #proj\n\n- i #proj\n- [ ] t #proj\n\n| a |\n| - |\n| #proj |', '> q #project\n\n- i #project\n- [ ] t #project\n\n| a |\n| - |\n| #project |'],
  ['emphasis around it', '#proj', '#project', '_see #proj_ **#proj** *#proj*', '_see #project_ **#project** *#project*'],
  ['a trailing slash or hyphen stays', '#proj', '#project', '#proj/ #proj-', '#project/ #project-'],
  ['an image\'s alt text holds no tag', '#proj', '#project', '![#proj](a.png) #proj', '![#proj](a.png) #project'],
  ['a mention', '@bob', '@robert', '@Bob and #bob', '@robert and #bob'],
  ['Unicode case folding', '#straße', '#street', '#STRASSE #Straße', '#street #street'],
  ['CRLF kept', '#proj', '#project', 'a #proj\r\nb #proj\r\n', 'a #project\r\nb #project\r\n'],
  ['no tag at all', '#proj', '#project', 'nothing here', undefined],
];

const FRONTMATTER: RenameCase[] = [
  ['a one-line list, quoting and comments kept', '#proj', '#project', '---\ntitle: "T" # mine\ntags: [proj, "#Proj/alpha", other] # c\n---\nbody', '---\ntitle: "T" # mine\ntags: [project, "#project/alpha", other] # c\n---\nbody'],
  ['a block list', '#proj', '#project', '---\ntags:\n  - other\n  - proj\nx: 1\n---\n', '---\ntags:\n  - other\n  - project\nx: 1\n---\n'],
  ['a list that already has the new tag', '#proj', '#project', '---\ntags:\n  - proj\n  - project\n---\n', '---\ntags:\n  - project\n---\n'],
  ['a comma string', '#proj', '#project', '---\ntags: proj, other, proj/x\n---\n', '---\ntags: project, other, project/x\n---\n'],
  ['a space string with #', '#proj', '#project', '---\ntags: "#proj #other"\n---\n', '---\ntags: "#project #other"\n---\n'],
  ['a longer tag in frontmatter stays', '#proj', '#project', '---\ntags: [projects, proj-x]\n---\n', undefined],
  ['a mention leaves frontmatter alone', '@proj', '@project', '---\ntags: [proj]\n---\n@proj', '---\ntags: [proj]\n---\n@project'],
  ['both, other keys byte for byte', '#proj', '#project', "---\nid: 'x'\ntags: [proj]\nwhen: 2024-01-01\n---\n#proj\n", "---\nid: 'x'\ntags: [project]\nwhen: 2024-01-01\n---\n#project\n"],
  ['a tag key other than tags stays', '#proj', '#project', '---\ntopic: proj\n---\n', undefined],
  ['CRLF frontmatter', '#proj', '#project', '---\r\ntags: [proj]\r\n---\r\n#proj\r\n', '---\r\ntags: [project]\r\n---\r\n#project\r\n'],
];

describe('renameTagInNote', () => {
  for (const [group, cases] of [['body', BODY], ['frontmatter', FRONTMATTER]] as const) {
    describe(group, () => {
      it.each(cases)('%s', (_what, from, to, file, after) => {
        expect(renameTagInNote(file, parseTagRename(from, to))).toBe(after);
      });
    });
  }
});

/** [from, to, the sentence's start] */
const REFUSALS: [string, string, string][] = [
  ['', '#x', 'from is empty'],
  ['#a b', '#x', 'from must be one tag'],
  ['#123', '#x', 'from must be one tag'],
  ['#proj', '', 'to is empty'],
  ['#proj', '  ', 'to is empty'],
  ['#proj', '#my project', 'to must be one tag, without spaces'],
  ['#proj', '#a.b', 'to must be a tag of letters'],
  ['#proj', '#2024', 'to must be a tag of letters'],
  ['#proj', '@proj2', 'from and to must both be hashtags'],
  ['#proj', '#PROJ', 'from and to are the same tag'],
  ['proj', 'proj/', 'from and to are the same tag'],
  ['#proj', '#/x', 'to may not start with /'],
  ['#proj', '#a//b', 'to may not start with /'],
];

describe('parseTagRename', () => {
  it.each(REFUSALS)('%j to %j is refused', (from, to, sentence) => {
    expect(() => parseTagRename(from, to)).toThrow(TagRenameError);
    expect(() => parseTagRename(from, to)).toThrow(sentence);
  });

  it('takes a bare name as a hashtag and keeps the spelling of to', () => {
    expect(parseTagRename(' proj ', 'Project/Q3/')).toEqual({ from: '#proj', to: '#project/q3', toName: 'Project/Q3' });
  });
});
