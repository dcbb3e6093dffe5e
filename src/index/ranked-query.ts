import { internals, type FieldPostings, type TermMap } from './minisearch-internals.js';
import { TopK } from './top-k.js';

/**
 * MiniSearch's ranking, run over MiniSearch's own index, without building a
 * result object for every matching note.
 *
 * `MiniSearch#search` returns every match as an object with its matched
 * terms and fields, then sorts them all. A query made of one common word
 * matches half of a 10,000-note vault, and that costs 12–18 ms, nearly all of
 * it in those objects and the sort. This function adds the same BM25 terms,
 * in the same order, into typed arrays, keeps only the `limit` best
 * visible notes, and works out matched terms for those alone. It reads
 * MiniSearch's internal fields (see minisearch-internals.ts); a test checks
 * that its scores and order equal `MiniSearch#search`'s.
 */

export interface RankingOptions {
  /** Fields in the order MiniSearch was given them, each with its boost. */
  fields: readonly { name: string; boost: number }[];
  prefix(term: string): boolean;
  /** A fraction of the term's length (below 1) or false. */
  fuzzy(term: string): number | false;
  /** MiniSearch's defaults: 6, 0.375 and 0.45, and BM25+ k 1.2, b 0.7, d 0.5. */
  maxFuzzy: number;
  prefixWeight: number;
  fuzzyWeight: number;
  bm25: { k: number; b: number; d: number };
}

export interface RankedHit {
  id: string;
  score: number;
  /** The index's words that matched (after prefix and typo matching), in MiniSearch's order. */
  terms: string[];
}

export interface RankedPage {
  /** Visible notes that match at least one word. */
  total: number;
  /** The best `limit` of them, by score, then id. */
  hits: RankedHit[];
}

/** One word of the index that a query word reaches, with its weight. */
interface Expansion {
  term: string;
  weight: number;
  postings: FieldPostings;
}

/**
 * `terms` are the query's words, already tokenised and normalised as the
 * index was; each occurrence counts, as in MiniSearch, where a repeated word
 * adds its score twice.
 */
export function rankedQuery(
  engine: object,
  table: DocumentTable,
  terms: readonly string[],
  options: RankingOptions,
  visible: ((id: string) => boolean) | undefined,
  limit: number,
): RankedPage {
  const index = internals(engine);
  const { live, lengths, fieldCount } = table;
  const expansionsPerWord = terms.map((term) => expand(index._index, term, options));
  const slots = index._nextId;
  const total = new Float64Array(slots);
  const perWord = new Float64Array(slots);
  // How many distinct query words each note matched: MiniSearch multiplies the sum by it.
  const quality = new Uint16Array(slots);
  const touched: number[] = [];
  const seenWords = new Set<string>();
  const fieldIds = options.fields.map((field) => index._fieldIds[field.name]);

  for (const [w, expansions] of expansionsPerWord.entries()) {
    const counts = !seenWords.has(terms[w] as string);
    seenWords.add(terms[w] as string);
    const inWord: number[] = [];
    for (const expansion of expansions) {
      for (const [f, field] of options.fields.entries()) {
        const fieldId = fieldIds[f];
        if (fieldId === undefined) continue;
        const frequencies = expansion.postings.get(fieldId);
        if (!frequencies) continue;
        const matching = index._dirtCount === 0 ? frequencies.size : liveCount(live, frequencies);
        const idf = Math.log(1 + (index._documentCount - matching + 0.5) / (matching + 0.5));
        const average = index._avgFieldLength[fieldId] ?? 1;
        const { k, b, d } = options.bm25;
        const factor = expansion.weight * field.boost;
        frequencies.forEach((frequency, doc) => {
          // A discarded note's postings stay until MiniSearch vacuums them.
          if (live[doc] !== 1) return;
          const length = lengths[doc * fieldCount + fieldId] as number;
          const bm25 = idf * (d + (frequency * (k + 1)) / (frequency + k * (1 - b + (b * length) / average)));
          const before = perWord[doc] as number;
          if (before === 0) inWord.push(doc);
          perWord[doc] = before + factor * bm25;
        });
      }
    }
    for (const doc of inWord) {
      if (total[doc] === 0 && quality[doc] === 0) touched.push(doc);
      total[doc] = (total[doc] as number) + (perWord[doc] as number);
      perWord[doc] = 0;
      if (counts) quality[doc] = (quality[doc] as number) + 1;
    }
  }

  const best = new TopK<{ id: string; doc: number; score: number }>(Math.max(0, limit));
  let count = 0;
  for (const doc of touched) {
    const id = index._documentIds.get(doc);
    if (id === undefined || (visible && !visible(id))) continue;
    count++;
    best.push({ id, doc, score: (total[doc] as number) * Math.max(1, quality[doc] as number) });
  }
  const hits = best.sorted().map(({ id, doc, score }) => ({ id, score, terms: matchedTerms(expansionsPerWord, fieldIds, doc) }));
  return { total: count, hits };
}

