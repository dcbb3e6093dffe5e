/**
 * The parts of a MiniSearch 7.2 instance that the ranked query and the
 * binary snapshot read and fill. MiniSearch keeps them private; the version
 * is pinned in package.json, and tests check both uses against MiniSearch's
 * own `search` and `loadJS`.
 */

/** Term frequencies of one term: field id → (short document id → frequency). */
export type FieldPostings = Map<number, Map<number, number>>;

export interface TermMap {
  get(term: string): FieldPostings | undefined;
  set(term: string, postings: FieldPostings): unknown;
  atPrefix(prefix: string): Iterable<[string, FieldPostings]>;
  fuzzyGet(term: string, maxDistance: number): Map<string, [FieldPostings, number]>;
  [Symbol.iterator](): Iterator<[string, FieldPostings]>;
}

export interface Internals {
  _index: TermMap;
  /** Short id → note id; a discarded note's short id is gone from here but may linger in postings. */
  _documentIds: Map<number, string>;
  _idToShortId: Map<string, number>;
  _fieldIds: Record<string, number>;
  /** Short id → words per field. */
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _documentCount: number;
  _nextId: number;
  _dirtCount: number;
}

/** `engine` is a MiniSearch instance. */
export function internals(engine: object): Internals {
  return engine as unknown as Internals;
}
