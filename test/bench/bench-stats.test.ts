import { describe, expect, it } from 'vitest';
import { median, percentile, summarize } from '../../bench/stats.js';

describe('median', () => {
  it('is the middle value of an odd count, whatever the order', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([7])).toBe(7);
  });

  it('is the mean of the two middle values of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([10, 20])).toBe(15);
  });

  it('does not reorder its input', () => {
    const samples = [3, 1, 2];
    median(samples);
    expect(samples).toEqual([3, 1, 2]);
  });
});

describe('percentile (nearest rank)', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted

  it('gives a measured value: p95 of 1..100 is 95, p100 the maximum', () => {
    expect(percentile(hundred, 95)).toBe(95);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 1)).toBe(1);
  });

  it('rounds the rank up on small samples: p95 of 20 values is the 19th', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(percentile(twenty, 95)).toBe(19);
    expect(percentile([1, 2, 3], 95)).toBe(3);
    expect(percentile([42], 95)).toBe(42);
  });

  it('takes a small p to the minimum', () => {
    expect(percentile([9, 8, 7], 0.001)).toBe(7);
  });

  it('refuses p outside (0, 100]', () => {
    expect(() => percentile([1], 0)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
    expect(() => percentile([1], Number.NaN)).toThrow(RangeError);
  });
});

describe('summarize', () => {
  it('gives count, min, max, mean, median and p95 together', () => {
    expect(summarize([2, 9, 4, 1, 4])).toEqual({ n: 5, min: 1, max: 9, mean: 4, median: 4, p95: 9 });
  });

  it('agrees with median and percentile', () => {
    const samples = [0.8, 1.2, 0.9, 3.4, 1.1, 15, 1.0, 0.95, 1.3, 2.2];
    const summary = summarize(samples);
    expect(summary.median).toBe(median(samples));
    expect(summary.p95).toBe(percentile(samples, 95));
  });
});

describe('bad samples', () => {
  it('refuses an empty sample rather than inventing a figure', () => {
    expect(() => median([])).toThrow(RangeError);
    expect(() => percentile([], 95)).toThrow(RangeError);
    expect(() => summarize([])).toThrow(RangeError);
  });

  it('refuses NaN and infinities', () => {
    expect(() => median([1, Number.NaN])).toThrow(RangeError);
    expect(() => summarize([1, Number.POSITIVE_INFINITY])).toThrow(RangeError);
  });
});
