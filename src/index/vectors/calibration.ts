import { CALIBRATIONS } from './calibration-table.js';

/*
 * From a raw cosine to the `similarity` an assistant reads: the model's
 * fitted map from the table in calibration-table.ts (which says why there
 * is one), applied here. It is the fallback: once enough of the notes a
 * connection sees are embedded, similarity is calibrated on those notes
 * (vault-calibration.ts, src/access/meaning-calibration.ts).
 */

/** Apply a piecewise-linear map; clamps to [0, 1] and to the end knots. Pure. */
export function applyCalibration(points: readonly (readonly [number, number])[], raw: number): number {
  const clamp = (value: number): number => Math.min(1, Math.max(0, value));
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) return clamp(raw);
  if (raw <= first[0]) return clamp(first[1]);
  if (raw >= last[0]) return clamp(last[1]);
  for (let i = 1; i < points.length; i++) {
    const [x1, y1] = points[i] as readonly [number, number];
    const [x0, y0] = points[i - 1] as readonly [number, number];
    if (raw <= x1) return clamp(x1 === x0 ? y1 : y0 + ((raw - x0) * (y1 - y0)) / (x1 - x0));
  }
  return clamp(last[1]);
}

/**
 * What was compared: a query with notes (semantic_search), or a note with
 * other notes (find_similar). The two run on different cosine scales, so
 * each has its own map.
 */
export type SimilarityKind = 'query' | 'note';

/** The map for a model and a kind of comparison: its fitted calibration, or the raw cosine clamped to [0, 1] when it has none. */
export function similarityFor(model: string | undefined, kind: SimilarityKind): (raw: number) => number {
  const calibration = model === undefined ? undefined : CALIBRATIONS.find((entry) => entry.model === model);
  if (!calibration) return (raw) => Math.min(1, Math.max(0, raw));
  const points = kind === 'note' ? calibration.notePoints : calibration.points;
  return (raw) => Math.round(applyCalibration(points, raw) * 1000) / 1000;
}
