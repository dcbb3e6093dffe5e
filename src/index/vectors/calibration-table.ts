/**
 * A model's raw cosine scores do not mean the same thing from one model to
 * another (sentence encoders rarely score unrelated text near 0). The
 * `similarity` an assistant reads is the cosine passed through a monotonic,
 * piecewise-linear map fitted per model on a labeled set (`npm run
 * calibrate`), so that 0.6 and above is usually relevant and below usually
 * not, whatever the model (calibration.ts applies it).
 *
 * The type is defined here, in the table's own file, so that the table
 * imports nothing (calibration.ts imports the table, not the other way).
 * `npm run calibrate` rewrites this file: it keeps everything above the
 * table's declaration as it is and writes the table anew.
 */
export interface Calibration {
  /** The embedder's identity, as stored with the vectors. */
  model: string;
  /** [raw cosine, similarity] knots, increasing in both. */
  points: readonly (readonly [number, number])[];
  /** Where the knots came from, for people reading the table. */
  fittedOn: string;
}

/**
 * Fitted calibrations, one per model. Written by `npm run calibrate` from the
 * labeled set in bench/data/semantic-set.json; edit by running it again.
 */
export const CALIBRATIONS: readonly Calibration[] = [
  {
    "model": "use-lite-512",
    "points": [
      [0, 0],
      [0.4494, 0.6],
      [0.7375, 0.95],
      [1, 1]
    ],
    "fittedOn": "npm run calibrate: top 10 results of 54 labeled queries over 276 notes"
  }
];
