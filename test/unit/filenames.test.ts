import { describe, expect, it } from 'vitest';
import { fileNameForTitle, numberedName } from '../../src/files/filenames.js';

describe('fileNameForTitle', () => {
  it.each([
    ['Garden plan', 'Garden plan', true],
    ['', 'Untitled', false],
    ['   ', 'Untitled', false],
    ['Q3: plan/budget?', 'Q3- plan-budget-', false],
    ['../../etc/passwd', '-..-etc-passwd', false],
    ['.hidden', 'hidden', false],
    ['...', 'Untitled', false],
    ['trailing dots...', 'trailing dots', false],
    ['a\u0000b\nc', 'a-b-c', false],
    ['CON', 'CON_', false],
    ['lpt1.txt', 'lpt1.txt_', false],
    ['C:\\Windows', 'C--Windows', false],
    ['#tag [[link]] a|b', '-tag --link-- a-b', false],
    ['Cafe\u0301', 'Café', false],
    ['Café', 'Café', true],
    ['emoji 🌱', 'emoji 🌱', true],
  ])('%j → %j', (title, base, exact) => {
    expect(fileNameForTitle(title)).toEqual({ base, exact });
  });

  it('caps very long names in bytes without splitting a character', () => {
    const { base } = fileNameForTitle('é'.repeat(300));
    expect(Buffer.byteLength(base)).toBeLessThanOrEqual(200);
    expect(base).toBe('é'.repeat(100));
  });

  it.each([
    [1, 'Note'],
    [2, 'Note 2'],
    [3, 'Note 3'],
  ])('numberedName attempt %i', (attempt, name) => {
    expect(numberedName('Note', attempt)).toBe(name);
  });
});
