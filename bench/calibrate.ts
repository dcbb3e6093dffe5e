/**
 * `npm run calibrate [-- --model MODEL]`: measure semantic search against
 * full-text search on the labeled set (recall@5, MRR), fit the model's two
 * similarity calibrations, and write them to src/index/vectors/calibration-table.ts:
 * query → note (semantic_search) on the labeled queries' results, and note →
 * note (find_similar) on every labeled note's nearest notes, a note of the
 * same topic counting as related and one of another topic as not (notes of
 * neighbouring topics, `NEIGHBOUR_TOPICS`, are left out of the fit).
 *
 * Each calibration is fitted on half the queries (notes) and its effect
 * reported on the other half, so the figures are not measured on what was
 * fitted; the table that ships is then fitted on all of them.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { applyCalibration } from '../src/index/vectors/calibration.js';
import { CALIBRATIONS, type Calibration } from '../src/index/vectors/calibration-table.js';
import type { EmbedderSpec } from '../src/index/vectors/embedder.js';
import { NEIGHBOUR_TOPICS, qualityOf, runLabeledSet, TOP, type NoteRun, type Quality, type QueryRun } from './labeled-runs.js';
import { bestThreshold, distribution, fitCalibration, precisionAround, type Scored } from './quality.js';
import { BENCH_DIR, ROOT } from './paths.js';
import { LABELED_NOTES, LABELED_QUERIES, queriesSharingNoWord } from './semantic-set.js';

const through = (pairs: readonly Scored[], knots: readonly (readonly [number, number])[]): Scored[] =>
  pairs.map((pair) => ({ score: applyCalibration(knots, pair.score), relevant: pair.relevant }));

function splitReport(pairs: Scored[], knots: [number, number][]) {
  return { rawCosine: precisionAround(pairs, 0.6), calibrated: precisionAround(through(pairs, knots), 0.6) };
}

/** The raw cosines of related and other results, so a reader sees where each map's 0.6 falls. */
function cosines(pairs: readonly Scored[]) {
  return {
    related: distribution(pairs.filter((pair) => pair.relevant).map((pair) => pair.score)),
    unrelated: distribution(pairs.filter((pair) => !pair.relevant).map((pair) => pair.score)),
  };
}

/**
 * find_similar's results as scored pairs. `clear`: a note of a neighbouring
 * topic is left out (the fit); `strict`: it counts as unrelated; `loose`: as
 * related.
 */
function notePairs(list: readonly NoteRun[], labels: 'clear' | 'strict' | 'loose'): Scored[] {
  return list.flatMap((run) =>
    run.similar
      .filter((hit) => labels !== 'clear' || !run.neighbours.has(hit.id))
      .map((hit) => ({ score: hit.score, relevant: run.related.has(hit.id) || (labels === 'loose' && run.neighbours.has(hit.id)) })),
  );
}

