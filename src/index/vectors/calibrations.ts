import type { Calibration } from './calibration.js';

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
