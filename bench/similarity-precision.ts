/**
 * What a similarity of 0.6 means on a vault (issue 33), for
 * `npm run bench:semantic -- --similarity [--vault DIR --labels FILE]`:
 * on the generated labeled set (bench/data/semantic-set.json), and beside it
 * on a real vault already embedded (`dexi-vault index --vault DIR`) with a
 * file of questions labeled by hand, which stays out of the repository
 * (other people's notes): of the results scoring 0.6 or more, the share
 * related; of the unrelated results, the share below 0.6; and find_similar's
 * spread of similarities over a dozen notes.
 *
 * The labels file is JSON: `[{ "query": "…", "related": ["path/of/note.md", …] }]`
 * for semantic_search, and `{ "note": "path/of/note.md", "related": [...] }`
 * for find_similar from that note; a result whose path is not in `related`
 * counts as unrelated, so label every related note among a question's or a
 * note's top 10.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPolicy } from '../src/access/policy.js';
import type { VaultView, VisibleHit } from '../src/access/view.js';
import { ServedVault } from '../src/server/served-vault.js';
import { systemClock } from '../src/vault/clock.js';
import { readSettings } from '../src/vault/settings.js';
import { neighbourTopics, topicOf } from './labeled-runs.js';
import { LABELED_NOTES, LABELED_QUERIES } from './semantic-set.js';

/** Results looked at per question or note. */
const TOP = 10;

export interface PrecisionAt06 {
  results: number;
  /** Results scoring 0.6 or more, and how many of them are related. */
  above: number;
  relatedAbove: number;
  /** Unrelated results, and how many of them score below 0.6. */
  unrelated: number;
  unrelatedBelow: number;
}

export interface SimilarityReport {
  semanticSearch: PrecisionAt06;
  findSimilar?: PrecisionAt06;
  /** find_similar's top TOP over `notes` notes: the lowest, median and highest similarity of each note's results, pooled. */
  findSimilarSpread: { notes: number; min: number; median: number; max: number; atOrAbove06: number; results: number };
}

const empty = (): PrecisionAt06 => ({ results: 0, above: 0, relatedAbove: 0, unrelated: 0, unrelatedBelow: 0 });

/** Adds `hits` to the tally; `related` says which are (true), are not (false), or cannot be told (undefined: left out). */
function count(into: PrecisionAt06, hits: readonly VisibleHit[], related: (hit: VisibleHit) => boolean | undefined): void {
  for (const hit of hits) {
    const judged = related(hit);
    if (judged === undefined) continue;
    const similarity = hit.similarity ?? 0;
    into.results++;
    if (similarity >= 0.6) {
      into.above++;
      if (judged) into.relatedAbove++;
    } else if (!judged) into.unrelatedBelow++;
    if (!judged) into.unrelated++;
  }
}

/**
 * The vault served in-process, once every note is searchable; `complete`:
 * once every window of every note is embedded. A real vault measured on its
 * notes' openings alone says so in BENCHMARKS.md.
 */
