import { describe, expect, it } from 'vitest';
import {
  boundaryFolder,
  createPolicy,
  folderInBoundary,
  folderVisible,
  keepsBoundaryTag,
  noteInBoundary,
  parseScopes,
  sharedNotesVisible,
  type KnownFolders,
} from '../../src/access/policy.js';
import { resolveName } from '../../src/storage/names.js';
import { FolderNotFoundError, InvalidInputError } from '../../src/vault/errors.js';
import { resolveFolderFilter } from '../../src/tools/list-notes.js';

/** A vault holding these folders (and their parents), as the catalog resolves names in it. */
function known(...folders: string[]): KnownFolders {
  const all = new Set<string>();
  for (const folder of folders) {
    const parts = folder.split('/');
    for (let i = 1; i <= parts.length; i++) all.add(parts.slice(0, i).join('/'));
  }
  return { findFolder: (name) => resolveName(name, all) };
}

/** The folders a vault holding only this note has. */
const own = (folder: string | null): KnownFolders => (folder === null ? known() : known(folder));

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
    expect(noteInBoundary(policy, { folder, tags }, own(folder))).toBe(expected);
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
    expect(folderVisible(policy, folder, holds, own(folder))).toBe(expected);
  });

  it('treats the root as outside a folder boundary', () => {
    expect(folderInBoundary(work, null)).toBe(false);
    expect(folderInBoundary(work, null, known('Work'))).toBe(false);
  });
});

describe('a folder boundary stands for one real folder', () => {
  const KELVIN = 'WOR\u212A';
  const lookAlikes = known('Work/Sub', 'WORK/Sub', 'work', KELVIN);

  it.each([
    ['Work', true],
    ['Work/Sub', true],
    ['WORK', false],
    ['WORK/Sub', false],
    ['work', false],
    [KELVIN, false],
    ['Workshop', false],
  ])('--folder Work beside its look-alikes: %j inside %s', (folder, expected) => {
    expect(folderInBoundary(work, folder, lookAlikes)).toBe(expected);
    expect(noteInBoundary(work, { folder, tags: [] }, lookAlikes)).toBe(expected);
    expect(folderVisible(work, folder, true, lookAlikes)).toBe(expected);
  });

  it('is the only folder that differs from it just in case, when there is one', () => {
    const lower = known('work/sub', 'Home');
    expect(boundaryFolder(work, lower)).toBe('work');
    expect(folderInBoundary(work, 'work', lower)).toBe(true);
    expect(folderInBoundary(work, 'work/sub', lower)).toBe(true);
    expect(folderInBoundary(work, 'Home', lower)).toBe(false);
    expect(boundaryFolder(createPolicy({ folder: 'wor\u212A' }), lower)).toBe('work');
    expect(boundaryFolder(createPolicy({ folder: 'STRASSE' }), known('Straße'))).toBe('Straße');
  });

  it('matches only its exact spelling when the look-alikes are ambiguous, or none exists yet', () => {
    const ambiguous = known('WORK', 'work');
    expect(boundaryFolder(work, ambiguous)).toBe('Work');
    expect(folderInBoundary(work, 'WORK', ambiguous)).toBe(false);
    expect(folderInBoundary(work, 'work', ambiguous)).toBe(false);
    // create_note makes Work/, which is then inside.
    expect(folderInBoundary(work, 'Work', known('WORK', 'work', 'Work'))).toBe(true);
    expect(boundaryFolder(work, known('Home'))).toBe('Work');
  });

  it('follows the folders as they are now: a folder appearing or going changes what the boundary is', () => {
    expect(folderInBoundary(work, 'work', known('work'))).toBe(true);
    expect(folderInBoundary(work, 'work', known('work', 'WORK'))).toBe(false);
    expect(folderInBoundary(work, 'work', known('work', 'Work'))).toBe(false);
  });

  it('without the vault\'s folders, matches only the exact spelling', () => {
    expect(folderInBoundary(work, 'Work/Sub')).toBe(true);
    expect(folderInBoundary(work, 'work')).toBe(false);
    expect(folderInBoundary(work, 'WORK/Sub')).toBe(false);
  });

  it('resolves nested boundaries as whole paths', () => {
    const alpha = createPolicy({ folder: 'Projects/Alpha' });
    expect(folderInBoundary(alpha, 'projects/alpha/x', known('projects/alpha/x'))).toBe(true);
    expect(folderInBoundary(alpha, 'projects/alpha', known('projects/alpha', 'Projects/ALPHA'))).toBe(false);
    expect(folderInBoundary(alpha, 'Projects/Alpha', known('projects/alpha', 'Projects/Alpha'))).toBe(true);
  });
});

describe('folder filters (list_notes folder)', () => {
  const visible = ['Work', 'work', 'Home', 'Projects/Alpha'];

  it.each([
    ['Work', 'Work'],
    ['work', 'work'],
    ['/Work/', 'Work'],
    ['home', 'Home'],
    ['PROJECTS/ALPHA', 'Projects/Alpha'],
  ])('%j → %j', (name, expected) => {
    expect(resolveFolderFilter(name, visible)).toBe(expected);
  });

  it('refuses a name that several folders match and none spells exactly, naming them', () => {
    expect(() => resolveFolderFilter('WORK', visible)).toThrow(InvalidInputError);
    expect(() => resolveFolderFilter('WORK', visible)).toThrow(
      'The folder name "WORK" could mean "Work" or "work", which differ only in case; give the name exactly as list_folders shows it.',
    );
    expect(() => resolveFolderFilter('wor\u212A', [...visible, 'WORK'])).toThrow('could mean "WORK", "Work" or "work"');
  });

  it('says "Folder not found" when no folder matches', () => {
    expect(() => resolveFolderFilter('Nope', visible)).toThrow(FolderNotFoundError);
    expect(() => resolveFolderFilter('Nope', visible)).toThrow('Folder not found: Nope');
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
