import { describe, expect, it } from 'vitest';
import { fileNameForTitle, folderNameProblem, MAX_FOLDER_DEPTH, numberedName, printable } from '../../src/storage/filenames.js';

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
    ['a\u202Eexe.md', 'aexe.md', false],
    ['zero\u200Bwidth\uFEFF', 'zerowidth', false],
    ['family 👨\u200D👩\u200D👧', 'family 👨\u200D👩\u200D👧', true],
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

describe('folderNameProblem: a folder given for a note follows the rules of a file name made from a title', () => {
  it.each([
    ['Projects/Alpha', undefined],
    ['Famille 👨\u200D👩\u200D👧/Été', undefined],
    ['a\u202Eexe.md', 'it contains invisible or text-direction characters'],
    ['Work/x\u2066y', 'it contains invisible or text-direction characters'],
    ['Work/\u200B', 'it contains invisible or text-direction characters'],
    ['Work/c1\u0085', 'it contains invisible or text-direction characters'],
    ['con', '"con" is a name Windows reserves for a device'],
    ['Work/NUL.txt', '"NUL.txt" is a name Windows reserves for a device'],
    ['Work/com1', '"com1" is a name Windows reserves for a device'],
    ['Work/console', undefined],
    ['Work/v1.', 'a folder name in it ends with a dot or a space, which Windows drops'],
    ['Work/v1 /x', 'a folder name in it ends with a dot or a space, which Windows drops'],
    [Array.from({ length: MAX_FOLDER_DEPTH }, () => 'd').join('/'), undefined],
    [Array.from({ length: MAX_FOLDER_DEPTH + 1 }, () => 'd').join('/'), `it is ${MAX_FOLDER_DEPTH + 1} folders deep, and folders may be at most ${MAX_FOLDER_DEPTH} deep`],
  ])('%j', (folder, problem) => {
    expect(folderNameProblem(folder)).toBe(problem);
  });
});

describe('printable', () => {
  it('escapes control, invisible and text-direction characters and keeps the rest', () => {
    expect(printable('a\u202Eexe.md')).toBe('a\\u202Eexe.md');
    expect(printable('tab\there\nline\u0000')).toBe('tab\\u0009here\\u000Aline\\u0000');
    expect(printable('Été 👨\u200D👩 ok')).toBe('Été 👨\u200D👩 ok');
  });
});
