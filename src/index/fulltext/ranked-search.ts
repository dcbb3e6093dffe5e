import type { Options } from 'minisearch';
import { StatefulMiniSearch, type EngineState, type FieldPostings } from './engine-state.js';
import { addWordScores, clearSums, cutByLevel, emptySums, groupCoverage, holdsIn, matchedTerms, type Bm25Notes, type Expansion, type Sums } from './bm25-sums.js';
import { readPage, type PendingChecks, type PhraseCheck, type PhraseLookup, type RankedCandidate } from './phrase-reading.js';
import type { QueryWords, WordGroup } from './query-syntax.js';
import { TopK } from '../top-k.js';
import { KeptPerVisibleSet, visibleParts, type VisibleSet } from './visibility.js';

export type { EngineCounts, EngineDocument, EngineState, FieldPostings } from './engine-state.js';
export type { PhraseCheck, PhraseLookup } from './phrase-reading.js';

/**
 * MiniSearch with additions that need its protected members, reached
 * the way its declarations allow (a subclass), so that the compiler checks
 * every use against the installed version:
 *
 * - `rank`: MiniSearch's own ranking, read from its options, without a
 *   result object for every matching note. `MiniSearch#search` returns
 *   every match as an object with its matched terms and fields, then sorts
 *   them all. A query made of one common word matches half of a
 *   10,000-note vault, and that costs 12–18 ms, nearly all of it in those
 *   objects and the sort. `rank` adds the same BM25 terms, in the same
 *   order, into typed arrays, keeps only the `limit` best visible notes,
 *   and works out matched terms for those alone. A test checks its scores
 *   and matched words against `MiniSearch#search`. The order is not
 *   MiniSearch's: a note holding more of the query's words comes first,
 *   then the higher score. MiniSearch multiplies the BM25 sum by the number
 *   of words matched, which does not promise that (on Obsidian's help
 *   vault, `vim mode` ranked "Views and editing mode" first, issue 16).
 *   `rank` and `rankReading` also apply the query syntax (query-syntax.ts):
 *   exclusions, and phrases, which `rankReading` looks for in the notes'
 *   text, since the index keeps no word positions (phrase-reading.ts). The
 *   per-note sums are added up in bm25-sums.ts.
 * - `fromState`: an index made from a snapshot's state (engine-state.ts,
 *   the base class, reads the state out and holds the per-note table).
 */


export interface RankedHit {
  id: string;
  score: number;
  /** How many of the query's groups the note holds (with no syntax, its distinct words): notes holding more rank first. */
  coverage: number;
  /** The index's words that matched (after prefix and typo matching), in MiniSearch's order. */
  terms: string[];
}

export interface RankedPage {
  /** Visible notes that match: at least one word, every phrase, no exclusion. */
  total: number;
  /** The best `limit` of them: by coverage, then score, then id. */
  hits: RankedHit[];
  /** Set when `total` is an estimate: a phrase had more notes to read than a search reads (`rankReading`). */
  approximate?: true;
}

/** A query in the index's words: see `queryWords` in query-syntax.ts. */
export type RankQuery = QueryWords;

interface Candidates {
  /** Short ids of the notes that may match, by coverage. */
  byLevel: Int32Array[];
  /** Score by short id. */
  score: Float64Array;
  /** Notes whose match depends on their text. */
  pending: Map<number, PendingChecks>;
  hit(id: string, doc: number, coverage: number): RankedHit;
  /** Hand the per-note sums back for the next search; call once the page is made. */
  release(): void;
}

/**
 * The ranking statistics of the notes one connection sees: BM25's note
 * count and average field lengths, and which notes count at all. Scores
 * worked out over them are the scores of an index holding only those notes,
 * so a ranking never tells what lies outside (issue 15: a vault-wide
 * statistic let the order of two probe notes say whether a word occurs
 * outside the boundary).
 */
interface VisibleStatistics {
  /** The index changes it was made for. */
  version: number;
  /** 1 for a note the connection sees, by short id. */
  visible: Uint8Array;
  documentCount: number;
  averageFieldLength: number[];
}

