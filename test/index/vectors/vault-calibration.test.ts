import { describe, expect, it } from 'vitest';
import { applyCalibration } from '../../../src/index/vectors/calibration.js';
import {
  baselineOf,
  baselineSample,
  fitKnots,
  grownEnough,
  QUERY_BASELINE_CENTRE,
  QUERY_LEAST_AT06,
  quantile,
  standardScore,
  UNRELATED_ABOVE_06,
} from '../../../src/index/vectors/vault-calibration.js';

describe('baselineOf', () => {
  it.each([
    ['too few cosines', [0.5, 0.6, 0.7], undefined],
    ['a spread: its 90th percentile, and its standard deviation', [0.2, 0.4, 0.6, 0.8, 0.2, 0.4, 0.6, 0.8], { centre: 0.8, sd: Math.sqrt(0.4 / 7) }],
    ['all equal: the floor on the spread', [0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9], { centre: 0.9, sd: 0.02 }],
    ['a tenth nearest note above the 90th percentile: the centre is at it', [0.2, 0.4, 0.6, 0.8, 0.2, 0.4, 0.6, 0.8], { centre: 0.9, sd: Math.sqrt(0.4 / 7) }, [0.99, 0.98, 0.97, 0.96, 0.95, 0.94, 0.93, 0.92, 0.91, 0.9, 0.5]],
    ['a tenth nearest note below it: the centre stays', [0.2, 0.4, 0.6, 0.8, 0.2, 0.4, 0.6, 0.8], { centre: 0.8, sd: Math.sqrt(0.4 / 7) }, [0.99, 0.98, 0.97, 0.96, 0.95, 0.94, 0.93, 0.92, 0.91, 0.7]],
    ['fewer than ten nearest notes: they say nothing', [0.2, 0.4, 0.6, 0.8, 0.2, 0.4, 0.6, 0.8], { centre: 0.8, sd: Math.sqrt(0.4 / 7) }, [0.99, 0.98, 0.97]],
  ])('%s', (_case, cosines, expected, nearest: number[] = []) => {
    const baseline = baselineOf(cosines, nearest);
    if (expected === undefined) return expect(baseline).toBeUndefined();
    expect(baseline?.centre).toBeCloseTo(expected.centre, 9);
    expect(baseline?.sd).toBeCloseTo(expected.sd, 9);
  });
});

describe("baselineOf a question's cosines (centre at their median)", () => {
  const cosines = [0.2, 0.4, 0.6, 0.8, 0.2, 0.4, 0.6, 0.8];
  it.each([
    ['no nearest notes: the median', [], 0.4],
    ['a tenth nearest note above the median: the centre is at it', [0.99, 0.98, 0.97, 0.96, 0.95, 0.94, 0.93, 0.92, 0.91, 0.5], 0.5],
    ['a tenth nearest note below it: the median stays', [0.99, 0.98, 0.97, 0.96, 0.95, 0.94, 0.93, 0.92, 0.91, 0.3], 0.4],
  ])('%s', (_case, nearest, centre) => {
    expect(baselineOf(cosines, nearest, QUERY_BASELINE_CENTRE)?.centre).toBeCloseTo(centre, 9);
    expect(baselineOf(cosines, nearest, QUERY_BASELINE_CENTRE)?.sd).toBeCloseTo(Math.sqrt(0.4 / 7), 9);
  });
});

describe('standardScore', () => {
  it.each([
    [0.7, { centre: 0.5, sd: 0.1 }, 2],
    [0.5, { centre: 0.5, sd: 0.1 }, 0],
    [0.3, { centre: 0.5, sd: 0.05 }, -4],
  ])('%d against %j is %d', (raw, baseline, expected) => {
    expect(standardScore(raw, baseline)).toBeCloseTo(expected, 9);
  });
});

describe('quantile', () => {
  it.each([
    [[], 0.5, NaN],
    [[3, 1, 2], 0.5, 2],
    [[3, 1, 2], 0, 1],
    [[3, 1, 2], 1, 3],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9, 9],
  ])('%j at %d is %d', (values, q, expected) => {
    expect(quantile(values, q)).toEqual(expected);
  });
});

/** Standard scores: `count` evenly spread from `from` to `to`. */
const spread = (from: number, to: number, count: number): number[] => Array.from({ length: count }, (_, i) => from + ((to - from) * i) / (count - 1));

