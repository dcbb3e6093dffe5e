/*
 * Similarity calibrated on the vault itself (issue 33). A fixed map from
 * raw cosine to similarity (calibration-table.ts) cannot hold on every
 * vault: on a vault of one subject every note's cosine to every other runs
 * high (the help vault of Obsidian: top 10 between 0.85 and 0.99), and a
 * note in a script the model does not read scores 0.99 to everything.
 *
 * So a raw cosine is first read against what unrelated looks like for that
 * very query or note, its centre: the higher of its 90th-percentile cosine
 * (a question's: its median, QUERY_BASELINE_CENTRE says why) to a fixed
 * sample of the notes it may see (the baseline) and its cosine to its 10th
 * nearest note (`NEAREST_RANK`). It is measured from there in
 * the baseline's standard deviations. A note in a language the model cannot
 * read is as close to the whole of its language as to its nearest notes
 * (Russian help notes: 0.96 to their language, 0.98 to their nearest), so
 * it scores low; a note, or a question, whose best notes stand out from its
 * tenth best scores high. The vault's own sample then places the knots of
 * the map from that score to similarity: 0.6 above all but a few per cent
 * of random pairs, the upper knots at the scores of each sampled note's
 * nearest neighbours. Everything here is pure;
 * src/access/meaning-calibration.ts gathers the cosines. BENCHMARKS.md has
 * the measurements behind these choices.
 */

/** What unrelated looks like for one query or note: its centre (the module's comment says which) and the spread of its cosines to the baseline sample. */
export interface Baseline {
  centre: number;
  sd: number;
}

/** The quantile of a note's baseline cosines that its centre is at least (the module's comment says why so high). */
export const BASELINE_CENTRE = 0.9;

/**
 * The same for a question (semantic_search): its median. A question is
 * written in the reader's language, so the floor for notes in scripts the
 * model cannot read is not needed, and on a small vault, where a topic is a
 * tenth of the notes, the 90th percentile falls among the topic's own notes
 * and hid how far they stand out from the rest; the tenth nearest note
 * stays the floor.
 */
export const QUERY_BASELINE_CENTRE = 0.5;

/** The rank of the nearest note whose cosine the centre is at least: scores say how far a result stands out from a query's tenth best. */
export const NEAREST_RANK = 10;

/** Fewer baseline cosines than this say too little about a query's spread. */
export const MIN_BASELINE = 8;

/**
 * A floor on the spread: a query whose cosines to the sample are all nearly
 * equal would otherwise turn a hair's difference into a huge score.
 */
const MIN_SPREAD = 0.02;

/**
 * The baseline of a query or note from its cosines to the sample and the
 * cosines of its nearest notes, best first (`NEAREST_RANK` of them, or
 * fewer on a small vault); undefined when there are too few cosines to the
 * sample.
 */
export function baselineOf(cosines: readonly number[], nearest: readonly number[] = [], centreAt = BASELINE_CENTRE): Baseline | undefined {
  if (cosines.length < MIN_BASELINE) return undefined;
  const mean = cosines.reduce((sum, value) => sum + value, 0) / cosines.length;
  const variance = cosines.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (cosines.length - 1);
  const ranked = nearest.length >= NEAREST_RANK ? (nearest[NEAREST_RANK - 1] as number) : -Infinity;
  return { centre: Math.max(quantile(cosines, centreAt), ranked), sd: Math.max(MIN_SPREAD, Math.sqrt(variance)) };
}

/** How many spreads a cosine stands above its query's baseline centre. */
export function standardScore(raw: number, baseline: Baseline): number {
  return (raw - baseline.centre) / baseline.sd;
}

/** The value below which a share `q` of `values` falls (nearest rank); NaN for none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

/** Standard scores of one kind of comparison (query→note or note→note) gathered from the vault's sample. */
export interface ScoreSample {
  /** Random pairs: each sampled query or note against the other sampled notes. */
  unrelated: readonly number[];
  /** Each sampled query's or note's nearest notes among those visible. */
  related: readonly number[];
}