export class RankedMiniSearch<T> extends StatefulMiniSearch<T> {
  /**
   * By the key of a visible set (`Visibility`: made from a boundary, shared
   * by every connection with that boundary, never by a function's identity),
   * made on the first search after a change, O(notes).
   */
  private readonly visibleStatistics = new KeptPerVisibleSet<VisibleStatistics>();
  /**
   * The last search's sums, zeroed where it wrote them: three arrays the
   * size of the vault (1.8 MB at 100,000 notes) were made, zeroed and
   * collected for every search (issue 17). A search still reading phrases
   * keeps its own.
   */
  private spareSums: Sums | undefined;

  private takeSums(slots: number): Sums {
    const spare = this.spareSums;
    this.spareSums = undefined;
    if (spare && spare.total.length >= slots) return spare;
    return emptySums(slots);
  }

  constructor(options: Options<T>) {
    super(options);
    const { boostDocument, boostTerm, combineWith, fields } = this._options.searchOptions;
    // `rank` adds what the ranking below reads; anything else would make it disagree with `search`.
    if (boostDocument || boostTerm || fields || (combineWith ?? 'OR').toUpperCase() !== 'OR') {
      throw new Error('RankedMiniSearch ranks only OR queries over every field, without document or term boosts');
    }
  }

  /**
   * How many notes passing `visible` (every note when it is undefined) match
   * `query`, and the best `limit` of them, scored as an index of those notes
   * alone would score them. `query` is in the index's words (`queryWords` in
   * query-syntax.ts); each occurrence of a word counts, as in MiniSearch,
   * where a repeated word adds its score twice.
   *
   * A note holding more of the query's groups ranks first (with no syntax, a
   * group is a distinct word), then the higher score, then the smaller id.
   * The score is MiniSearch's: the BM25 sum times the number of distinct
   * words matched. Exclusions and phrases decide which notes count at all.
   *
   * Synchronous: throws when a phrase of two or more words must be looked
   * for in the notes' text (`rankReading` does that).
   */
  rank(query: RankQuery, visible: VisibleSet, limit: number): RankedPage {
    const found = this.candidates(query, visible);
    try {
      if (found.pending.size > 0) throw new Error('This query has phrases to look for in the notes: rank it with rankReading');
      return this.best(found, limit);
    } finally {
      found.release();
    }
  }

  /** The page of candidates none of which needs reading. */
  private best(found: Candidates, limit: number): RankedPage {
    const { byLevel, score } = found;
    let total = 0;
    for (const docs of byLevel) total += docs.length;
    const hits: RankedHit[] = [];
    for (let level = byLevel.length - 1; level >= 0 && hits.length < limit; level--) {
      const best = new TopK<{ id: string; doc: number; score: number }>(Math.max(0, limit - hits.length));
      for (const doc of byLevel[level] as Int32Array) {
        const docScore = score[doc] as number;
        if (best.admits(docScore)) best.push({ id: this._documentIds.get(doc) as string, doc, score: docScore });
      }
      for (const { id, doc } of best.sorted()) hits.push(found.hit(id, doc, level));
    }
    return { total, hits };
  }

  /**
   * `rank`, looking for phrases in the notes' text with `check` where the
   * index can only tell that a note holds all of a phrase's words (it keeps
   * no word positions). At most `budget` notes are read in all. They are
   * read best first, a few at a time, until the page is full; then the rest
   * are counted: all of them read if the budget allows, else an evenly
   * spread sample of them, and the page says its total is `approximate`
   * (an estimate from the sample). Every hit is a note that was read and
   * matched; if the budget runs out before the page is full, the page is
   * short and `approximate`.
   */
  async rankReading(query: RankQuery, visible: VisibleSet, limit: number, check: PhraseCheck, budget: number): Promise<RankedPage> {
    const found = this.candidates(query, visible);
    try {
      return await this.rankFound(found, limit, check, budget);
    } finally {
      found.release();
    }
  }

