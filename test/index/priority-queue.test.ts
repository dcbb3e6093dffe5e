import { describe, expect, it } from 'vitest';
import { PriorityQueue } from '../../src/index/priority-queue.js';
import { createRng } from '../support/random.js';

describe('PriorityQueue', () => {
  it.each([
    ['highest first', [['a', 1], ['b', 3], ['c', 2]], ['b', 'c', 'a']],
    ['equal priorities in the order pushed', [['a', 5], ['b', 5], ['c', 5]], ['a', 'b', 'c']],
    ['negative and fractional priorities', [['a', -1], ['b', 0.5], ['c', -0.5]], ['b', 'c', 'a']],
    ['nothing', [], []],
  ] as const)('%s', (_what, pushes, order) => {
    const queue = new PriorityQueue<string>();
    for (const [item, priority] of pushes) queue.push(item, priority);
    const popped: string[] = [];
    for (let item = queue.pop(); item !== undefined; item = queue.pop()) popped.push(item);
    expect(popped).toEqual(order);
    expect(queue.size).toBe(0);
  });

  it('pops in the order a stable sort by priority gives, pushes and pops interleaved', () => {
    const rng = createRng(3);
    const queue = new PriorityQueue<number>();
    const model: { item: number; priority: number }[] = [];
    for (let step = 0; step < 5000; step++) {
      if (rng() < 0.6 || model.length === 0) {
        const priority = Math.floor(rng() * 50);
        queue.push(step, priority);
        model.push({ item: step, priority });
      } else {
        // The model's answer: highest priority, earliest pushed among equals.
        let best = 0;
        for (let i = 1; i < model.length; i++) if ((model[i]?.priority ?? 0) > (model[best]?.priority ?? 0)) best = i;
        expect(queue.pop()).toBe(model.splice(best, 1)[0]?.item);
      }
      expect(queue.size).toBe(model.length);
    }
  });
});
