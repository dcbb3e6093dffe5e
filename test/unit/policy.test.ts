import { describe, expect, it } from 'vitest';
import {
  createPolicy,
  folderInBoundary,
  folderVisible,
  keepsBoundaryTag,
  noteInBoundary,
  parseScopes,
  sharedNotesVisible,
} from '../../src/access/policy.js';

const open = createPolicy();
const work = createPolicy({ folder: 'Work' });
const ml = createPolicy({ tag: '#ml' });
const both = createPolicy({ folder: 'Work/', tag: 'ml' });

describe('noteInBoundary', () => {
  it.each([
    [open, null, [], true],
    [work, 'Work', [], true],
    [work, 'work/sub', [], true],
    [work, 'Workshop', [], false],
    [work, null, [], false],
    [work, 'Home', [], false],
    [ml, null, ['#ml'], true],
    [ml, 'Any', ['#ml/papers'], true],
    [ml, 'Any', ['#mlops'], false],
    [ml, 'Any', ['@ml'], false],
    [both, 'Work/x', ['#ml'], true],
    [both, 'Work/x', ['#other'], false],
    [both, 'Home', ['#ml'], false],
  ])('policy %#: folder %j tags %j → %s', (policy, folder, tags, expected) => {
    expect(noteInBoundary(policy, { folder, tags })).toBe(expected);
  });
});

describe('folders', () => {
  it.each([
    [open, 'Anything', false, true],
    [work, 'Work', false, true],
    [work, 'Work/Empty', false, true],
    [work, 'Home', true, false],
    [ml, 'Home', false, false],
    [ml, 'Home', true, true],
  ])('policy %#: %s (holds in-boundary note %s) visible %s', (policy, folder, holds, expected) => {
    expect(folderVisible(policy, folder, holds)).toBe(expected);
  });

  it('treats the root as outside a folder boundary', () => {
    expect(folderInBoundary(work, null)).toBe(false);
  });
});

describe('scopes and boundaries', () => {
  it.each([
    ['notes:read', ['notes:read']],
    ['notes:read,notes:write', ['notes:read', 'notes:write']],
    [' notes:write ', ['notes:write']],
  ])('parses %j', (text, scopes) => {
    expect([...parseScopes(text)]).toEqual(scopes);
  });

  it.each(['notes:admin', '', 'read'])('rejects %j', (text) => {
    expect(() => parseScopes(text)).toThrow(/scope/);
  });

  it.each(['..', 'a/../b', '.git', ''])('rejects folder boundary %j', (folder) => {
    expect(() => createPolicy({ folder })).toThrow(/not a folder inside the vault/);
  });

  it('hides shared notes from bounded connections only', () => {
    expect(sharedNotesVisible(open)).toBe(true);
    expect(sharedNotesVisible(work)).toBe(false);
    expect(sharedNotesVisible(ml)).toBe(false);
  });

  it.each([
    [ml, ['#ml'], true],
    [ml, ['#ml/x'], true],
    [ml, ['#other'], false],
    [open, [], true],
  ])('keepsBoundaryTag %#', (policy, tags, expected) => {
    expect(keepsBoundaryTag(policy, tags)).toBe(expected);
  });
});
