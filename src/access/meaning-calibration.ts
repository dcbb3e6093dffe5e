import { applyCalibration, similarityFor, type SimilarityKind } from '../index/vectors/calibration.js';
import type { SemanticIndexer } from '../index/vectors/semantic-indexer.js';
import type { EmbeddingProgress, VisibleHit, VisibleNote } from './view-types.js';
import {
  BASELINE_CENTRE,
  baselineOf,
  baselineSample,
  fitKnots,
  grownEnough,
  NEAREST_RANK,
  QUERY_BASELINE_CENTRE,
  QUERY_LEAST_AT06,
  standardScore,
  UNRELATED_ABOVE_06,
  type Baseline,
} from '../index/vectors/vault-calibration.js';

/*
 * The similarity semantic_search and find_similar show, calibrated on the
 * notes the connection sees (vault-calibration.ts says how). The sample and
 * the fitted knots come from the visible notes only: a calibration over the
 * whole vault would make a bounded connection's scores depend on notes
 * outside its boundary. A fit is kept per set of visible notes (the
 * boundary's key), shared by the connections that see the same notes, and
 * fitted again once the visible embedded notes grow or shrink by a fifth.
 */

/** Notes a baseline is drawn from: 47 cosines a query cost well under a millisecond, and give its spread to a few percent. */
const BASELINE_SIZE = 48;

/** Sampled notes whose titles, as queries, give the query kind's fit. */
const PROBES = 32;

/** Neighbours each sampled note or title contributes to the related end. */
const PROBE_NEIGHBOURS = 3;

/** Below this many visible embedded notes, the model's fixed table (calibration-table.ts) is used. */
export const MIN_CALIBRATION_NOTES = 24;

/** The knots fitted on one set of visible notes. */
interface Fitted {
  sample: readonly string[];
  knots: Record<SimilarityKind, [number, number][]>;
  /** Visible embedded notes when fitted. */
  fittedAt: number;
}

interface FitState {
  fitted?: Fitted;
  fitting?: Promise<void>;
  /** The index's note count when the visible notes were last counted: they are counted again only when it moves. */
  countedAtVectors: number;
  visibleEmbedded: string[];
}

/** What the calibration needs of a connection: its notes, through its view. */
export interface CalibrationScope {
  semantic: SemanticIndexer;
  /** The set of notes the connection sees, as a key: connections with the same key share a fit. */
  key: string;
  visible: (id: string) => boolean;
  visibleIds: () => Iterable<string>;
  titleOf: (id: string) => string;
}

const fits = new WeakMap<SemanticIndexer, Map<string, FitState>>();

/** The scope's fit, fitting it first when there is none yet; undefined while too few visible notes are embedded. */
async function fittedFor(scope: CalibrationScope): Promise<Fitted | undefined> {
  const { semantic } = scope;
  let states = fits.get(semantic);
  if (!states) fits.set(semantic, (states = new Map()));
  let state = states.get(scope.key);
  if (!state) states.set(scope.key, (state = { countedAtVectors: -1, visibleEmbedded: [] }));
  if (semantic.vectorNotes !== state.countedAtVectors) {
    state.countedAtVectors = semantic.vectorNotes;
    state.visibleEmbedded = [...scope.visibleIds()].filter((id) => semantic.isEmbedded(id));
  }
  const count = state.visibleEmbedded.length;
  if (!state.fitted && count < MIN_CALIBRATION_NOTES) return undefined;
  if (!state.fitted || grownEnough(state.fitted.fittedAt, count)) {
    const current = state;
    current.fitting ??= fit(scope, current.visibleEmbedded)
      .then((fitted) => {
        current.fitted = fitted;
      })
      .finally(() => {
        current.fitting = undefined;
      });
    // Only the first fit is waited for; a new one runs while the last answers.
    if (!current.fitted) await current.fitting;
  }
  return state.fitted;
}

