import { describe, expect, it } from 'vitest';
import { describeRate, estimateRate, formatDuration, formatRate, recentSamples, type ProgressSample } from '../../src/cli/rate.js';

const at = (...pairs: [number, number][]): ProgressSample[] => pairs.map(([ms, done]) => ({ ms, done }));

describe('formatDuration', () => {
  it.each([
    [0, '1 s'],
    [0.4, '1 s'],
    [12.4, '12 s'],
    [59.4, '59 s'],
    [59.6, '1 min'],
    [89, '1 min'],
    [91, '2 min'],
    [3_569, '59 min'],
    [3_600, '1 h'],
    [3_900, '1 h 5 min'],
    [7_260, '2 h 1 min'],
    [-1, 'unknown'],
    [Number.POSITIVE_INFINITY, 'unknown'],
    [Number.NaN, 'unknown'],
  ])('%s s reads "%s"', (seconds, words) => {
    expect(formatDuration(seconds)).toBe(words);
  });
});

describe('formatRate', () => {
  it.each([
    [0.04, 'notes', '0.0 notes/s'],
    [4.25, 'notes', '4.3 notes/s'],
    [9.94, 'notes', '9.9 notes/s'],
    [10, 'notes', '10 notes/s'],
    [42.6, 'windows', '43 windows/s'],
    [1234.4, 'notes', '1,234 notes/s'],
  ])('%s a second of %s reads "%s"', (perSecond, unit, words) => {
    expect(formatRate(perSecond, unit)).toBe(words);
  });
});

describe('estimateRate', () => {
  it.each<[string, ProgressSample[], number, { perSecond: number; secondsLeft: number } | undefined]>([
    ['no samples', [], 100, undefined],
    ['one sample', at([0, 5]), 100, undefined],
    ['less than a second apart', at([0, 0], [900, 50]), 100, undefined],
    ['nothing done in between', at([0, 10], [5_000, 10]), 100, undefined],
    ['too few done to tell a rate', at([0, 0], [5_000, 1]), 1_511, undefined],
    ['as few as were left', at([0, 95], [5_000, 100]), 100, { perSecond: 1, secondsLeft: 0 }],
    ['a steady rate', at([0, 0], [10_000, 20]), 100, { perSecond: 2, secondsLeft: 40 }],
    ['from the first to the last sample only', at([1_000, 10], [2_000, 99], [11_000, 30]), 100, { perSecond: 2, secondsLeft: 35 }],
    ['done already', at([0, 0], [2_000, 100]), 100, { perSecond: 50, secondsLeft: 0 }],
    ['past the total (notes added since)', at([0, 0], [2_000, 120]), 100, { perSecond: 60, secondsLeft: 0 }],
  ])('%s', (_name, samples, total, expected) => {
    expect(estimateRate(samples, total)).toEqual(expected);
  });
});

describe('recentSamples', () => {
  it.each<[string, ProgressSample[], number, ProgressSample[]]>([
    ['none', [], 30_000, []],
    ['all within the window', at([0, 0], [10_000, 5], [20_000, 9]), 30_000, at([0, 0], [10_000, 5], [20_000, 9])],
    ['older ones dropped, one kept before the window', at([0, 0], [10_000, 5], [20_000, 9], [45_000, 20]), 30_000, at([10_000, 5], [20_000, 9], [45_000, 20])],
    ['a sample exactly at the window edge is inside', at([0, 0], [5_000, 1], [35_000, 9]), 30_000, at([0, 0], [5_000, 1], [35_000, 9])],
    ['only the newest and the one before a long gap', at([0, 0], [1_000, 1], [100_000, 50]), 30_000, at([1_000, 1], [100_000, 50])],
  ])('%s', (_name, samples, windowMs, expected) => {
    expect(recentSamples(samples, windowMs)).toEqual(expected);
  });
});

describe('describeRate', () => {
  it.each<[string, { perSecond: number; secondsLeft: number } | undefined, string]>([
    ['before a rate is known', undefined, 'measuring the rate'],
    ['seconds left', { perSecond: 42.4, secondsLeft: 30 }, '42 notes/s, about 30 s left'],
    ['minutes left', { perSecond: 3.14, secondsLeft: 250 }, '3.1 notes/s, about 4 min left'],
    ['hours left', { perSecond: 0.5, secondsLeft: 4_000 }, '0.5 notes/s, about 1 h 7 min left'],
  ])('%s', (_name, estimate, words) => {
    expect(describeRate(estimate, 'notes')).toBe(words);
  });
});
