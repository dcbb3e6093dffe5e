import { describe, expect, it } from 'vitest';
import { boundaryKey, createPolicy, SHARED_NOTES_KEY, type KnownFolders } from '../../src/access/policy.js';
import { KeptPerVisibleSet } from '../../src/index/fulltext/visibility.js';

/** Folders as the catalog resolves them: exact spelling, else the one folder that folds alike. */
function folders(...names: string[]): KnownFolders {
  return {
    findFolder(name) {
      if (names.includes(name)) return name;
      const alike = names.filter((folder) => folder.toLowerCase() === name.toLowerCase());
      return alike.length === 1 ? alike[0] : undefined;
    },
  };
}

describe('boundaryKey', () => {
  // [first boundary, second boundary, the vault's folders, same key]
  const cases: [Parameters<typeof createPolicy>[0], Parameters<typeof createPolicy>[0], string[], boolean][] = [
    [{ folder: 'Work' }, { folder: 'Work' }, ['Work'], true],
    [{ folder: 'Work', scopes: ['notes:read'] }, { folder: 'Work' }, ['Work'], true],
    // One real folder, named in two cases: the same notes.
    [{ folder: 'work' }, { folder: 'Work' }, ['Work'], true],
    // Two look-alikes: `work` stands for none of them, `Work` for the one spelt so.
    [{ folder: 'work' }, { folder: 'Work' }, ['Work', 'WORK'], false],
    [{ folder: 'Work' }, { folder: 'Work/Sub' }, ['Work', 'Work/Sub'], false],
    [{ tag: 'work' }, { tag: '#work' }, [], true],
    [{ tag: 'work' }, { tag: 'home' }, [], false],
    [{ folder: 'Work', tag: 'work' }, { folder: 'Work' }, ['Work'], false],
    [{ folder: 'Work', tag: 'work' }, { tag: 'work' }, ['Work'], false],
  ];
  it.each(cases)('%j and %j over %j: same key %s', (a, b, names, same) => {
    const known = folders(...names);
    expect(boundaryKey(createPolicy(a), known) === boundaryKey(createPolicy(b), known)).toBe(same);
    expect(boundaryKey(createPolicy(a), known)).not.toBe(SHARED_NOTES_KEY);
  });

  it('follows the folder a boundary stands for as folders come and go', () => {
    const policy = createPolicy({ folder: 'work' });
    const before = boundaryKey(policy, folders('Work'));
    expect(boundaryKey(policy, folders('Work', 'WORK'))).not.toBe(before);
    expect(boundaryKey(policy, folders('Work'))).toBe(before);
  });
});

describe('KeptPerVisibleSet', () => {
  it('keeps an entry by key while the version holds, none for a bare test, and lets the least recently used go', () => {
    const kept = new KeptPerVisibleSet<{ version: number; name: string }>(2);
    kept.set(undefined, { version: 1, name: 'bare' });
    expect(kept.size).toBe(0);
    kept.set('a', { version: 1, name: 'a' });
    kept.set('b', { version: 1, name: 'b' });
    expect(kept.get('a', 1)?.name).toBe('a');
    kept.set('c', { version: 1, name: 'c' });
    // `b` was used least recently.
    expect(kept.get('b', 1)).toBeUndefined();
    expect(kept.get('a', 1)?.name).toBe('a');
    // The index changed: every entry made before is stale.
    expect(kept.get('a', 2)).toBeUndefined();
    expect(kept.size).toBe(0);
  });
});
