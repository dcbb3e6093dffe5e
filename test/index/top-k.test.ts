import { describe, expect, it } from 'vitest';
import { TopK } from '../../src/index/top-k.js';
import { createRng } from '../support/random.js';

describe('TopK.admits', () => {
  it('says whether a push would keep the item, ties by id included', () => {
    const rng = createRng(5);
    for (const k of [0, 1, 3, 10]) {
      const kept = new TopK<{ id: string; score: number }>(k);
      for (let i = 0; i < 500; i++) {
        const item = { id: `n${Math.floor(rng() * 1000)}-${i}`, score: Math.floor(rng() * 20) };
        const admitted = kept.admits(item.score, item.id);
        kept.push(item);
        expect(kept.sorted().includes(item), `k ${k}, push ${i}`).toBe(admitted);
      }
    }
  });
});
