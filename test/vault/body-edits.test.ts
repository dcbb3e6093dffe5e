import { describe, expect, it } from 'vitest';
import { editedNoteBody } from '../../src/vault/body-edits.js';
import { BodyEditError } from '../../src/format/body-ops.js';
import { OutlineTargetError } from '../../src/format/outline.js';
import { DexiError, ReadOnlyNoteError } from '../../src/vault/errors.js';

const NOW = new Date('2026-12-02T09:30:00Z');

describe('editedNoteBody', () => {
  it.each([
    ['a frontmatter-only note', '---\nid: a\n---\n', { operation: 'insert', text: 'first', position: 'end' }, '---\nid: a\n---\nfirst\n'],
    ['a frontmatter-only note without a final newline', '---\nid: a\n---', { operation: 'insert', text: 'first', position: 'end' }, '---\nid: a\n---\nfirst'],
    ['a CRLF frontmatter-only note', '---\r\nid: a\r\n---\r\n', { operation: 'insert', text: 'one\ntwo', position: 'end' }, '---\r\nid: a\r\n---\r\none\r\ntwo\r\n'],
    ['a CR-only body', '---\nid: a\n---\n# A\rold\r# B\r', { operation: 'replace_section', heading: 'A', text: 'new\nlines' }, '---\nid: a\n---\n# A\rnew\rlines\r# B\r'],
    ['a note without frontmatter', '# A\n- one\n', { operation: 'insert', heading: 'A', text: '- two', position: 'end' }, '# A\n- one\n- two\n'],
    ['a body that would read as frontmatter gets an empty block first', 'x\n', { operation: 'replace_text', oldText: 'x', newText: '---\na: 1\n---', all: false }, '---\n---\n---\na: 1\n---\n'],
    [
      'updated is stamped as the note writes it (a date alone stays a date)',
      '---\nupdated: 2026-11-01\n# kept comment\n---\ntext\n',
      { operation: 'replace_text', oldText: 'text', newText: 'words', all: false },
      '---\nupdated: 2026-12-02\n# kept comment\n---\nwords\n',
    ],
    [
      'a full updated time',
      '---\nmodified: 2026-11-01T10:00:00+00:00\n---\ntext\n',
      { operation: 'replace_text', oldText: 'text', newText: 'words', all: false },
      '---\nmodified: 2026-12-02T09:30:00+00:00\n---\nwords\n',
    ],
  ] as const)('%s', (_name, content, operation, expected) => {
    expect(editedNoteBody(content, operation, NOW)?.content).toBe(expected);
  });

  it('writes nothing when the body would not change', () => {
    expect(editedNoteBody('---\nupdated: 2026-11-01\n---\nsame\n', { operation: 'replace_text', oldText: 'same', newText: 'same', all: false }, NOW)).toBeUndefined();
  });

  it('refuses in the plain sentence of the rule, a DexiError the assistant reads as it is', () => {
    const edit = () => editedNoteBody('# A\n', { operation: 'insert', heading: 'B', text: 'x', position: 'end' }, NOW);
    expect(edit).toThrow(DexiError);
    expect(edit).toThrow(new OutlineTargetError('Heading not found: B'));
    expect(() => editedNoteBody('a\n', { operation: 'replace_text', oldText: 'b', newText: 'c', all: false }, NOW)).toThrow(new BodyEditError('Text not found in the note'));
  });

  it('leaves a note with broken frontmatter alone', () => {
    expect(() => editedNoteBody('---\n: [\n---\ntext\n', { operation: 'insert', text: 'x', position: 'end' }, NOW)).toThrow(ReadOnlyNoteError);
  });
});
