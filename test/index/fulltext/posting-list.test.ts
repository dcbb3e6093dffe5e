import { describe, expect, it } from 'vitest';
import { PostingList } from '../../../src/index/fulltext/posting-list.js';
import { createRng } from '../../support/random.js';

/** A list over pairs placed after `offset` other integers, as a snapshot places them. */
function listOf(pairs: readonly [number, number][], offset = 3, noteIdLimit = 1000): PostingList {
  const ints = new Int32Array(offset + pairs.length * 2 + 2).fill(-7);
  pairs.forEach(([doc, frequency], i) => {
    ints[offset + i * 2] = doc;
    ints[offset + i * 2 + 1] = frequency;
  });
  return new PostingList(ints, offset, pairs.length, noteIdLimit);
}

function contents(map: Map<number, number>): { entries: [number, number][]; each: [number, number][]; size: number } {
  const each: [number, number][] = [];
  map.forEach((frequency, doc) => each.push([doc, frequency]));
  return { entries: [...map], each, size: map.size };
}

describe('PostingList', () => {
  it.each([
    { name: 'notes not ascending', pairs: [[5, 1], [3, 1]] as [number, number][] },
    { name: 'a note twice', pairs: [[5, 1], [5, 2]] as [number, number][] },
    { name: 'a zero frequency', pairs: [[5, 0]] as [number, number][] },
    { name: 'a negative note', pairs: [[-1, 1]] as [number, number][] },
    { name: 'a note past the limit', pairs: [[1000, 1]] as [number, number][] },
  ])('refuses a slice with $name', ({ pairs }) => {
    expect(() => listOf(pairs)).toThrow(/bad posting/);
  });

  it('refuses a slice that runs past the array', () => {
    expect(() => new PostingList(new Int32Array(4), 2, 2, 10)).toThrow(/bad posting list/);
  });

  it('reads its slice as a Map and nothing around it', () => {
    const list = listOf([[2, 1], [7, 3], [40, 2]]);
    expect(contents(list)).toEqual({ entries: [[2, 1], [7, 3], [40, 2]], each: [[2, 1], [7, 3], [40, 2]], size: 3 });
    expect([list.get(7), list.get(8), list.has(40), list.has(41)]).toEqual([3, undefined, true, false]);
    expect([...list.keys()]).toEqual([2, 7, 40]);
    expect([...list.values()]).toEqual([1, 3, 2]);
    expect(list instanceof Map).toBe(true);
  });

  // MiniSearch adds notes with ever higher short ids (into the Map part),
  // bumps frequencies, and deletes postings when it vacuums.
  it('behaves like a Map under random operations', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rng = createRng(seed);
      const initial: [number, number][] = [];
      for (let doc = 0; doc < 200; doc++) if (rng() < 0.3) initial.push([doc, 1 + Math.floor(rng() * 5)]);
      const list = listOf(initial, Math.floor(rng() * 5), 400);
      const reference = new Map(initial);
      for (let step = 0; step < 300; step++) {
        const doc = Math.floor(rng() * 400);
        const roll = rng();
        if (roll < 0.35) {
          const frequency = 1 + Math.floor(rng() * 9);
          list.set(doc, frequency);
          reference.set(doc, frequency);
        } else if (roll < 0.7) {
          expect(list.delete(doc)).toBe(reference.delete(doc));
        } else if (roll < 0.72) {
          list.clear();
          reference.clear();
        } else {
          expect(list.get(doc)).toBe(reference.get(doc));
          expect(list.has(doc)).toBe(reference.has(doc));
        }
        expect(list.size).toBe(reference.size);
      }
      // The slice keeps its ascending order; notes set after it follow in insertion order.
      const sortedSlice = (entries: [number, number][]): [number, number][] => entries.sort((a, b) => a[0] - b[0]);
      expect(sortedSlice(contents(list).entries)).toEqual(sortedSlice([...reference]));
      expect(sortedSlice(contents(list).each)).toEqual(sortedSlice([...reference]));
    }
  });
});