/**
 * The share of random pairs that may score 0.6 or more, by kind of
 * comparison. Random pairs of a vault's notes are not all unrelated (a
 * vault of six topics has one pair in six on the same topic), so the share
 * is not tiny; a query is short and its cosines to its notes low, so its
 * related notes stand out less, and it gets a larger share.
 */
export const UNRELATED_ABOVE_06 = { note: 0.02, query: 0.05 } as const;

/** The least standard score of the 0.6 knot: a result must stand above a query's centre to reach 0.6. */
const MIN_STEP = 0.25;

/**
 * The least standard score of a question's 0.6 knot: a whole spread above
 * its tenth nearest note. Titles as pseudo-queries put few random pairs
 * above the centre, so the fitted knot sat at the quarter-spread floor, and
 * on a vault of one subject a question's tenth best notes were then at 0.6
 * whether they answered it or not (on Obsidian's help vault, 26 of 74
 * results at 0.6 or more were related); questions labeled by hand put the
 * cut at a spread (BENCHMARKS.md).
 */
export const QUERY_LEAST_AT06 = 1;

/**
 * The least distance between the upper knots, in standard scores: where the
 * vault's nearest neighbours stand no higher than its random pairs (pseudo-
 * queries in a script the model cannot read), the map would otherwise climb
 * from 0.6 to 1 within half a spread.
 */
const MIN_UPPER_STEP = 1;

/**
 * The map from standard score to similarity, increasing, fitted on the
 * vault's sample: 0 three spreads below the baseline centre, 0.3 at it,
 * 0.6 above all but `unrelatedAbove` of random pairs, 0.8 at the median
 * nearest neighbour, 0.95 at its 90th percentile, 1 beyond. On a vault whose
 * neighbours stand no higher than random pairs (a model that cannot read
 * the notes' language), the upper knots sit just above the 0.6 one, and
 * neighbours get no more than random pairs do. `leastAt06`: the least
 * standard score of the 0.6 knot.
 */
export function fitKnots(sample: ScoreSample, unrelatedAbove: number, leastAt06 = MIN_STEP): [number, number][] {
  const unrelated = quantile(sample.unrelated, 1 - unrelatedAbove);
  const at06 = Math.max(leastAt06, Number.isNaN(unrelated) ? 3 : unrelated);
  const median = quantile(sample.related, 0.5);
  const at08 = Math.max(at06 + MIN_UPPER_STEP, Number.isNaN(median) ? -Infinity : median);
  const high = quantile(sample.related, 0.9);
  const at095 = Math.max(at08 + MIN_UPPER_STEP, Number.isNaN(high) ? -Infinity : high);
  return [
    [-3, 0],
    [0, 0.3],
    [at06, 0.6],
    [at08, 0.8],
    [at095, 0.95],
    [at095 + (at095 - at06), 1],
  ];
}

/**
 * The notes a baseline is drawn from: up to `size` of `ids`, those whose
 * hash is lowest. The choice depends on the set alone, not on its order or
 * on any note outside it, and a note once chosen stays chosen as the set
 * grows unless one of lower hash comes in.
 */
export function baselineSample(ids: Iterable<string>, size: number): string[] {
  const ranked: { id: string; hash: number }[] = [];
  for (const id of ids) ranked.push({ id, hash: fnv1a(id) });
  ranked.sort((a, b) => a.hash - b.hash || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return ranked.slice(0, size).map((entry) => entry.id);
}

/** FNV-1a, 32 bits: a stable, well-spread order over ids. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Whether a count has moved far enough from the one a calibration was fitted at to fit it again. */
export function grownEnough(fittedAt: number, now: number): boolean {
  return Math.abs(now - fittedAt) >= Math.max(1, fittedAt * REFIT_CHANGE);
}

/** The change in visible embedded notes (a share of those at the last fit) that calls for a new fit. */
export const REFIT_CHANGE = 0.2;