function expand(terms: TermMap, term: string, options: RankingOptions): Expansion[] {
  const out: Expansion[] = [];
  const exact = terms.get(term);
  if (exact) out.push({ term, weight: 1, postings: exact });
  const fuzzy = options.fuzzy(term);
  const maxDistance = fuzzy === false ? 0 : fuzzy < 1 ? Math.min(options.maxFuzzy, Math.round(term.length * fuzzy)) : fuzzy;
  const fuzzyMatches = maxDistance > 0 ? terms.fuzzyGet(term, maxDistance) : undefined;
  if (options.prefix(term)) {
    for (const [candidate, postings] of terms.atPrefix(term)) {
      const distance = candidate.length - term.length;
      if (distance === 0) continue;
      // A word reached both ways is scored as a prefix match, as MiniSearch does.
      fuzzyMatches?.delete(candidate);
      out.push({ term: candidate, weight: (options.prefixWeight * candidate.length) / (candidate.length + 0.3 * distance), postings });
    }
  }
  if (fuzzyMatches) {
    for (const [candidate, [postings, distance]] of fuzzyMatches) {
      if (distance === 0) continue;
      out.push({ term: candidate, weight: (options.fuzzyWeight * candidate.length) / (candidate.length + distance), postings });
    }
  }
  return out;
}

/** Notes in a posting list that still exist. */
function liveCount(live: Uint8Array, frequencies: Map<number, number>): number {
  let count = 0;
  for (const doc of frequencies.keys()) if (live[doc] === 1) count++;
  return count;
}

/**
 * Per-note columns that every query reads for every posting, as typed
 * arrays indexed by short id instead of a map lookup each time. Build one
 * after the index changes; it stays valid until the next change.
 */
export interface DocumentTable {
  fieldCount: number;
  /** 1 for a note still in the index. */
  live: Uint8Array;
  /** Words per field: `lengths[shortId * fieldCount + fieldId]`. */
  lengths: Float64Array;
}

export function documentTable(engine: object): DocumentTable {
  const index = internals(engine);
  const fieldCount = Object.keys(index._fieldIds).length;
  const live = new Uint8Array(index._nextId);
  const lengths = new Float64Array(index._nextId * fieldCount);
  // Only notes in the index have field lengths: a discard removes them.
  for (const [doc, fieldLengths] of index._fieldLength) {
    live[doc] = 1;
    for (let field = 0; field < fieldCount; field++) lengths[doc * fieldCount + field] = fieldLengths[field] ?? 0;
  }
  return { fieldCount, live, lengths };
}

function matchedTerms(expansionsPerWord: readonly Expansion[][], fieldIds: readonly (number | undefined)[], doc: number): string[] {
  const out: string[] = [];
  for (const expansions of expansionsPerWord) {
    for (const { term, postings } of expansions) {
      if (out.includes(term)) continue;
      if (fieldIds.some((fieldId) => fieldId !== undefined && postings.get(fieldId)?.has(doc))) out.push(term);
    }
  }
  return out;
}
