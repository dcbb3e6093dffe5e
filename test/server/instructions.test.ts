import { describe, expect, it } from 'vitest';
import { createPolicy, type Scope } from '../../src/access/policy.js';
import { instructionsBeforeVault } from '../../src/server/instructions.js';

/**
 * The orientation sent at initialize when the vault is still to come from
 * the client's roots (issue 34): what the command line decided, and no
 * word of notes it cannot know yet.
 */
describe('instructionsBeforeVault', () => {
  const cases: [string, { scopes?: Scope[]; folder?: string; tag?: string }, string[], string[]][] = [
    ['both scopes', {}, ['It may read and write, unless the vault folder cannot be written: then it is read-only.'], ['It is limited to']],
    ['read-only', { scopes: ['notes:read'] }, ['It is read-only.'], ['may read and write', 'It is limited to']],
    ['write-only', { scopes: ['notes:write'] }, ['It may write but not read, unless the vault folder cannot be written: then it is read-only.'], []],
    ['a folder and a tag', { folder: 'Work', tag: '#proj' }, ['It is limited to the folder Work and its subfolders and notes tagged #proj; nothing outside exists for it, and new notes are kept inside.'], []],
  ];
  it.each(cases)('%s', (_what, policy, said, unsaid) => {
    const lines = instructionsBeforeVault(createPolicy(policy)).split('\n');
    expect(lines[1]).toBe(
      "The vault is the first folder among the client's roots (or the folder the server was started in, when the client offers none); it is opened once the client has named it, and tools wait for it.",
    );
    for (const line of said) expect(lines).toContain(line);
    for (const words of unsaid) expect(lines.some((line) => line.includes(words)), words).toBe(false);
    // Nothing of the notes: no counts, no review decks.
    expect(lines.some((line) => /\bsees\b|Review decks|still being read/.test(line))).toBe(false);
  });
});
