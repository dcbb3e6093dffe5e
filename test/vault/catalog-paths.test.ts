import { afterEach, describe, expect, it, vi } from 'vitest';
import { Catalog, FIRST_READ_MEMORY_MS } from '../../src/vault/catalog.js';
import { catalogRecord as record } from '../support/records.js';

type Step = ['place' | 'unplace', string, string] | ['ask', string, boolean];

describe('Catalog.pathTakenIgnoringCase: kept in step once asked', () => {
  const cases: [string, Step[]][] = [
    ['another case of a path', [['place', 'a', 'Notes/Plan.md'], ['ask', 'notes/PLAN.md', true], ['ask', 'Notes/Plan 2.md', false]]],
    ['another normalisation', [['place', 'a', 'Cafe\u0301.md'], ['ask', 'CAFÉ.md', true]]],
    ['placed after the first ask', [['ask', 'x.md', false], ['place', 'x', 'X.md'], ['ask', 'x.md', true]]],
    ['removed after the first ask', [['place', 'x', 'X.md'], ['ask', 'x.md', true], ['unplace', 'x', 'X.md'], ['ask', 'x.md', false]]],
    ['moved: the old path is free', [['place', 'x', 'A/X.md'], ['ask', 'a/x.md', true], ['place', 'x', 'B/X.md'], ['ask', 'a/x.md', false], ['ask', 'b/x.md', true]]],
    ['two paths that fold alike: taken until both are gone', [['place', 'x', 'X.md'], ['place', 'y', 'x.md'], ['ask', 'X.MD', true], ['unplace', 'x', 'X.md'], ['ask', 'X.MD', true], ['unplace', 'y', 'x.md'], ['ask', 'X.MD', false]]],
    ['placed again at the same path: counted once', [['place', 'x', 'X.md'], ['ask', 'x.md', true], ['place', 'x', 'X.md'], ['unplace', 'x', 'X.md'], ['ask', 'x.md', false]]],
    ['an unplace of a path another note holds changes nothing', [['place', 'x', 'X.md'], ['ask', 'x.md', true], ['unplace', 'y', 'X.md'], ['ask', 'x.md', true]]],
  ];
  it.each(cases)('%s', (_name, steps) => {
    const catalog = new Catalog();
    for (const step of steps) {
      if (step[0] === 'ask') expect(catalog.pathTakenIgnoringCase(step[1]), step[1]).toBe(step[2]);
      else if (step[0] === 'place') catalog.place(record(step[1], step[2]));
      else catalog.unplace(record(step[1], step[2]));
    }
  });
});

describe('Catalog.takeGone: a vanished note waits for its content at a new path', () => {
  const gone = { ...record('x', 'Old.md'), size: 10 };
  afterEach(() => vi.useRealTimers());

  it('for 30 s while the server watches, through a whole first read at start', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const watching = new Catalog();
    watching.rememberGone(gone);
    vi.setSystemTime(1_000_000 + 31_000);
    expect(watching.takeGone(gone.hash)).toBeUndefined();

    vi.setSystemTime(1_000_000);
    const starting = new Catalog();
    starting.rememberGone(gone, FIRST_READ_MEMORY_MS);
    // A first read of a large vault reaches the new path a minute or two later.
    vi.setSystemTime(1_000_000 + 125_000);
    expect(starting.takeGone(gone.hash)?.id).toBe('x');
    expect(starting.takeGone(gone.hash)).toBeUndefined();
  });
});
