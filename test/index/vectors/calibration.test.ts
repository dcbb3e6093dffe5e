import { describe, expect, it } from 'vitest';
import { applyCalibration, similarityFor } from '../../../src/index/vectors/calibration.js';
import { CALIBRATIONS } from '../../../src/index/vectors/calibration-table.js';

describe('the calibration table', () => {
  it.each(CALIBRATIONS.map((entry) => [entry.model, entry] as const))('%s has both maps, each increasing from (0, 0) to (1, 1) through 0.6', (_model, entry) => {
    for (const points of [entry.points, entry.notePoints]) {
      expect(points[0]).toEqual([0, 0]);
      expect(points[points.length - 1]).toEqual([1, 1]);
      for (let i = 1; i < points.length; i++) {
        const [x0, y0] = points[i - 1] as readonly [number, number];
        const [x1, y1] = points[i] as readonly [number, number];
        expect(x1).toBeGreaterThan(x0);
        expect(y1).toBeGreaterThan(y0);
      }
      expect(points.some(([, y]) => y === 0.6)).toBe(true);
    }
    expect(entry.noteFittedOn).not.toBe('');
  });
});

describe('similarityFor', () => {
  it("maps a note's cosine to another note through its own knots, lower than a query's", () => {
    const entry = CALIBRATIONS.find((candidate) => candidate.model === 'use-lite-512');
    if (!entry) throw new Error('use-lite-512 has a calibration');
    // A cosine typical of two USE-lite notes on different topics (median 0.57 on the labeled set).
    expect(similarityFor(entry.model, 'note')(0.57)).toBeLessThan(0.6);
    expect(similarityFor(entry.model, 'query')(0.57)).toBeGreaterThan(0.6);
    for (const raw of [0.2, 0.5, 0.6, 0.7, 0.8]) {
      expect(similarityFor(entry.model, 'note')(raw)).toBeCloseTo(applyCalibration(entry.notePoints, raw), 3);
      expect(similarityFor(entry.model, 'query')(raw)).toBeCloseTo(applyCalibration(entry.points, raw), 3);
    }
  });

  it.each(['query', 'note'] as const)('clamps the raw cosine for a model without a calibration (%s)', (kind) => {
    expect(similarityFor('no-such-model', kind)(0.7)).toBe(0.7);
    expect(similarityFor(undefined, kind)(-0.2)).toBe(0);
    expect(similarityFor(undefined, kind)(1.3)).toBe(1);
  });
});
