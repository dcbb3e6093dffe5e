import { describe, expect, it } from 'vitest';
import { nearestBesideAnchor } from '../../src/access/meaning-calibration.js';

const hit = (id: string, score: number): { id: string; score: number } => ({ id, score });

describe('nearestBesideAnchor', () => {
  it.each([
    ['no anchor: every hit, best first', [hit('a', 0.5), hit('b', 0.7), hit('c', 0.6)], undefined, [0.7, 0.6, 0.5]],
    ['an anchor the vectors rank last (put first by full-text): left out', [hit('x', 0.3), hit('a', 0.7), hit('b', 0.6)], 'x', [0.7, 0.6]],
    ['an anchor among the vectors own nearest: kept', [hit('b', 0.65), hit('a', 0.7), hit('c', 0.6)], 'b', [0.7, 0.65, 0.6]],
    ['an anchor not among the hits: every hit', [hit('a', 0.7), hit('b', 0.6)], 'x', [0.7, 0.6]],
    ['no hits', [], 'x', []],
  ])('%s', (_case, hits, anchor, expected) => {
    expect(nearestBesideAnchor(hits, anchor)).toEqual(expected);
  });
});
