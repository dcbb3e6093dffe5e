import { describe, expect, it } from 'vitest';
import { looksHalfWritten, shapeOf } from '../../src/format/half-written.js';

const shape = (text: string) => shapeOf(Buffer.from(text), text);
const NOTE = '---\ntitle: Ed\ncustom: keep\n---\n# Ed\nfirst line\nsecond line\n';

describe('looksHalfWritten: a version cut short by a writer still at work', () => {
  const cut: [string, string, string][] = [
    ['empty after a truncate', '', 'it is empty'],
    ['frontmatter opened and not closed', '---\ntitle: Ed\ncust', 'its frontmatter is opened and not closed'],
    ['cut mid-line, shorter', NOTE.slice(0, NOTE.length - 5), 'it ends mid-line'],
    ['a third shorter, cut at a line end', '---\ntitle: Ed\ncustom: keep\n---\n', 'it lost a third of its length or more'],
  ];
  it.each(cut)('%s', (_, now, why) => {
    expect(looksHalfWritten(shape(now), shape(NOTE))).toBe(why);
  });

  const complete: [string, string, string][] = [
    ['a line added', NOTE, `${NOTE}third line\n`],
    ['the same length, changed', NOTE, NOTE.replace('first', 'FIRST')],
    ['a line removed', NOTE, NOTE.replace('second line\n', '')],
    ['a note that never ended with a newline, shortened', NOTE.trimEnd(), NOTE.trimEnd().slice(0, -3)],
    ['a note opening with a --- rule and no block, still so', '---\nrule\ntext\n', '---\nrule\ntext and more\n'],
    ['a first version written (nothing before)', '', 'anything'],
  ];
  it.each(complete)('not for %s', (_, before, now) => {
    expect(looksHalfWritten(shape(now), shape(before))).toBeUndefined();
  });

  it('measures against the size alone when only that is known', () => {
    expect(looksHalfWritten(shape('---\ntitle: E'), { size: NOTE.length })).toBe('its frontmatter is opened and not closed');
    expect(looksHalfWritten(shape('short\n'), { size: NOTE.length })).toBe('it lost a third of its length or more');
    expect(looksHalfWritten(shape(`${NOTE}more`), { size: NOTE.length })).toBeUndefined();
  });
});