describe('fitKnots', () => {
  it.each([
    ['neighbours far above random pairs', spread(-2, 2, 1000), spread(3, 6, 100)],
    ['neighbours no higher than random pairs (a language the model cannot read)', spread(-2, 2, 1000), spread(-1, 1, 100)],
    ['no neighbours at all', spread(-2, 2, 1000), []],
    ['no sample at all', [], []],
  ])('%s: increasing, 0.3 at the baseline centre, 0.6 above all but the allowed share of random pairs', (_case, unrelated, related) => {
    const knots = fitKnots({ unrelated, related }, UNRELATED_ABOVE_06.note);
    for (let i = 1; i < knots.length; i++) {
      expect((knots[i] as [number, number])[0]).toBeGreaterThan((knots[i - 1] as [number, number])[0]);
      expect((knots[i] as [number, number])[1]).toBeGreaterThan((knots[i - 1] as [number, number])[1]);
    }
    expect(applyCalibration(knots, 0)).toBeCloseTo(0.3, 9);
    const above = unrelated.filter((z) => applyCalibration(knots, z) >= 0.6).length;
    expect(above).toBeLessThanOrEqual(unrelated.length * UNRELATED_ABOVE_06.note + 1);
  });

  it('puts the median neighbour at 0.8 and most neighbours at 0.6 or more when they stand clear of random pairs', () => {
    const related = spread(3, 6, 101);
    const knots = fitKnots({ unrelated: spread(-2, 2, 1000), related }, UNRELATED_ABOVE_06.note);
    expect(applyCalibration(knots, 4.5)).toBeCloseTo(0.8, 9);
    expect(related.filter((z) => applyCalibration(knots, z) >= 0.6).length).toBe(related.length);
  });

  it('lets a larger share of random pairs reach 0.6 for queries than for notes', () => {
    const unrelated = spread(-2, 2, 1000);
    const at06 = (share: number): number => (fitKnots({ unrelated, related: spread(3, 6, 100) }, share)[2] as [number, number])[0];
    expect(at06(UNRELATED_ABOVE_06.query)).toBeLessThan(at06(UNRELATED_ABOVE_06.note));
  });

  it('gives neighbours that stand no higher than random pairs no more than random pairs get', () => {
    const knots = fitKnots({ unrelated: spread(-2, 2, 1000), related: spread(-1, 1, 100) }, UNRELATED_ABOVE_06.note);
    expect(applyCalibration(knots, 1)).toBeLessThan(0.6);
  });
});

describe("fitKnots with a least 0.6 knot (a question's)", () => {
  it.each([
    ['random pairs all below the centre: the knot at the least', spread(-3, 0, 1000), QUERY_LEAST_AT06],
    ['random pairs well above it: the knot where the allowed share of them is', spread(-2, 4, 1001), 3.7],
  ])('%s', (_case, unrelated, at06) => {
    const knots = fitKnots({ unrelated, related: spread(3, 6, 100) }, UNRELATED_ABOVE_06.query, QUERY_LEAST_AT06);
    expect((knots[2] as [number, number])[0]).toBeCloseTo(at06, 9);
    expect(applyCalibration(knots, at06)).toBeCloseTo(0.6, 9);
    expect(applyCalibration(knots, at06 - 0.01)).toBeLessThan(0.6);
  });
});

describe('baselineSample', () => {
  const ids = Array.from({ length: 200 }, (_, i) => `note-${i}`);

  it('depends on the set alone, not its order', () => {
    expect(baselineSample([...ids].reverse(), 48)).toEqual(baselineSample(ids, 48));
    expect(baselineSample(ids, 48)).toHaveLength(48);
    expect(baselineSample(ids.slice(0, 10), 48)).toHaveLength(10);
  });

  it('takes a note of the old set, as the set grows, only if the old sample had it: notes come in only ahead of those they push out', () => {
    const before = new Set(baselineSample(ids.slice(0, 100), 20));
    const after = baselineSample(ids, 20);
    const fromOld = after.filter((id) => ids.indexOf(id) < 100);
    for (const id of fromOld) expect(before.has(id)).toBe(true);
    expect(after).toHaveLength(20);
  });
});

describe('grownEnough', () => {
  it.each([
    [100, 100, false],
    [100, 119, false],
    [100, 120, true],
    [100, 80, true],
    [0, 1, true],
    [24, 28, false],
    [24, 29, true],
  ])('fitted at %d, now %d: %s', (fittedAt, now, expected) => {
    expect(grownEnough(fittedAt, now)).toBe(expected);
  });
});

describe('applyCalibration on a fitted map', () => {
  it('reads a standard score below the first knot as 0 and above the last as 1', () => {
    const knots = fitKnots({ unrelated: spread(-2, 2, 1000), related: spread(3, 6, 100) }, UNRELATED_ABOVE_06.query);
    expect(applyCalibration(knots, -10)).toBe(0);
    expect(applyCalibration(knots, 100)).toBe(1);
    expect(standardScore(0.5, { centre: 0.5, sd: 0.1 })).toBe(0);
  });
});
