import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FullTextIndex, indexedNote, type PhraseLookup } from '../src/index/fulltext/fulltext.js';
import { holdsPhrase, wordForWordCoverage } from '../src/index/fulltext/query-syntax.js';
import { phraseTerms } from '../src/index/fulltext/terms.js';
import type { EmbedderSpec } from '../src/index/vectors/embedder.js';
import { embeddingText } from '../src/index/vectors/embedding-text.js';
import { SemanticIndexer } from '../src/index/vectors/semantic-indexer.js';
import { toSearchText } from '../src/format/markdown.js';
import type { NoteRecord } from '../src/vault/note.js';
import { mean, recallAt, reciprocalRank } from './quality.js';
import { LABELED_NOTES, LABELED_QUERIES } from './semantic-set.js';

/** Results kept per query. */
export const TOP = 10;

/** Semantic results kept per query for combining with full-text evidence (`semanticDeep`). */
export const DEEP = 50;

/** `sourdough-3` → `sourdough`. */
export const topicOf = (key: string): string => key.replace(/-\d+$/, '');

export interface QueryRun {
  query: string;
  relevant: Set<string>;
  /** Notes on the same topic as a relevant note: related, if not exactly what was asked. */
  related: Set<string>;
  semantic: { id: string; score: number }[];
  /** The top DEEP semantic results (`semantic` is its first TOP). */
  semanticDeep: { id: string; score: number }[];
  fulltext: string[];
  /** The full-text results with their BM25 scores and matched words. */
  fulltextHits: { id: string; score: number; terms: string[] }[];
  /** What semantic_search answers: `semantic`, with a word-for-word full-text match put first (`wordForWordCoverage`). */
  anchored: { id: string; score: number }[];
}

/**
 * Pairs of the labeled set's topics whose notes overlap in subject, checked
 * by reading the notes that find_similar ranks across topics most often:
 * tomato seedlings and houseplants are both plant care, astrophotography
 * notes sit in both `astro` and `photo`, budgets and tax are both personal
 * money, running and cycling plans are both endurance training. A note of a
 * neighbouring topic is neither clearly related nor clearly unrelated. The
 * other frequent cross-topic neighbours (coffee and sourdough, curry and
 * sourdough, knitting and woodwork) share no subject, only a style of note.
 */
export const NEIGHBOUR_TOPICS: readonly (readonly [string, string])[] = [
  ['garden', 'plant'],
  ['astro', 'photo'],
  ['budget', 'tax'],
  ['cycle', 'running'],
];

/** Whether two different topics are neighbours (`NEIGHBOUR_TOPICS`). */
export function neighbourTopics(a: string, b: string): boolean {
  return NEIGHBOUR_TOPICS.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
}

/**
 * One labeled note asked for its neighbours (find_similar): notes of its
 * topic are related, notes of a neighbouring topic loosely so, the rest not.
 */
export interface NoteRun {
  key: string;
  /** The other notes of its topic. */
  related: Set<string>;
  /** The notes of a neighbouring topic (`NEIGHBOUR_TOPICS`). */
  neighbours: Set<string>;
  similar: { id: string; score: number }[];
}

export interface LabeledRuns {
  modelId: string;
  embedSeconds: number;
  runs: QueryRun[];
  /** Every labeled note's TOP nearest notes, as find_similar sees them. */
  noteRuns: NoteRun[];
  /** With `copiedSentences`: one query per labeled note, a sentence copied from it; relevant is that note alone. */
  copiedRuns: QueryRun[];
}

export interface LabeledRunOptions {
  /** Also ask, for every labeled note, a sentence copied from it (`copiedRuns`). */
  copiedSentences?: boolean;
}

/**
 * The sentence a person would copy from a note to find it again: the
 * middle one of its sentences of at least six words (the whole body when it
 * has none). Pure.
 */
