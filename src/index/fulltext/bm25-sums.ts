/**
 * The per-note sums of a ranked search (ranked-search.ts), by short id, in
 * typed arrays kept from one search to the next: each query word's BM25
 * over the postings it reaches, how many of the query's groups each note
 * holds, and the notes found cut into levels by that. Apart from the
 * MiniSearch subclass because none of it reads MiniSearch: the subclass
 * hands it the postings, the per-note table and the statistics of the
 * notes that count, and it adds them up the way `MiniSearch#search` does,
 * in the same order (a test checks the scores against it).
 */
import type { FieldPostings } from './engine-state.js';
import type { WordGroup } from './query-syntax.js';

/** One word of the index that a query word reaches, with its weight. */
export interface Expansion {
  term: string;
  weight: number;
  postings: FieldPostings;
}

/** A search's per-note sums, by short id; all zero between searches. */
export interface Sums {
  total: Float64Array;
  perWord: Float64Array;
  quality: Uint16Array;
  /** The notes a search touched, then those each query word matched: lists as long as the sums, filled from the start. */
  touched: Int32Array;
  matched: Int32Array[];
}

/** Zeroed sums for `slots` short ids. */
export function emptySums(slots: number): Sums {
  return { total: new Float64Array(slots), perWord: new Float64Array(slots), quality: new Uint16Array(slots), touched: new Int32Array(slots), matched: [] };
}

/** A field as BM25 weighs it: its id (undefined for a field the index never saw) and its boost. */
export interface WeightedField {
  id: number | undefined;
  boost: number;
}

/** What BM25 reads of the notes that count. */
export interface Bm25Notes {
  /** 1 for a note that counts, by short id: live, and seen by the connection. */
  live: Uint8Array;
  /** Words per field: `lengths[shortId * fieldCount + fieldId]`. */
  lengths: Float64Array;
  fieldCount: number;
  documentCount: number;
  averageFieldLength: readonly number[];
  /** Every note of a posting list counts (no visible set, nothing discarded): its size is its count. */
  allCount: boolean;
  bm25: { k: number; b: number; d: number };
}

/** What `addWordScores` leaves: how many notes it touched (`sums.touched`), and the notes each query word matched. */
export interface WordScores {
  touchedCount: number;
  matchedBy: Int32Array[];
}

/**
 * Adds each query word's BM25, over the index words it reaches
 * (`expansionsPerWord`) and the fields, into `sums.total`, and counts in
 * `sums.quality` how many distinct query words each note matched
 * (MiniSearch multiplies the sum by it).
 */
export function addWordScores(sums: Sums, expansionsPerWord: readonly Expansion[][], words: readonly string[], fields: readonly WeightedField[], notes: Bm25Notes): WordScores {
  const { total, quality, perWord } = sums;
  let touchedCount = 0;
  // The notes each query word matched, for the groups.
  const matchedBy: Int32Array[] = [];
  const seenWords = new Set<string>();
  for (const [w, expansions] of expansionsPerWord.entries()) {
    const counts = !seenWords.has(words[w] as string);
    seenWords.add(words[w] as string);
    // Reused between searches like the sums: a list grown note by note
    // was garbage of up to 400 KB a common word at 100,000 notes.
    const inWord = (sums.matched[w] ??= new Int32Array(total.length));
    let inCount = 0;
    for (const expansion of expansions) {
      for (const field of fields) inCount = addFieldScores(sums, inWord, inCount, expansion, field, notes);
    }
    for (let i = 0; i < inCount; i++) {
      const doc = inWord[i] as number;
      if (total[doc] === 0 && quality[doc] === 0) sums.touched[touchedCount++] = doc;
      total[doc] = (total[doc] as number) + (perWord[doc] as number);
      perWord[doc] = 0;
      if (counts) quality[doc] = (quality[doc] as number) + 1;
    }
    matchedBy.push(inWord.subarray(0, inCount));
  }
  return { touchedCount, matchedBy };
}

