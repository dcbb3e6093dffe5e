/**
 * SM-2 spaced repetition as Wikipedia states it, as a pure function.
 *
 *   if q >= 3:  I = 1 (n = 0), 6 (n = 1), else round(I × EF);  n += 1
 *   else:       n = 0, and the card comes back in 10 minutes (interval 0)
 *   EF' = EF + (0.1 − (5 − q)(0.08 + (5 − q)·0.02)), never under 1.3
 *
 * The interval is computed with the ease *before* this review's update, and
 * the ease is updated on every grade (Again included), exactly in Wikipedia's
 * order. Grades 1–4 (Again, Hard, Good, Easy) stand for q = 1, 3, 4, 5, so
 * the ease moves by −0.54, −0.14, 0 and +0.10.
 *
 * Decisions:
 * - Ease is stored rounded to 2 decimals. Every step of the formula is a
 *   whole number of hundredths, so rounding only removes floating drift
 *   (2.5 + 0.1 is 2.6, not 2.6000000000000005) and never changes the value.
 *   The multiplication round(I × EF) is done in integer hundredths for the
 *   same reason, so a true .5 rounds up reliably (6 × 2.25 = 13.5 → 14).
 * - A passing grade always schedules at least 1 day ahead (guards a
 *   hand-edited state with repetitions ≥ 2 but interval 0).
 * - `due` is `now + interval × 24 h` for a pass and `now + 10 min` for Again.
 */

import { formatIso, parseIso } from '../format/time.js';

export interface ReviewState {
  due: Date;
  /** days */
  interval: number;
  ease: number;
  repetitions: number;
}

/** 1 = Again, 2 = Hard, 3 = Good, 4 = Easy */
export type Grade = 1 | 2 | 3 | 4;

/** The `review:` block as written to YAML frontmatter. */
export interface ReviewFrontmatter {
  due: string;
  interval: number;
  ease: number;
  repetitions: number;
}

export const INITIAL_EASE = 2.5;
export const MIN_EASE = 1.3;
export const AGAIN_DELAY_MS = 10 * 60 * 1000;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** SM-2 quality for each grade. */
export const GRADE_QUALITY: Readonly<Record<Grade, number>> = { 1: 1, 2: 3, 3: 4, 4: 5 };

export function isGrade(value: unknown): value is Grade {
  return value === 1 || value === 2 || value === 3 || value === 4;
}

/** Round to hundredths, removing floating drift. */
function toCents(ease: number): number {
  return Math.round(ease * 100);
}

function normaliseEase(ease: number): number {
  return Math.max(toCents(MIN_EASE), toCents(ease)) / 100;
}

/**
 * Grade a card. `state` undefined means a new (never graded) card.
 * Throws RangeError for a grade outside 1–4 (callers validate first).
 */
export function gradeCard(state: ReviewState | undefined, grade: Grade, now: Date): ReviewState {
  if (!isGrade(grade)) throw new RangeError(`grade must be 1, 2, 3 or 4 (got ${String(grade)})`);
  const q = GRADE_QUALITY[grade];
  const prevEase = normaliseEase(state?.ease ?? INITIAL_EASE);
  const prevInterval = state?.interval ?? 0;
  const prevReps = state?.repetitions ?? 0;

  // Ease update (applies to every grade); in hundredths to stay exact.
  const d = 5 - q;
  const deltaCents = 10 - d * (8 + d * 2);
  const ease = Math.max(toCents(MIN_EASE), toCents(prevEase) + deltaCents) / 100;

  if (q < 3) {
    return {
      due: new Date(now.getTime() + AGAIN_DELAY_MS),
      interval: 0,
      ease,
      repetitions: 0,
    };
  }

  let interval: number;
  if (prevReps <= 0) interval = 1;
  else if (prevReps === 1) interval = 6;
  else interval = Math.round((prevInterval * toCents(prevEase)) / 100);
  interval = Math.max(1, interval);

  return {
    due: new Date(now.getTime() + interval * DAY_MS),
    interval,
    ease,
    repetitions: prevReps + 1,
  };
}

/** The YAML `review:` block for a state: `{due, interval, ease, repetitions}` in that order. */
export function toReviewFrontmatter(state: ReviewState): ReviewFrontmatter {
  return {
    due: formatIso(state.due),
    interval: state.interval,
    ease: toCents(state.ease) / 100,
    repetitions: state.repetitions,
  };
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/**
 * Read a `review:` block. Tolerant: anything unusable (not a mapping, a
 * missing or unparseable `due`, a missing, negative or non-numeric
 * `interval` / `ease` / `repetitions`) yields `undefined` — the card is then
 * treated as new — rather than throwing. Numeric strings are accepted,
 * `interval` and `repetitions` are rounded to whole numbers, and an ease
 * below 1.3 is raised to 1.3 (ease is rounded to hundredths).
 */
export function fromReviewFrontmatter(raw: unknown): ReviewState | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || raw instanceof Date) {
    return undefined;
  }
  const rec = raw as Record<string, unknown>;
  const due = parseIso(rec['due']);
  const interval = toNumber(rec['interval']);
  const ease = toNumber(rec['ease']);
  const repetitions = toNumber(rec['repetitions']);
  if (due === undefined || interval === undefined || ease === undefined || repetitions === undefined) {
    return undefined;
  }
  if (interval < 0 || repetitions < 0 || ease <= 0) return undefined;
  return {
    due,
    interval: Math.round(interval),
    ease: normaliseEase(ease),
    repetitions: Math.round(repetitions),
  };
}
