/**
 * A model's raw cosine scores do not mean the same thing from one model to
 * another (sentence encoders rarely score unrelated text near 0). The
 * `similarity` an assistant reads is the cosine passed through a monotonic,
 * piecewise-linear map fitted per model on a labeled set (`npm run
 * calibrate`), so that 0.6 and above is usually relevant and below usually
 * not, whatever the model (calibration.ts applies it).
 *
 * Each model has two maps. A query is short and a note long, so a query's
 * cosine to a note runs far lower than one note's to another (two notes
 * share length, style and vocabulary whatever their topic): with USE-lite,
 * related query→note results have a median cosine near 0.43, and
 * note→note pairs of different topics one near 0.57. `points` is fitted on
 * queries (semantic_search), `notePoints` on pairs of notes (find_similar).
 *
 * The type is defined here, in the table's own file, so that the table
 * imports nothing (calibration.ts imports the table, not the other way).
 * `npm run calibrate` rewrites this file: it keeps everything above the
 * table's declaration as it is and writes the table anew.
 */
export interface Calibration {
  /** The embedder's identity, as stored with the vectors. */
  model: string;
  /** Query → note (semantic_search): [raw cosine, similarity] knots, increasing in both. */
  points: readonly (readonly [number, number])[];
  /** Where the knots came from, for people reading the table. */
  fittedOn: string;
  /** Note → note (find_similar): [raw cosine, similarity] knots, increasing in both. */
  notePoints: readonly (readonly [number, number])[];
  /** Where the note-to-note knots came from. */
  noteFittedOn: string;
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
    "fittedOn": "npm run calibrate: top 10 results of 54 labeled queries over 276 notes",
    "notePoints": [
      [0, 0],
      [0.5898, 0.6],
      [0.8397, 0.95],
      [1, 1]
    ],
    "noteFittedOn": "npm run calibrate: top 10 similar notes of each of 276 labeled notes, same topic = related, neighbouring topics left out"
  }
];
