/**
 * `npm run calibrate [-- --model MODEL]`: measure semantic search against
 * full-text search on the labeled set (recall@5, MRR), fit the model's
 * similarity calibration, and write it to src/index/vectors/calibration-table.ts.
 *
 * The calibration is fitted on half the queries and its effect reported on
 * the other half, so the figures are not measured on what was fitted; the
 * table that ships is then fitted on all queries.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { applyCalibration } from '../src/index/vectors/calibration.js';
import { CALIBRATIONS, type Calibration } from '../src/index/vectors/calibration-table.js';
import type { EmbedderSpec } from '../src/index/vectors/embedder.js';
import { qualityOf, runLabeledSet, TOP, type Quality, type QueryRun } from './labeled-runs.js';
import { bestThreshold, fitCalibration, precisionAround, type Scored } from './quality.js';
import { BENCH_DIR, ROOT } from './paths.js';
import { LABELED_NOTES, LABELED_QUERIES, queriesSharingNoWord } from './semantic-set.js';

function splitReport(pairs: Scored[], knots: [number, number][]) {
  const calibrated = pairs.map((pair) => ({ score: applyCalibration(knots, pair.score), relevant: pair.relevant }));
  return { rawCosine: precisionAround(pairs, 0.6), calibrated: precisionAround(calibrated, 0.6) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { model: { type: 'string' }, workers: { type: 'string' } } });
  const model = values.model ?? 'use-lite';
  const spec: EmbedderSpec = model === 'use-lite' ? { kind: 'use-lite' } : { kind: 'transformers', model: path.resolve(model) };
  const workers = Number(values.workers ?? availableParallelism());
  const { modelId, embedSeconds, runs } = await runLabeledSet(spec, workers);
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

  const report = {
    model: modelId,
    notes: LABELED_NOTES.length,
    queries: LABELED_QUERIES.length,
    queriesSharingNoWord: queriesSharingNoWord(),
    embedding: { workers, seconds: Math.round(embedSeconds * 10) / 10, notesPerSecond: Math.round((LABELED_NOTES.length / embedSeconds) * 10) / 10 },
    semantic: quality((run) => run.semantic.map((hit) => hit.id)),
    fulltext: quality((run) => run.fulltext),
    calibration: {
      resultsPerQuery: TOP,
      fittedOnHalf: { knots: fitted, f1Threshold: bestThreshold(pairsOf(fitRuns)) },
      heldOutHalf: { related: splitReport(pairsOf(heldOut), fitted), strictlyRelevant: splitReport(pairsOf(heldOut, true), fitted) },
      shipped: { knots },
      allQueriesInSample: { related: splitReport(pairsOf(runs), knots), strictlyRelevant: splitReport(pairsOf(runs, true), knots) },
    },
  };
  console.log(JSON.stringify(report, null, 2));
  await mkdir(BENCH_DIR, { recursive: true });
  await writeFile(path.join(BENCH_DIR, `quality-${modelId.replace(/[^A-Za-z0-9._-]+/g, '_')}.json`), `${JSON.stringify(report, null, 2)}\n`);

  const entry: Calibration = {
    model: modelId,
    points: knots,
    fittedOn: `npm run calibrate: top ${TOP} results of ${LABELED_QUERIES.length} labeled queries over ${LABELED_NOTES.length} notes`,
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
