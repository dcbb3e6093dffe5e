import { describe, expect, it } from 'vitest';
import { editedContent, withFrontmatterKeys, type EditRequest } from '../../src/vault/edits.js';
import { DexiError, NothingToUpdateError } from '../../src/vault/errors.js';

const NOW = new Date('2026-12-01T09:30:00Z');
/** NOW's calendar day where the tests run (Swedish dates are written YYYY-MM-DD). */
const TODAY = NOW.toLocaleDateString('sv');

describe('editedContent: what update_note writes', () => {
  it.each<[string, string, EditRequest, string]>([
    ['append to a note without frontmatter adds no key', 'Text\n', { mode: 'append', text: 'More' }, 'Text\n\nMore\n'],
    ['append moves the note\'s own updated key', '---\nupdated: 2024-01-01T00:00:00Z\n---\nText\n', { mode: 'append', text: 'More' }, '---\nupdated: 2026-12-01T09:30:00+00:00\n---\nText\n\nMore\n'],
    ['a date-only updated stays a date', '---\nupdated: 2024-01-01\n---\nText\n', { mode: 'append', text: 'More' }, `---\nupdated: ${TODAY}\n---\nText\n\nMore\n`],
    ['modified is moved when that is the key the note has', '---\nmodified: 2024-01-01T00:00:00Z\n---\nA\n', { mode: 'replace', text: 'B\n' }, '---\nmodified: 2026-12-01T09:30:00+00:00\n---\nB\n'],
    ['a title goes into the frontmatter, the body stays', 'Body\n', { mode: 'replace', title: 'New' }, '---\ntitle: New\n---\nBody\n'],
    ['replace writes the note\'s line ending', '---\r\nx: 1\r\n---\r\nold\r\n', { mode: 'replace', text: 'a\nb\n' }, '---\r\nx: 1\r\n---\r\na\r\nb\r\n'],
    ['a closing fence as the last byte gets its line ending', '---\ntitle: T\n---', { mode: 'append', text: 'x' }, '---\ntitle: T\n---\nx\n'],
    ['a body that would read as frontmatter gets an empty block before it', 'plain\n', { mode: 'replace', text: '---\nshared: true\n---\nhi\n' }, '---\n---\n---\nshared: true\n---\nhi\n'],
    ['a byte-order mark stays first', '\uFEFFplain\n', { mode: 'replace', text: 'new\n' }, '\uFEFFnew\n'],
    ['an empty append with a title changes only the title', '---\ntitle: Old\n---\nBody\n', { mode: 'append', text: '', title: 'New' }, '---\ntitle: New\n---\nBody\n'],
    ['a CRLF closing fence whose LF is missing gets it before the body', '---\r\ntitle: T\r\n---\r', { mode: 'append', text: 'x' }, '---\r\ntitle: T\r\n---\r\nx\r\n'],
    ['a closing fence with trailing spaces as the last bytes keeps them', '---\ntitle: T\n---  ', { mode: 'replace', text: 'a: 1\n---\nb' }, '---\ntitle: T\n---  \na: 1\n---\nb'],
    ['a replace that empties the body of a note ending in its fence adds nothing', '---\ntitle: T\n---', { mode: 'replace', text: '' }, '---\ntitle: T\n---'],
    ['a body opening with a byte-order mark gets an empty block, or reading would drop the mark', 'plain\n', { mode: 'replace', text: '\uFEFFx' }, '---\n---\n\uFEFFx\n'],
    // side-by-side-2 finding 5: a replace keeps the note's final newline, a byte-order mark, and CR-only line ends.
    ['replace keeps a CRLF note\'s final line break', 'x\r\ny\r\n', { mode: 'replace', text: 'new a\nnew b' }, 'new a\r\nnew b\r\n'],
    ['replace keeps a byte-order mark and the final line break', '\uFEFFold\n', { mode: 'replace', text: 'R1\nR2' }, '\uFEFFR1\nR2\n'],
    ['replace keeps a byte-order mark before frontmatter', '\uFEFF---\ntitle: T\n---\nold\n', { mode: 'replace', text: 'new' }, '\uFEFF---\ntitle: T\n---\nnew\n'],
    ['replace of a note without a final line break writes none', 'last line', { mode: 'replace', text: 'new\n' }, 'new'],
    ['replace of an empty body after frontmatter ends with a line break', '---\ntitle: T\n---\n', { mode: 'replace', text: 'new' }, '---\ntitle: T\n---\nnew\n'],
    ['replace of an empty file ends with a line break', '', { mode: 'replace', text: 'new' }, 'new\n'],
    ['replace keeps CR-only line ends', 'old\rmac\r', { mode: 'replace', text: 'new a\nnew b' }, 'new a\rnew b\r'],
    ['append keeps CR-only line ends', 'old\rmac\r', { mode: 'append', text: 'added a\nadded b' }, 'old\rmac\r\radded a\radded b\r'],
    ['append keeps a CR-only body CR under LF frontmatter', '---\nupdated: 2024-01-01T00:00:00Z\n---\nold\rmac\r', { mode: 'append', text: 'added' }, '---\nupdated: 2026-12-01T09:30:00+00:00\n---\nold\rmac\r\radded\r'],
    ['a byte-order mark stays through an append and a title', '\uFEFFplain\n', { mode: 'append', text: 'more', title: 'T' }, '\uFEFF---\ntitle: T\n---\nplain\n\nmore\n'],
    ['a title of blank lines is written double-quoted, so that it reads back as sent', '---\ntitle: Old\n---\nBody\n', { mode: 'replace', title: ' \n' }, '---\ntitle: " \\n"\n---\nBody\n'],
  ])('%s', (_what, content, request, expected) => {
    const edited = editedContent(content, request, NOW);
    expect(edited.content).toBe(expected);
  });

  it('reports the frontmatter after the edit, for the tag guard', () => {
    const edited = editedContent('---\ntags: [work]\n---\nText\n', { mode: 'append', text: '#more' }, NOW);
    expect(edited.data.tags).toEqual(['work']);
    expect(edited.body).toBe('Text\n\n#more\n');
  });

  it('refuses a note whose frontmatter is not valid YAML', () => {
    expect(() => editedContent('---\ntitle: [x\n---\nText\n', { mode: 'append', text: 'y' }, NOW)).toThrow(/not valid YAML/);
  });

  it.each<EditRequest>([{ mode: 'append' }, { mode: 'append', text: '' }, { mode: 'replace' }])('asks for nothing with %j: Nothing to update', (request) => {
    expect(() => editedContent('---\nupdated: 2024-01-01\n---\nText\n', request, NOW)).toThrow(NothingToUpdateError);
  });

  it('refuses, as a plain DexiError, an edit whose frontmatter would not read back', () => {
    const content = `---\nfiller: ${'x'.repeat(256 * 1024 - 20)}\n---\nText\n`;
    const attempt = () => editedContent(content, { mode: 'replace', title: 'A title that does not fit' }, NOW);
    expect(attempt).toThrow(DexiError);
    expect(attempt).toThrow('The note was left as it was: its new frontmatter would not be read back (frontmatter over 256 K characters is not read).');
    expect(() => withFrontmatterKeys(content, { review: { due: 'x', interval: 1 } })).toThrow(DexiError);
  });
});