/** One index word's BM25 in one field, added to `sums.perWord`; the notes it reaches first are listed in `inWord`. Returns the new length of that list. */
function addFieldScores(sums: Sums, inWord: Int32Array, inCount: number, expansion: Expansion, field: WeightedField, notes: Bm25Notes): number {
  if (field.id === undefined) return inCount;
  const frequencies = expansion.postings.get(field.id);
  if (!frequencies) return inCount;
  const { live, lengths, fieldCount, documentCount, averageFieldLength } = notes;
  const { k, b, d } = notes.bm25;
  const { perWord } = sums;
  const matching = notes.allCount ? frequencies.size : liveCount(live, frequencies);
  const idf = Math.log(1 + (documentCount - matching + 0.5) / (matching + 0.5));
  const average = averageFieldLength[field.id] ?? 1;
  const factor = expansion.weight * field.boost;
  const fieldId = field.id;
  let count = inCount;
  frequencies.forEach((frequency, doc) => {
    // A discarded note's postings stay until MiniSearch vacuums them; an unseen note counts for nothing.
    if (live[doc] !== 1) return;
    const length = lengths[doc * fieldCount + fieldId] as number;
    const bm25 = idf * (d + (frequency * (k + 1)) / (frequency + k * (1 - b + (b * length) / average)));
    const before = perWord[doc] as number;
    if (before === 0) inWord[count++] = doc;
    perWord[doc] = before + factor * bm25;
  });
  return count;
}

/**
 * How many of the groups without a phrase each note holds, by short id.
 * Without syntax a group is one distinct word, and that is `quality`,
 * handed back as it is.
 */
export function groupCoverage(groups: readonly WordGroup[], words: readonly string[], matchedBy: readonly Int32Array[], quality: Uint16Array, slots: number): Uint16Array {
  const withPhrase = groups.some((group) => group.phrases.length > 0);
  const groupWords = groups.map((group) => new Set(group.words.map((w) => words[w])));
  const oneWordEach = !withPhrase && groupWords.every((set) => set.size === 1) && new Set(groupWords.flatMap((set) => [...set])).size === groupWords.length;
  if (oneWordEach) return quality;
  const coverage = new Uint16Array(slots);
  const stamp = new Int32Array(slots);
  groups.forEach((group, g) => {
    if (group.phrases.length > 0) return;
    for (const w of group.words) {
      for (const doc of matchedBy[w] ?? []) {
        if (stamp[doc] === g + 1) continue;
        stamp[doc] = g + 1;
        coverage[doc] = (coverage[doc] as number) + 1;
      }
    }
  });
  return coverage;
}

/**
 * The notes found (the first `count` of `found`), cut by their level
 * (`levelOf`) into one typed array: growing an array per level was a fifth
 * of a search at 100,000 notes (issue 17). `perLevel[level + 1]` holds how
 * many are at each level.
 */
export function cutByLevel(found: Int32Array, levelOf: Uint8Array, count: number, perLevel: Int32Array, levels: number): Int32Array[] {
  for (let level = 0; level < levels; level++) perLevel[level + 1] = (perLevel[level + 1] as number) + (perLevel[level] as number);
  const byDoc = new Int32Array(count);
  const next = perLevel.slice(0, levels);
  for (let i = 0; i < count; i++) {
    const level = levelOf[i] as number;
    byDoc[next[level] as number] = found[i] as number;
    next[level] = (next[level] as number) + 1;
  }
  return Array.from({ length: levels }, (_, level) => byDoc.subarray(perLevel[level] as number, perLevel[level + 1] as number));
}

/** Zeroes what a search wrote of `sums` (the notes it `touched`), for the next search. */
export function clearSums(sums: Sums, touched: Int32Array): void {
  const { total, quality } = sums;
  // Past an eighth of the notes, clearing it all (a memset) beats clearing each.
  if (touched.length * 8 > total.length) {
    total.fill(0);
    quality.fill(0);
  } else {
    for (let i = 0; i < touched.length; i++) {
      const doc = touched[i] as number;
      total[doc] = 0;
      quality[doc] = 0;
    }
  }
}

/** Notes in a posting list that still exist. */
function liveCount(live: Uint8Array, frequencies: Map<number, number>): number {
  let count = 0;
  // forEach, not keys(): a PostingList walks its slice in a plain loop there,
  // and its keys() is a generator (after one edit at 100,000 notes, counting
  // this way took a third of every search, issue 17).
  frequencies.forEach((_, doc) => {
    if (live[doc] === 1) count++;
  });
  return count;
}

/** The index's words of `expansionsPerWord` that `doc` holds in one of the fields, in MiniSearch's order. */
export function matchedTerms(expansionsPerWord: readonly Expansion[][], fieldIds: readonly (number | undefined)[], doc: number): string[] {
  const out: string[] = [];
  for (const expansions of expansionsPerWord) {
    for (const { term, postings } of expansions) if (!out.includes(term) && holdsIn(postings, fieldIds, doc)) out.push(term);
  }
  return out;
}

/** Whether `doc` holds a word (its postings) in any of the fields. */
export function holdsIn(postings: FieldPostings, fieldIds: readonly (number | undefined)[], doc: number): boolean {
  return fieldIds.some((fieldId) => fieldId !== undefined && postings.get(fieldId)?.has(doc) === true);
}