  private async rankFound(found: Candidates, limit: number, check: PhraseCheck, budget: number): Promise<RankedPage> {
    const { byLevel, score, pending } = found;
    if (pending.size === 0) return this.best(found, limit);
    // Every candidate in rank order: the levels top down, each by score, then id.
    const order: RankedCandidate[] = [];
    for (let level = byLevel.length - 1; level >= 0; level--) {
      const docs = Array.from(byLevel[level] as Int32Array, (doc) => ({ doc, id: this._documentIds.get(doc) as string, level }));
      docs.sort((a, b) => (score[b.doc] as number) - (score[a.doc] as number) || compareIds(a.id, b.id));
      for (const candidate of docs) order.push(candidate);
    }
    return readPage(order, pending, check, budget, limit, ({ id, doc, level }) => found.hit(id, doc, level));
  }

  /** Every note `query` may find, by level (how many groups it holds), with what remains to be read of them. */
  private candidates(query: RankQuery, visible: VisibleSet): Candidates {
    const notes = this.notesThatCount(visible);
    const options = this._options.searchOptions;
    const words = query.terms.map(({ term }) => term);
    const expansionsPerWord = query.terms.map(({ term, exact }, i) => (exact ? this.exactly(term) : this.expand(term, i, words)));
    const slots = this._nextId;
    const sums = this.takeSums(slots);
    const fields = this.fieldNames.map((name) => ({ id: this._fieldIds[name], boost: options.boost[name] || 1 }));
    const { touchedCount, matchedBy } = addWordScores(sums, expansionsPerWord, words, fields, notes);
    const coverage = groupCoverage(query.groups, words, matchedBy, sums.quality, slots);
    const fieldIds = fields.map((field) => field.id);
    const touched = sums.touched.subarray(0, touchedCount);
    const { byLevel, pending } = this.levelled(query, touched, notes.live, sums, coverage, expansionsPerWord, fieldIds);
    const score = sums.total;
    return {
      byLevel,
      score,
      pending,
      hit: (id, doc, level) => ({ id, score: score[doc] as number, coverage: level, terms: matchedTerms(expansionsPerWord, fieldIds, doc) }),
      release: () => {
        clearSums(sums, touched);
        this.spareSums = sums;
      },
    };
  }

  /** The notes that count for BM25: every live one, or the live ones the connection sees, with their statistics. */
  private notesThatCount(visible: VisibleSet): Bm25Notes {
    const table = (this.table ??= this.documentTable());
    const seen = visible === undefined ? undefined : this.statisticsFor(visible);
    return {
      live: seen?.visible ?? table.live,
      lengths: table.lengths,
      fieldCount: this.fieldNames.length,
      documentCount: seen?.documentCount ?? this._documentCount,
      averageFieldLength: seen?.averageFieldLength ?? this._avgFieldLength,
      allCount: seen === undefined && this._dirtCount === 0,
      bm25: this._options.searchOptions.bm25,
    };
  }

  /**
   * The notes `touched` that match, by level, scored (the BM25 sum times the
   * number of distinct words matched, in `sums.total`): those an excluded
   * word leaves out, or that cannot hold a group's phrase, dropped; those
   * whose match depends on their text, with what to read of them.
   */
  private levelled(
    query: RankQuery,
    touched: Int32Array,
    live: Uint8Array,
    sums: Sums,
    coverage: Uint16Array,
    expansionsPerWord: readonly Expansion[][],
    fieldIds: readonly (number | undefined)[],
  ): { byLevel: Int32Array[]; pending: Map<number, PendingChecks> } {
    const { total, quality } = sums;
    const required = query.groups.filter((group) => group.phrases.length > 0);
    const leftOut = this.leftOut(query.excludeWords, live);
    const levels = query.groups.length + 1;
    const pending = new Map<number, PendingChecks>();
    const filtered = required.length > 0 || query.excludePhrases.length > 0;
    // The notes found and their levels, then cut by level (cutByLevel).
    const found = new Int32Array(touched.length);
    const levelOf = new Uint8Array(touched.length);
    const perLevel = new Int32Array(levels + 1);
    let foundCount = 0;
    for (let i = 0; i < touched.length; i++) {
      const doc = touched[i] as number;
      if (leftOut?.[doc] === 1) continue;
      if (filtered) {
        const checks = this.checksFor(doc, required, query.excludePhrases, expansionsPerWord, fieldIds);
        if (checks === false) continue;
        if (checks !== true) pending.set(doc, checks);
      }
      total[doc] = (total[doc] as number) * Math.max(1, quality[doc] as number);
      // A note found holds every group with a phrase.
      const level = Math.min(levels - 1, (coverage[doc] as number) + required.length);
      found[foundCount] = doc;
      levelOf[foundCount] = level;
      foundCount++;
      perLevel[level + 1] = (perLevel[level + 1] as number) + 1;
    }
    return { byLevel: cutByLevel(found, levelOf, foundCount, perLevel, levels), pending };
  }

