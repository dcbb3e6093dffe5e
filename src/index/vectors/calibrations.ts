import type { Calibration } from './calibration.js';

/**
 * Fitted calibrations, one per model. Written by `npm run calibrate` from the
 * labeled set in src/bench/semantic-set.ts; edit by running it again.
 */
export const CALIBRATIONS: readonly Calibration[] = [];