async function opened(vaultDir: string, complete = true): Promise<ServedVault> {
  const runtime = await ServedVault.open({
    vaultDir,
    settings: await readSettings(vaultDir),
    shared: [],
    clock: systemClock,
    log: () => undefined,
    semantic: { embedder: { kind: 'use-lite' }, workers: 1 },
  });
  await runtime.loaded;
  for (;;) {
    const progress = runtime.semantic?.progress();
    if (!progress || progress.error) throw new Error(`semantic search unavailable: ${progress?.error ?? 'no model'}`);
    if (complete ? progress.ready : progress.embedded + progress.failed >= progress.total && progress.total > 0) return runtime;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** find_similar's spread over `notes` notes spaced evenly through the vault's paths. */
async function spreadOf(view: VaultView, notes = 12): Promise<SimilarityReport['findSimilarSpread']> {
  const all = [...view.allNotes()].map(({ record }) => record).sort((a, b) => (a.path < b.path ? -1 : 1));
  const picked = Array.from({ length: Math.min(notes, all.length) }, (_, i) => all[Math.floor((i * all.length) / notes)]);
  const shown: number[] = [];
  for (const record of picked) if (record) for (const hit of await view.similarTo(record.id, TOP)) shown.push(hit.similarity ?? 0);
  shown.sort((a, b) => a - b);
  return {
    notes: picked.length,
    min: shown[0] ?? NaN,
    median: shown[Math.floor(shown.length / 2)] ?? NaN,
    max: shown[shown.length - 1] ?? NaN,
    atOrAbove06: shown.filter((value) => value >= 0.6).length,
    results: shown.length,
  };
}

/** On the generated labeled set: a query's relevant notes and their topics' are related; a neighbouring topic's cannot be told. */
export async function generatedSetPrecision(): Promise<SimilarityReport> {
  const dir = await mkdtemp(path.join(tmpdir(), 'dexi-similarity-'));
  try {
    for (const note of LABELED_NOTES) await writeFile(path.join(dir, `${note.key}.md`), `# ${note.title}\n\n${note.body}\n`);
    const runtime = await opened(dir);
    try {
      const view = runtime.context(createPolicy()).view;
      const keyOf = (hit: VisibleHit): string => path.basename(hit.note.record.path, '.md');
      const judge = (topics: Set<string>) => (hit: VisibleHit): boolean | undefined => {
        const topic = topicOf(keyOf(hit));
        if (topics.has(topic)) return true;
        return [...topics].some((other) => neighbourTopics(other, topic)) ? undefined : false;
      };
      const semanticSearch = empty();
      for (const { query, relevant } of LABELED_QUERIES) count(semanticSearch, await view.searchMeaning(query, TOP), judge(new Set(relevant.map(topicOf))));
      const findSimilar = empty();
      for (const { record } of view.allNotes()) {
        count(findSimilar, await view.similarTo(record.id, TOP), judge(new Set([topicOf(path.basename(record.path, '.md'))])));
      }
      return { semanticSearch, findSimilar, findSimilarSpread: await spreadOf(view) };
    } finally {
      await runtime.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** On a real vault, embedded beforehand, with questions labeled by hand (the module's comment says the format). */
export async function labeledVaultPrecision(vaultDir: string, labelsFile: string, complete: boolean): Promise<SimilarityReport & { questions: number; notes: number }> {
  const labels = JSON.parse(await readFile(labelsFile, 'utf8')) as ({ query: string; related: string[] } | { note: string; related: string[] })[];
  const runtime = await opened(vaultDir, complete);
  try {
    const view = runtime.context(createPolicy()).view;
    const semanticSearch = empty();
    const findSimilar = empty();
    let questions = 0;
    for (const label of labels) {
      const wanted = new Set(label.related);
      const judge = (hit: VisibleHit): boolean => wanted.has(hit.note.record.path);
      if ('query' in label) {
        questions++;
        count(semanticSearch, await view.searchMeaning(label.query, TOP), judge);
      } else count(findSimilar, await view.similarTo(noteAt(view, label.note), TOP), judge);
    }
    return { questions, notes: labels.length - questions, semanticSearch, findSimilar, findSimilarSpread: await spreadOf(view) };
  } finally {
    await runtime.close();
  }
}

/** The id of the note at `notePath`, for a find_similar label. */
function noteAt(view: VaultView, notePath: string): string {
  for (const { record } of view.allNotes()) if (record.path === notePath) return record.id;
  throw new Error(`no note at ${notePath}`);
}

type Shown = { path: string; similarity: number }[];
const shownOf = (hits: readonly VisibleHit[]): Shown => hits.map((hit) => ({ path: hit.note.record.path, similarity: hit.similarity ?? 0 }));

/**
 * What a labels file needs: each question's top results with their
 * similarity, and find_similar's from each of `notes` (paths), to label by
 * hand; and find_similar's spread.
 */
export async function questionResults(
  vaultDir: string,
  queries: readonly string[],
  complete: boolean,
  notes: readonly string[] = [],
): Promise<{ questions: { query: string; results: Shown }[]; notes: { note: string; results: Shown }[]; findSimilarSpread: SimilarityReport['findSimilarSpread'] }> {
  const runtime = await opened(vaultDir, complete);
  try {
    const view = runtime.context(createPolicy()).view;
    const questions = [];
    for (const query of queries) questions.push({ query, results: shownOf(await view.searchMeaning(query, TOP)) });
    const similar = [];
    for (const note of notes) similar.push({ note, results: shownOf(await view.similarTo(noteAt(view, note), TOP)) });
    return { questions, notes: similar, findSimilarSpread: await spreadOf(view) };
  } finally {
    await runtime.close();
  }
}