  /**
   * Whether `doc` holds every group with a phrase and none of the excluded
   * phrases: true or false where the index can tell, else what to read.
   */
  private checksFor(
    doc: number,
    required: readonly WordGroup[],
    excludePhrases: readonly (readonly string[])[],
    expansionsPerWord: readonly Expansion[][],
    fieldIds: readonly (number | undefined)[],
  ): PendingChecks | boolean {
    const lookups: PhraseLookup[] = [];
    const needs: number[][] = [];
    const leaveOut: number[] = [];
    for (const group of required) {
      const byWord = group.words.some((w) => (expansionsPerWord[w] ?? []).some(({ postings }) => holdsIn(postings, fieldIds, doc)));
      if (byWord) continue;
      const alternatives: number[] = [];
      let held = false;
      for (const phrase of group.phrases) {
        const inFields = this.fieldsHoldingAll(phrase, doc);
        if (inFields.length === 0) continue;
        // One word: the index knows.
        if (phrase.length === 1) {
          held = true;
          break;
        }
        alternatives.push(lookups.push({ terms: phrase, fields: inFields }) - 1);
      }
      if (held) continue;
      if (alternatives.length === 0) return false;
      needs.push(alternatives);
    }
    for (const phrase of excludePhrases) {
      const inFields = this.fieldsHoldingAll(phrase, doc);
      if (inFields.length > 0) leaveOut.push(lookups.push({ terms: phrase, fields: inFields }) - 1);
    }
    return lookups.length === 0 ? true : { lookups, needs, leaveOut };
  }

  /** The fields of `doc` that hold every word of `phrase` exactly: the only ones it may stand in. */
  private fieldsHoldingAll(phrase: readonly string[], doc: number): string[] {
    const out: string[] = [];
    for (const name of this.fieldNames) {
      const fieldId = this._fieldIds[name];
      if (fieldId === undefined) continue;
      if (phrase.every((term) => this._index.get(term)?.get(fieldId)?.has(doc) === true)) out.push(name);
    }
    return out;
  }

  /** The notes an excluded word leaves out (holding it, or, when `prefix` and its length allows prefixes, a word it begins), by short id; undefined when there is none. */
  private leftOut(words: readonly { term: string; prefix: boolean }[], live: Uint8Array): Uint8Array | undefined {
    if (words.length === 0) return undefined;
    const out = new Uint8Array(this._nextId);
    const mark = (postings: FieldPostings): void => {
      for (const frequencies of postings.values()) {
        frequencies.forEach((_, doc) => {
          if (live[doc] === 1) out[doc] = 1;
        });
      }
    };
    words.forEach(({ term, prefix }, i) => {
      const exact = this._index.get(term);
      if (exact) mark(exact);
      const prefixes = prefix && this.prefixes(term, i, [term]);
      if (prefixes) for (const [, postings] of this._index.atPrefix(term)) mark(postings);
    });
    return out;
  }

  /** A phrase's word: the index's word itself, without prefix or typo matches. */
  private exactly(term: string): Expansion[] {
    const postings = this._index.get(term);
    return postings ? [{ term, weight: 1, postings }] : [];
  }

