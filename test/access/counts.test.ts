import { describe, expect, it } from 'vitest';
import { createPolicy, type AccessPolicy } from '../../src/access/policy.js';
import { VaultView } from '../../src/access/view.js';
import type { SemanticIndexer } from '../../src/index/vectors/semantic-indexer.js';
import type { NoteRecord } from '../../src/vault/note.js';
import type { Vault } from '../../src/vault/vault.js';

/**
 * Issue 15, finding 5: counts of the whole vault reached bounded
 * connections ("5,214 of 15,019 notes read" under a 13-note boundary, and
 * the semantic `indexing` totals). A bounded connection is told only of
 * notes it sees, or of no count at all.
 */

const record = (n: number, folder: string | null): NoteRecord =>
  ({ id: `id-${n}`, path: `${folder ?? ''}/n${n}.md`, folder, title: `n${n}`, tags: [], shared: false, broken: false }) as unknown as NoteRecord;

/** 3 notes in Work/, 15,016 elsewhere; the first read is at 5,214 of 15,019. */
const NOTES = [...Array.from({ length: 3 }, (_, i) => record(i, 'Work')), ...Array.from({ length: 15_016 }, (_, i) => record(100 + i, 'Private'))];

function fakeVault(reading: boolean): Vault {
  return {
    ready: !reading,
    progress: reading ? { phase: 'reading', done: 5214, total: 15019 } : { phase: 'ready', done: 15019, total: 15019 },
    whenReady: async () => !reading,
    all: () => NOTES.values(),
    get: (id: string) => NOTES.find((note) => note.id === id),
    findFolder: (name: string) => (name === 'Work' || name === 'Private' ? name : undefined),
  } as unknown as Vault;
}

/** The semantic index has embedded 100 notes in full, one of them Work's id-0, and the opening of a third (id-200). */
function fakeSemantic(): SemanticIndexer {
  return {
    progress: () => ({ ready: false, embedded: 101, complete: 100, total: 15019, failed: 0 }),
    isEmbedded: (id: string) => id === 'id-0' || id === 'id-100' || id === 'id-200',
    isComplete: (id: string) => id === 'id-0' || id === 'id-100',
    hasFailed: () => false,
    embedderId: 'test',
  } as unknown as SemanticIndexer;
}

function view(policy: AccessPolicy, reading = false): VaultView {
  return new VaultView(fakeVault(reading), [], policy, { fulltext: new Map(), semantic: fakeSemantic() });
}

describe('counts a connection is told', () => {
  it.each([
    ['no boundary', createPolicy(), 'The vault is still being read (5,214 of 15,019 notes read); try again in a few seconds.'],
    ['a folder boundary', createPolicy({ folder: 'Work' }), 'The vault is still being read; try again in a few seconds.'],
    ['a tag boundary', createPolicy({ tag: '#work' }), 'The vault is still being read; try again in a few seconds.'],
  ])('while the vault is read, with %s', async (_what, policy, message) => {
    await expect(view(policy, true).assertReady()).rejects.toThrow(message);
  });

  it('embedding progress: the whole vault without a boundary, the visible notes alone with one', () => {
    // Counted over the notes the connection sees (here all 15,019), whatever the indexer's own counts say.
    expect(view(createPolicy()).embeddingProgress()).toEqual({ embedded: 2, searchable: 3, total: 15019 });
    expect(view(createPolicy({ folder: 'Work' })).embeddingProgress()).toEqual({ embedded: 1, searchable: 1, total: 3 });
  });

  it('find_similar on a note not embedded yet counts only visible notes under a boundary', async () => {
    await expect(view(createPolicy({ folder: 'Work' })).similarTo('id-1', 5)).rejects.toThrow(
      'That note has not been embedded yet (1 of 3 notes done); try again in a minute, or use semantic_search with its title.',
    );
    await expect(view(createPolicy()).similarTo('id-1', 5)).rejects.toThrow('(3 of 15,019 notes done)');
  });
});
