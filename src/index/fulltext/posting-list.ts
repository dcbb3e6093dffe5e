/**
 * One word's notes in one field, as MiniSearch holds them (short note id →
 * term frequency), kept in a typed array instead of a Map entry per note.
 *
 * At 100,000 generated notes the index holds 16 M postings. As MiniSearch's
 * nested Maps they took 804 MB of heap and 5.3 s to rebuild from the cache
 * (BENCHMARKS.md, issue 17). Here a list is a slice of one Int32Array of
 * (note, frequency) pairs in ascending note order: 8 bytes a posting, read
 * straight from the cache file, and walked by ranking in a plain loop.
 *
 * It is a Map, so MiniSearch's own code (adding notes, vacuuming discarded
 * ones) works on it unchanged: a note added after the list was made (its
 * short id is always higher, MiniSearch never reuses one) goes into the Map
 * itself, and a posting deleted from the slice is marked with frequency 0.
 */
export class PostingList extends Map<number, number> {
  /** The slice's pairs are `pairs[start .. end)`. */
  private readonly pairs: Int32Array;
  private readonly start: number;
  private readonly end: number;
  /** The highest note id in the slice, or -1: higher ids live in the Map. */
  private readonly lastInSlice: number;
  /** Postings of the slice deleted since it was made. */
  private deleted = 0;

  /**
   * The list of `count` pairs of `pairs` from index `start`. Throws unless the
   * notes ascend and lie in [0, `noteIdLimit`), and every frequency is
   * positive: a damaged snapshot must be rebuilt, never trusted.
   */
  constructor(pairs: Int32Array, start: number, count: number, noteIdLimit: number) {
    super();
    this.pairs = pairs;
    this.start = start;
    this.end = start + count * 2;
    if (!Number.isInteger(start) || !Number.isInteger(count) || start < 0 || count < 0 || this.end > pairs.length) {
      throw new Error('The index snapshot has a bad posting list');
    }
    let previous = -1;
    for (let at = this.start; at < this.end; at += 2) {
      const doc = pairs[at] as number;
      if (doc <= previous || doc >= noteIdLimit || (pairs[at + 1] as number) <= 0) throw new Error('The index snapshot has a bad posting');
      previous = doc;
    }
    this.lastInSlice = previous;
  }

  /** Where `doc`'s pair is in the slice, or -1. */
  private find(doc: number): number {
    if (doc > this.lastInSlice) return -1;
    let low = 0;
    let high = (this.end - this.start) / 2 - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = this.start + middle * 2;
      const found = this.pairs[at] as number;
      if (found === doc) return at;
      if (found < doc) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  override get size(): number {
    return (this.end - this.start) / 2 - this.deleted + super.size;
  }

  override get(doc: number): number | undefined {
    const at = this.find(doc);
    if (at < 0) return super.get(doc);
    const frequency = this.pairs[at + 1] as number;
    return frequency > 0 ? frequency : undefined;
  }

  override has(doc: number): boolean {
    return this.get(doc) !== undefined;
  }

  override set(doc: number, frequency: number): this {
    const at = this.find(doc);
    if (at < 0) return super.set(doc, frequency);
    if ((this.pairs[at + 1] as number) <= 0) this.deleted--;
    this.pairs[at + 1] = frequency;
    return this;
  }

  override delete(doc: number): boolean {
    const at = this.find(doc);
    if (at < 0) return super.delete(doc);
    if ((this.pairs[at + 1] as number) <= 0) return false;
    this.pairs[at + 1] = 0;
    this.deleted++;
    return true;
  }

  override clear(): void {
    for (let at = this.start; at < this.end; at += 2) this.pairs[at + 1] = 0;
    this.deleted = (this.end - this.start) / 2;
    super.clear();
  }

  override forEach(callback: (frequency: number, doc: number, map: Map<number, number>) => void, thisArg?: unknown): void {
    const { pairs, end } = this;
    for (let at = this.start; at < end; at += 2) {
      const frequency = pairs[at + 1] as number;
      if (frequency > 0) callback.call(thisArg, frequency, pairs[at] as number, this);
    }
    super.forEach(callback, thisArg);
  }

  override *entries(): MapIterator<[number, number]> {
    for (let at = this.start; at < this.end; at += 2) {
      const frequency = this.pairs[at + 1] as number;
      if (frequency > 0) yield [this.pairs[at] as number, frequency];
    }
    yield* super.entries();
  }

  override *keys(): MapIterator<number> {
    for (const [doc] of this.entries()) yield doc;
  }

  override *values(): MapIterator<number> {
    for (const [, frequency] of this.entries()) yield frequency;
  }

  override [Symbol.iterator](): MapIterator<[number, number]> {
    return this.entries();
  }
}
