import { describe, expect, it } from 'vitest';
import { fileNameDate, keptDates, noteDates, presentKey, statedDate, CREATED_KEYS, UPDATED_KEYS } from '../../src/format/dates.js';
import { challengerKeepsId, pathId, uuidV5 } from '../../src/format/identity.js';

const local = (y: number, m: number, d: number): number => new Date(y, m - 1, d).getTime();

describe('pathId', () => {
  it('is an RFC 9562 version 5 UUID, the same for the same path on every run', () => {
    const id = pathId('Projects/Alpha/Plan.md');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(pathId('Projects/Alpha/Plan.md')).toBe(id);
  });

  it('matches the standard v5 construction (RFC 9562 appendix example: www.example.com in the DNS namespace)', () => {
    const dns = Buffer.from('6ba7b8109dad11d180b400c04fd430c8', 'hex');
    expect(uuidV5(dns, 'www.example.com')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it.each([
    ['NFC and NFD spellings of one name', 'Caf\u00e9.md', 'Cafe\u0301.md', true],
    ['two paths', 'A.md', 'B.md', false],
    ['case matters, as on Linux', 'note.md', 'Note.md', false],
  ])('%s', (_what, a, b, same) => {
    expect(pathId(a) === pathId(b)).toBe(same);
  });

  it('differs in a teammate vault, and for the next candidate', () => {
    expect(pathId('A.md', 'bob')).not.toBe(pathId('A.md'));
    expect(pathId('A.md', 'bob')).not.toBe(pathId('A.md', 'alice'));
    expect(pathId('A.md', '', 2)).not.toBe(pathId('A.md'));
  });
});

describe('challengerKeepsId: two files claiming one id', () => {
  it.each([
    ['the holder was known first', { path: 'A.md', established: false }, { path: 'Long/B.md', established: true }, false],
    ['the challenger was known first (cache)', { path: 'Long/B.md', established: true }, { path: 'A.md', established: false }, true],
    ['met at once: the shorter path', { path: 'Note.md', established: false }, { path: 'Note 1.md', established: false }, true],
    ['met at once: a longer path loses', { path: 'Note copy.md', established: false }, { path: 'Note.md', established: false }, false],
    ['met at once, same length: code-point order', { path: 'A/N.md', established: false }, { path: 'B/N.md', established: false }, true],
    ['both known: the same rule', { path: 'B/N.md', established: true }, { path: 'A/N.md', established: true }, false],
  ])('%s', (_what, challenger, holder, wins) => {
    expect(challengerKeepsId(challenger, holder)).toBe(wins);
    // The rule is a total order: swapping the two gives the other answer.
    expect(challengerKeepsId(holder, challenger)).toBe(!wins);
  });
});

describe('noteDates', () => {
  const file = { birthtimeMs: 5_000, mtimeMs: 9_000 };
  it.each([
    ['file times only', { ...file }, 5_000, 9_000],
    ['stated dates win over git and the file', { ...file, statedCreatedMs: 1_000, statedUpdatedMs: 2_000, gitFirstAddedMs: 3_000, gitLastCommitMs: 4_000 }, 1_000, 2_000],
    ['git over the file', { ...file, gitFirstAddedMs: 3_000, gitLastCommitMs: 4_000 }, 3_000, 4_000],
    ['git created, file updated (changed since its last commit)', { ...file, gitFirstAddedMs: 3_000 }, 3_000, 9_000],
    ['no birth time: the modification time', { birthtimeMs: 0, mtimeMs: 9_000 }, 9_000, 9_000],
    ['a copy born after its modification time: created brought down', { birthtimeMs: 12_000, mtimeMs: 9_000 }, 9_000, 9_000],
    ['a stated created after a stated updated: created brought down', { ...file, statedCreatedMs: 8_000, statedUpdatedMs: 7_000 }, 7_000, 7_000],
    ['moved: the dates it had, not the new file birth and times', { birthtimeMs: 50_000, mtimeMs: 50_000, keptCreatedMs: 1_000, keptUpdatedMs: 2_000 }, 1_000, 2_000],
    ['moved, the rename committed since: the earlier created, the kept updated', { ...file, keptCreatedMs: 1_500, keptUpdatedMs: 2_000, gitFirstAddedMs: 1_000, gitLastCommitMs: 4_000 }, 1_000, 2_000],
    ['moved before its first commit: created when it was made, not committed', { ...file, keptCreatedMs: 1_000, gitFirstAddedMs: 3_000 }, 1_000, 9_000],
    ['a stated updated left behind by an edit seen: the edit', { ...file, statedUpdatedMs: 2_000, editedMs: 8_000 }, 5_000, 8_000],
    ['a stated updated later than the edit seen: the stated', { ...file, statedUpdatedMs: 8_500, editedMs: 8_000 }, 5_000, 8_500],
    ['an edit seen that is the last commit (a pull): the commit', { ...file, statedUpdatedMs: 2_000, editedMs: 8_000, gitLastCommitMs: 6_000 }, 5_000, 6_000],
    ['no edit seen: the stated, whatever git says', { ...file, statedUpdatedMs: 2_000, gitLastCommitMs: 6_000 }, 2_000, 2_000],
  ])('%s', (_what, facts, created, updated) => {
    expect(noteDates(facts)).toEqual({ createdMs: created, updatedMs: updated });
  });
});

describe('keptDates: what a note hands on to its next record', () => {
  const before = { path: 'a.md', hash: 'h1', createdMs: 1_000, updatedMs: 2_000, mtimeMs: 2_000 };
  it('across a move: created, and updated while the content is the same', () => {
    expect(keptDates({ path: 'b/a.md', hash: 'h1', mtimeMs: 9_000 }, before)).toEqual({ keptCreatedMs: 1_000, keptUpdatedMs: 2_000 });
  });
  it('across a move with an edit: created, and the edit', () => {
    expect(keptDates({ path: 'b/a.md', hash: 'h2', mtimeMs: 9_000 }, before)).toEqual({ keptCreatedMs: 1_000, editedMs: 9_000 });
  });
  it('across an edit in place: what it kept from an earlier move, and the edit', () => {
    const moved = { ...before, keptCreatedMs: 500, keptUpdatedMs: 600 };
    expect(keptDates({ path: 'a.md', hash: 'h2', mtimeMs: 9_000 }, moved)).toEqual({ keptCreatedMs: 500, editedMs: 9_000 });
    expect(keptDates({ path: 'a.md', hash: 'h1', mtimeMs: 9_000 }, { ...moved, editedMs: 700 })).toEqual({ keptCreatedMs: 500, keptUpdatedMs: 600, editedMs: 700 });
  });
  it("the server's own write is no edit seen: an edit seen before stays, none is added", () => {
    expect(keptDates({ path: 'a.md', hash: 'h2', mtimeMs: 9_000 }, before, false)).toEqual({});
    expect(keptDates({ path: 'a.md', hash: 'h2', mtimeMs: 9_000 }, { ...before, editedMs: 700 }, false)).toEqual({ editedMs: 700 });
  });
  it('nothing from a note read afresh at its own path with nothing kept', () => {
    expect(keptDates({ path: 'a.md', hash: 'h1', mtimeMs: 9_000 }, before)).toEqual({});
  });
});

describe('stated dates', () => {
  it.each([
    [{ created: '2024-05-01' }, local(2024, 5, 1)],
    [{ date: '2023-07-26' }, local(2023, 7, 26)],
    [{ 'date created': '2022-01-02T03:04:05Z' }, Date.parse('2022-01-02T03:04:05Z')],
    [{ created: '2024-05-01', date: '2020-01-01' }, local(2024, 5, 1)],
    [{ created: 'sometime', date: '2020-01-01' }, local(2020, 1, 1)],
    [{ created: '' }, undefined],
    [{}, undefined],
  ])('created of %j', (data, expected) => {
    expect(statedDate(data, CREATED_KEYS)).toBe(expected);
  });

  it.each([
    [{ updated: '2024-05-01' }, 'updated'],
    [{ modified: 'x' }, 'modified'],
    [{ 'date modified': '2024-05-01', updated: '2024-05-02' }, 'updated'],
    [{ created: '2024-05-01' }, undefined],
  ])('the key an edit moves in %j', (data, key) => {
    expect(presentKey(data, UPDATED_KEYS)).toBe(key);
  });
});

describe('fileNameDate', () => {
  it.each([
    ['Daily/2025-04-01.md', local(2025, 4, 1)],
    ['2025-04-01 Standup.md', local(2025, 4, 1)],
    ['Journal/2025-04-01-retro.md', local(2025, 4, 1)],
    ['2025-04-0123.md', undefined],
    ['2025-02-30.md', undefined],
    ['Notes on 2025-04-01.md', undefined],
    ['2025-04-01/Plan.md', undefined],
  ])('%s', (vaultPath, expected) => {
    expect(fileNameDate(vaultPath)).toBe(expected);
  });
});