  private statisticsFor(visible: Exclude<VisibleSet, undefined>): VisibleStatistics {
    const { sees, key } = visibleParts(visible);
    const cached = this.visibleStatistics.get(key, this.version);
    if (cached) return cached;
    const fieldCount = this.fieldNames.length;
    const table = (this.table ??= this.documentTable());
    const seen = new Uint8Array(table.live.length);
    const lengthSums = new Array<number>(fieldCount).fill(0);
    let documentCount = 0;
    for (const [doc, id] of this._documentIds) {
      if (!sees(id as string)) continue;
      seen[doc] = 1;
      documentCount++;
      for (let field = 0; field < fieldCount; field++) lengthSums[field] = (lengthSums[field] as number) + (table.lengths[doc * fieldCount + field] as number);
    }
    const statistics: VisibleStatistics = {
      version: this.version,
      visible: seen,
      documentCount,
      // Summed over the visible notes alone, in the order they were added, so
      // that not even the last bit of a score depends on a note outside.
      averageFieldLength: lengthSums.map((sum) => (documentCount === 0 ? 0 : sum / documentCount)),
    };
    this.visibleStatistics.set(key, statistics);
    return statistics;
  }

  /**
   * An index holding `state`, made with the `options` it was made with.
   * Throws on anything inconsistent: a damaged snapshot must be rebuilt,
   * never trusted.
   */
  static fromState<T>(options: Options<T>, state: EngineState): RankedMiniSearch<T> {
    const engine = new RankedMiniSearch<T>(options);
    engine.restore(state);
    return engine;
  }

  /** Whether query word `term` (the `i`th of `terms`) also finds words it begins, by the `prefix` search option. */
  private prefixes(term: string, i: number, terms: string[]): boolean {
    const { prefix } = this._options.searchOptions;
    return typeof prefix === 'function' ? prefix(term, i, terms) : prefix === true;
  }

  /** The index's words that query word `term` (the `i`th of `terms`) reaches, as `MiniSearch#search` weighs them. */
  private expand(term: string, i: number, terms: readonly string[]): Expansion[] {
    const options = this._options.searchOptions;
    const { prefix: prefixWeight, fuzzy: fuzzyWeight } = options.weights;
    const words = [...terms];
    const out: Expansion[] = [];
    const exact = this._index.get(term);
    if (exact) out.push({ term, weight: 1, postings: exact });
    const fuzzyOption = typeof options.fuzzy === 'function' ? options.fuzzy(term, i, words) : options.fuzzy || false;
    const fuzzy = fuzzyOption === true ? 0.2 : fuzzyOption;
    const maxDistance = fuzzy === false ? 0 : fuzzy < 1 ? Math.min(options.maxFuzzy, Math.round(term.length * fuzzy)) : fuzzy;
    const fuzzyMatches = maxDistance > 0 ? this._index.fuzzyGet(term, maxDistance) : undefined;
    const prefixed: Expansion[] = [];
    if (this.prefixes(term, i, words)) {
      for (const [candidate, postings] of this._index.atPrefix(term)) {
        const distance = candidate.length - term.length;
        if (distance === 0) continue;
        // A word reached both ways is scored as a prefix match, as MiniSearch does.
        fuzzyMatches?.delete(candidate);
        prefixed.push({ term: candidate, weight: (prefixWeight * candidate.length) / (candidate.length + 0.3 * distance), postings });
      }
    }
    const typos: Expansion[] = [];
    if (fuzzyMatches) {
      for (const [candidate, [postings, distance]] of fuzzyMatches) {
        if (distance === 0) continue;
        typos.push({ term: candidate, weight: (fuzzyWeight * candidate.length) / (candidate.length + distance), postings });
      }
    }
    // In the order of the words, not of the radix tree's branches, which
    // depends on how the tree was made (at once from a cache or a first
    // read, or word by word): scores are sums, so their last bit would.
    for (const group of [prefixed, typos]) out.push(...group.sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0)));
    return out;
  }
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