/** The quantile of its baseline cosines each kind's centre is at least (vault-calibration.ts says why they differ). */
const CENTRE_AT: Record<SimilarityKind, number> = { note: BASELINE_CENTRE, query: QUERY_BASELINE_CENTRE };

/** The baseline of a query or note of `kind` (`cosineTo`: its cosine to a note) from the sample's notes the connection still sees, and its `nearest` cosines. */
function baselineFor(
  fitted: Fitted,
  scope: CalibrationScope,
  kind: SimilarityKind,
  cosineTo: (id: string) => number | undefined,
  nearest: readonly number[],
  except?: string,
): Baseline | undefined {
  const cosines: number[] = [];
  for (const id of fitted.sample) {
    if (id === except || !scope.visible(id)) continue;
    const cosine = cosineTo(id);
    if (cosine !== undefined) cosines.push(cosine);
  }
  return baselineOf(cosines, nearest, CENTRE_AT[kind]);
}

/** Standard scores of `cosineTo` (one query's or note's cosines, of `kind`) to the sample's notes but `except`, with its baseline. */
function againstSample(
  sample: readonly string[],
  kind: SimilarityKind,
  cosineTo: (id: string) => number | undefined,
  nearest: readonly number[],
  except?: string,
): { scores: number[]; baseline?: Baseline } {
  const cosines: number[] = [];
  for (const other of sample) {
    const cosine = other === except ? undefined : cosineTo(other);
    if (cosine !== undefined) cosines.push(cosine);
  }
  const baseline = baselineOf(cosines, nearest, CENTRE_AT[kind]);
  return baseline ? { scores: cosines.map((cosine) => standardScore(cosine, baseline)), baseline } : { scores: [] };
}

/**
 * Fits both kinds' knots on the visible embedded notes `ids`: for notes,
 * each sampled note against the other sampled notes (unrelated) and its
 * nearest visible notes (related); for queries, the same with sampled
 * notes' titles embedded as queries, the vault's own pseudo-queries, of
 * which only those that find their own note among their nearest give the
 * related end.
 */
async function fit(scope: CalibrationScope, ids: readonly string[]): Promise<Fitted> {
  const { semantic, visible } = scope;
  const sample = baselineSample(ids, BASELINE_SIZE);
  const notes = { unrelated: [] as number[], related: [] as number[] };
  for (const id of sample) {
    const hits = await semantic.similar(id, NEAREST_RANK, (other) => other !== id && visible(other));
    const { scores, baseline } = againstSample(sample, 'note', (other) => semantic.noteCosine(id, other), nearestCosines(hits), id);
    notes.unrelated.push(...scores);
    if (baseline) for (const hit of hits.slice(0, PROBE_NEIGHBOURS)) notes.related.push(standardScore(hit.score, baseline));
  }
  const queries = { unrelated: [] as number[], related: [] as number[] };
  const probes = sample.slice(0, PROBES);
  const vectors = await semantic.embedQueries(probes.map((id) => scope.titleOf(id)));
  for (const [i, vector] of vectors.entries()) {
    const hits = await semantic.searchVector(vector, NEAREST_RANK, visible);
    const { scores, baseline } = againstSample(sample, 'query', (other) => semantic.scoreNote(vector, other), nearestCosines(hits), probes[i]);
    queries.unrelated.push(...scores);
    // Only a title that finds its own note is one the model reads (on the help vault, most titles are in scripts it cannot).
    if (!baseline || !hits.some((hit) => hit.id === probes[i])) continue;
    for (const hit of hits.slice(0, PROBE_NEIGHBOURS)) queries.related.push(standardScore(hit.score, baseline));
  }
  return { sample, knots: { note: fitKnots(notes, UNRELATED_ABOVE_06.note), query: fitKnots(queries, UNRELATED_ABOVE_06.query, QUERY_LEAST_AT06) }, fittedAt: ids.length };
}