/** How often the note a sentence was copied from comes first, and in the top 5. */
function copiedReport(list: readonly QueryRun[], pick: (run: QueryRun) => string[]) {
  const rank = (run: QueryRun): number => pick(run).findIndex((id) => run.relevant.has(id));
  const share = (test: (at: number) => boolean): number => +(list.filter((run) => test(rank(run))).length / list.length).toFixed(3);
  return { first: share((at) => at === 0), top5: share((at) => at >= 0 && at < 5) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { model: { type: 'string' }, workers: { type: 'string' } } });
  const model = values.model ?? 'use-lite';
  const spec: EmbedderSpec = model === 'use-lite' ? { kind: 'use-lite' } : { kind: 'transformers', model: path.resolve(model) };
  const workers = Number(values.workers ?? availableParallelism());
  const { modelId, embedSeconds, runs, noteRuns, copiedRuns } = await runLabeledSet(spec, workers, { copiedSentences: true });
  const quality = (pick: (run: QueryRun) => string[]): Quality => qualityOf(runs, pick);
  // The contract's reading of the score: at 0.6 and above a result is usually
  // related to the query, below it usually only loosely so. "Related" is
  // judged by topic (a note on the same topic as a labeled answer); the
  // strict labels are reported beside it.
  const pairsOf = (list: QueryRun[], strict = false): Scored[] =>
    list.flatMap((run) => run.semantic.map((hit) => ({ score: hit.score, relevant: (strict ? run.relevant : run.related).has(hit.id) })));
  const fitRuns = runs.filter((_, i) => i % 2 === 0);
  const heldOut = runs.filter((_, i) => i % 2 === 1);
  const fitted = fitCalibration(pairsOf(fitRuns));
  const knots = fitCalibration(pairsOf(runs));
  const noteFitRuns = noteRuns.filter((_, i) => i % 2 === 0);
  const noteHeldOut = noteRuns.filter((_, i) => i % 2 === 1);
  const noteFitted = fitCalibration(notePairs(noteFitRuns, 'clear'));
  const noteKnots = fitCalibration(notePairs(noteRuns, 'clear'));
  const noteSplit = (list: readonly NoteRun[], fittedKnots: [number, number][], queryKnots: [number, number][]) => ({
    clearPairs: splitReport(notePairs(list, 'clear'), fittedKnots),
    neighboursUnrelated: splitReport(notePairs(list, 'strict'), fittedKnots),
    neighboursRelated: splitReport(notePairs(list, 'loose'), fittedKnots),
    // What find_similar said before it had a map of its own.
    clearPairsThroughQueryMap: precisionAround(through(notePairs(list, 'clear'), queryKnots), 0.6),
  });

  const report = {
    model: modelId,
    notes: LABELED_NOTES.length,
    queries: LABELED_QUERIES.length,
    queriesSharingNoWord: queriesSharingNoWord(),
    embedding: { workers, seconds: Math.round(embedSeconds * 10) / 10, notesPerSecond: Math.round((LABELED_NOTES.length / embedSeconds) * 10) / 10 },
    semantic: quality((run) => run.semantic.map((hit) => hit.id)),
    fulltext: quality((run) => run.fulltext),
    // semantic_search as served: a word-for-word full-text match first.
    semanticAnchored: quality((run) => run.anchored.map((hit) => hit.id)),
    copiedSentence: {
      queries: copiedRuns.length,
      semantic: copiedReport(copiedRuns, (run) => run.semantic.map((hit) => hit.id)),
      semanticAnchored: copiedReport(copiedRuns, (run) => run.anchored.map((hit) => hit.id)),
      anchorFired: copiedRuns.filter((run) => run.anchored[0]?.id !== run.semantic[0]?.id).length,
    },
    anchorFiredOnLabeledQueries: runs.filter((run) => run.anchored.some((hit, i) => hit.id !== run.semantic[i]?.id)).length,
    calibration: {
      resultsPerQuery: TOP,
      rawCosine: { byTopic: cosines(pairsOf(runs)), strictlyRelevant: cosines(pairsOf(runs, true)) },
      fittedOnHalf: { knots: fitted, f1Threshold: bestThreshold(pairsOf(fitRuns)) },
      heldOutHalf: { related: splitReport(pairsOf(heldOut), fitted), strictlyRelevant: splitReport(pairsOf(heldOut, true), fitted) },
      shipped: { knots },
      allQueriesInSample: { related: splitReport(pairsOf(runs), knots), strictlyRelevant: splitReport(pairsOf(runs, true), knots) },
    },
    noteCalibration: {
      resultsPerNote: TOP,
      neighbourTopics: NEIGHBOUR_TOPICS.map((pair) => pair.join('~')),
      rawCosine: {
        ...cosines(notePairs(noteRuns, 'clear')),
        neighbouring: distribution(noteRuns.flatMap((run) => run.similar.filter((hit) => run.neighbours.has(hit.id)).map((hit) => hit.score))),
      },
      fittedOnHalf: { knots: noteFitted, f1Threshold: bestThreshold(notePairs(noteFitRuns, 'clear')) },
      heldOutHalf: noteSplit(noteHeldOut, noteFitted, fitted),
      shipped: { knots: noteKnots },
      allNotesInSample: noteSplit(noteRuns, noteKnots, knots),
    },
  };
  console.log(JSON.stringify(report, null, 2));
  await mkdir(BENCH_DIR, { recursive: true });
  await writeFile(path.join(BENCH_DIR, `quality-${modelId.replace(/[^A-Za-z0-9._-]+/g, '_')}.json`), `${JSON.stringify(report, null, 2)}\n`);

  const entry: Calibration = {
    model: modelId,
    points: knots,
    fittedOn: `npm run calibrate: top ${TOP} results of ${LABELED_QUERIES.length} labeled queries over ${LABELED_NOTES.length} notes`,
    notePoints: noteKnots,
    noteFittedOn: `npm run calibrate: top ${TOP} similar notes of each of ${LABELED_NOTES.length} labeled notes, same topic = related, neighbouring topics left out`,
  };
  const table = [...CALIBRATIONS.filter((existing) => existing.model !== modelId), entry];
  const file = path.join(ROOT, 'src', 'index', 'vectors', 'calibration-table.ts');
  const header = (await readFile(file, 'utf8')).split('export const CALIBRATIONS')[0] ?? '';
  // Knots on one line each, so the table reads as a table.
  const json = JSON.stringify(table, null, 2).replace(/\[\s+(-?[\d.]+),\s+(-?[\d.]+)\s+\]/g, '[$1, $2]');
  await writeFile(file, `${header}export const CALIBRATIONS: readonly Calibration[] = ${json};\n`);
  console.error(`Wrote the calibration of ${modelId} to src/index/vectors/calibration-table.ts; run npm run build to use it.`);
}

main().catch((error: unknown) => {
  console.error(`calibrate: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
