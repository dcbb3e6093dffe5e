import { describe, expect, it } from 'vitest';
import { bestThreshold, distribution, fitCalibration, isotonicFit, precisionAround, probabilityThreshold, recallAt, reciprocalRank } from '../../bench/quality.js';
import { applyCalibration } from '../../src/index/vectors/calibration.js';

const relevant = new Set(['a', 'b']);

describe('ranking metrics', () => {
  it.each([
    [['a', 'x', 'b'], 5, 1],
    [['x', 'a', 'y'], 5, 0.5],
    [['x', 'y', 'z', 'w', 'v', 'a'], 5, 0],
    [[], 5, 0],
  ])('recall@k of %j', (ranked, k, expected) => {
    expect(recallAt(ranked, relevant, k)).toBe(expected);
  });

  it.each([
    [['a'], 1],
    [['x', 'b'], 0.5],
    [['x', 'y', 'z'], 0],
  ])('reciprocal rank of %j', (ranked, expected) => {
    expect(reciprocalRank(ranked, relevant)).toBe(expected);
  });
});

describe('calibration', () => {
  const pairs = [
    { score: 0.7, relevant: true },
    { score: 0.55, relevant: true },
    { score: 0.45, relevant: true },
    { score: 0.35, relevant: false },
    { score: 0.3, relevant: false },
    { score: 0.2, relevant: false },
  ];

  it('finds the score that separates relevant results best', () => {
    expect(bestThreshold(pairs)).toBeCloseTo(0.4, 5);
  });

  it('estimates P(relevant | score) monotonically and finds where it reaches one half', () => {
    const noisy = [
      { score: 0.1, relevant: false },
      { score: 0.2, relevant: true },
      { score: 0.3, relevant: false },
      { score: 0.4, relevant: false },
      { score: 0.5, relevant: true },
      { score: 0.6, relevant: false },
      { score: 0.7, relevant: true },
      { score: 0.8, relevant: true },
    ];
    expect(isotonicFit(noisy).map((point) => point.probability)).toEqual([0, 1 / 3, 1 / 3, 1 / 3, 0.5, 0.5, 1, 1]);
    expect(probabilityThreshold(noisy)).toBeCloseTo(0.45, 6);
    expect(probabilityThreshold(pairs)).toBeCloseTo(0.4, 6);
  });

  it('summarises a distribution: count, least, median, greatest', () => {
    expect(distribution([0.9, 0.1, 0.5])).toEqual({ count: 3, min: 0.1, median: 0.5, max: 0.9 });
    expect(distribution([0.2, 0.4, 0.6, 0.8])).toEqual({ count: 4, min: 0.2, median: 0.5, max: 0.8 });
    expect(distribution([])).toEqual({ count: 0, min: 0, median: 0, max: 0 });
  });

  it('splits precision around a threshold', () => {
    expect(precisionAround(pairs, 0.4)).toEqual({ above: { count: 3, precision: 1 }, below: { count: 3, precision: 0 } });
  });

  it('maps the threshold to 0.6, monotonically, within 0–1', () => {
    const knots = fitCalibration(pairs);
    expect(applyCalibration(knots, 0.4)).toBeCloseTo(0.6, 5);
    let previous = -1;
    for (let raw = -0.5; raw <= 1.2; raw += 0.01) {
      const value = applyCalibration(knots, raw);
      expect(value).toBeGreaterThanOrEqual(previous);
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(1);
      previous = value;
    }
    expect(applyCalibration(knots, 0.7)).toBeCloseTo(0.95, 5);
  });

  it.each([
    [[], 0.5, 0.5],
    [[[0, 0], [1, 1]], 2, 1],
    [[[0, 0], [0.5, 0.6], [1, 1]], 0.25, 0.3],
  ] as const)('applies knots %j to %d', (knots, raw, expected) => {
    expect(applyCalibration(knots, raw)).toBeCloseTo(expected, 6);
  });
});