/** The cosines of a search's hits, best first: what a baseline's centre reads its `NEAREST_RANK`th from. */
export function nearestCosines(hits: readonly { score: number }[]): number[] {
  return hits.map((hit) => hit.score).sort((a, b) => b - a);
}

/**
 * The cosines a question's baseline reads its tenth nearest from, when its
 * search put the word-for-word match `anchor` first (searchMeaning asks for
 * one hit more then): the hits' but the anchor's when it is the lowest, so
 * not among the vectors' own nearest. Counted in, a match the vectors rank
 * far down lowered the centre and lifted every other result (on the help
 * vault, "publish my notes as a website": all ten at 0.6 or more).
 */
export function nearestBesideAnchor(hits: readonly { id: string; score: number }[], anchor: string | undefined): number[] {
  const cosines = nearestCosines(hits);
  const anchored = anchor === undefined ? undefined : hits.find((hit) => hit.id === anchor);
  return anchored && anchored.score <= (cosines[cosines.length - 1] as number) ? cosines.slice(0, -1) : cosines;
}

/**
 * From raw cosines to the similarity shown, for one query (`cosineTo`: its
 * cosine to a note, as a search scores it; `nearest`: its nearest notes'
 * cosines, best first, at least `NEAREST_RANK` of them where there are so
 * many): through the fit on the scope's notes, else the model's fixed
 * table. `except`: the note a find_similar starts from, left out of its own
 * baseline.
 */
export async function similarityMap(
  scope: CalibrationScope,
  kind: SimilarityKind,
  cosineTo: (id: string) => number | undefined,
  nearest: readonly number[],
  except?: string,
): Promise<(raw: number) => number> {
  const fitted = await fittedFor(scope);
  const baseline = fitted && baselineFor(fitted, scope, kind, cosineTo, nearest, except);
  if (!fitted || !baseline) return similarityFor(scope.semantic.embedderId, kind);
  const knots = fitted.knots[kind];
  return (raw) => Math.round(applyCalibration(knots, standardScore(raw, baseline)) * 1000) / 1000;
}

/** The knots of the scope's fit (standard score → similarity), for measuring; undefined while the fixed table applies. */
export async function fittedKnots(scope: CalibrationScope): Promise<Record<SimilarityKind, [number, number][]> | undefined> {
  return (await fittedFor(scope))?.knots;
}

/**
 * The similarity a note holding every word of a query of three words or
 * more (VaultView#wordForWordMatch) shows at least: that evidence is part
 * of its score, so that sorting by the score shown keeps it at the top but
 * for a note the vectors alone find closer still.
 */
export const ANCHOR_SIMILARITY = 0.95;

/**
 * Hits with the similarity they show, sorted by it, best first (a stable
 * sort: equal similarities keep the search's order). `anchor`: the
 * word-for-word match, raised to ANCHOR_SIMILARITY.
 */
export function bySimilarity(hits: readonly VisibleHit[], similarity: (raw: number) => number, anchor?: string): VisibleHit[] {
  const shown = hits.map((hit) => {
    const own = similarity(hit.score);
    return { ...hit, similarity: hit.note.record.id === anchor ? Math.max(own, ANCHOR_SIMILARITY) : own };
  });
  return shown.sort((a, b) => b.similarity - a.similarity);
}

/**
 * How far the embedding of `notes` is (VaultView#embeddingProgress);
 * undefined once every one is. A note whose text could not be embedded
 * counts on neither side: it never will be.
 */
export function embeddingProgressOf(semantic: SemanticIndexer, notes: Iterable<VisibleNote>): EmbeddingProgress | undefined {
  let embedded = 0;
  let searchable = 0;
  let total = 0;
  for (const { record } of notes) {
    if (semantic.hasFailed(record.id)) continue;
    total++;
    if (semantic.isComplete(record.id)) embedded++;
    if (semantic.isEmbedded(record.id)) searchable++;
  }
  return embedded === total ? undefined : { embedded, searchable, total };
}