export function copiedSentence(body: string): string {
  const sentences = body
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.replace(/^[-*#>\s]+/, '').trim())
    .filter((sentence) => sentence.split(/\s+/).length >= 6);
  return sentences[Math.floor(sentences.length / 2)] ?? body.trim();
}

export interface Quality {
  recallAt5: number;
  mrr: number;
}

/**
 * Embed the labeled notes with `spec`, then ask every labeled query of both
 * searches: semantic (top TOP by similarity) and full-text (top TOP by BM25).
 */
export async function runLabeledSet(spec: EmbedderSpec, workers: number, options: LabeledRunOptions = {}): Promise<LabeledRuns> {
  const cacheDir = await mkdtemp(path.join(tmpdir(), 'dexi-labeled-'));
  const semantic = new SemanticIndexer({ cacheDir, embedder: spec, workers, log: () => undefined });
  try {
    await semantic.start();
    const started = performance.now();
    for (const note of LABELED_NOTES) semantic.noteChanged(note.key, embeddingText(note.title, note.body));
    semantic.allNotesReported();
    for (;;) {
      const progress = semantic.progress();
      if (progress.error) throw new Error(progress.error);
      if (progress.ready) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const embedSeconds = (performance.now() - started) / 1000;
    const fulltext = FullTextIndex.empty();
    for (const note of LABELED_NOTES) {
      fulltext.upsert({ id: note.key, title: note.title, tags: [] } as unknown as NoteRecord, toSearchText(note.body));
    }
    // Phrases (a copied sentence may quote one) are checked as the server's view checks them.
    const fields = new Map(LABELED_NOTES.map((note) => [note.key, indexedNote({ id: note.key, title: note.title, tags: [] } as unknown as NoteRecord, toSearchText(note.body))]));
    const holdsPhrases = async (id: string, phrases: readonly PhraseLookup[]): Promise<boolean[] | undefined> => {
      const note = fields.get(id) as Record<string, string> | undefined;
      return note && phrases.map((phrase) => phrase.fields.some((field) => holdsPhrase(phraseTerms(note[field] ?? ''), phrase.terms)));
    };
    const ask = async (query: string, relevant: readonly string[]): Promise<QueryRun> => {
      const topics = new Set(relevant.map(topicOf));
      const semanticDeep = await semantic.search(query, DEEP);
      const ranked = (await fulltext.query(query, undefined, TOP, holdsPhrases)).hits;
      const fulltextHits = ranked.map(({ id, score, terms }) => ({ id, score, terms }));
      // As the server's view does (src/access/view.ts, wordForWordMatch).
      const coverage = wordForWordCoverage(query);
      const anchor = coverage !== undefined && ranked[0]?.coverage === coverage ? ranked[0].id : undefined;
      const anchored = anchor === undefined ? semanticDeep.slice(0, TOP) : await semantic.search(query, TOP, undefined, anchor);
      return {
        query,
        relevant: new Set(relevant),
        related: new Set(LABELED_NOTES.filter((note) => topics.has(topicOf(note.key))).map((note) => note.key)),
        semantic: semanticDeep.slice(0, TOP),
        semanticDeep,
        fulltext: fulltextHits.map((hit) => hit.id),
        fulltextHits,
        anchored,
      };
    };
    const runs: QueryRun[] = [];
    for (const { query, relevant } of LABELED_QUERIES) runs.push(await ask(query, relevant));
    const noteRuns: NoteRun[] = [];
    for (const note of LABELED_NOTES) {
      const topic = topicOf(note.key);
      noteRuns.push({
        key: note.key,
        related: new Set(LABELED_NOTES.filter((other) => other.key !== note.key && topicOf(other.key) === topic).map((other) => other.key)),
        neighbours: new Set(LABELED_NOTES.filter((other) => neighbourTopics(topic, topicOf(other.key))).map((other) => other.key)),
        similar: await semantic.similar(note.key, TOP),
      });
    }
    const copiedRuns: QueryRun[] = [];
    if (options.copiedSentences) for (const note of LABELED_NOTES) copiedRuns.push(await ask(copiedSentence(note.body), [note.key]));
    return { modelId: semantic.embedderId ?? spec.kind, embedSeconds, runs, noteRuns, copiedRuns };
  } finally {
    await semantic.close();
    await rm(cacheDir, { recursive: true, force: true });
  }
}

/** recall@5 and MRR of one search over the runs. */
export function qualityOf(runs: readonly QueryRun[], pick: (run: QueryRun) => string[]): Quality {
  return {
    recallAt5: mean(runs.map((run) => recallAt(pick(run), run.relevant, 5))),
    mrr: mean(runs.map((run) => reciprocalRank(pick(run), run.relevant))),
  };
}
