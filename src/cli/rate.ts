/**
 * The rate and the time left that a long command shows beside its progress
 * bar (`dexi-vault index` while it embeds). Pure: the command samples its
 * counts on a clock and these turn the samples into words.
 */

/** A count of items done at a moment (ms on any clock that only goes forward). */
export interface ProgressSample {
  ms: number;
  done: number;
}

export interface RateEstimate {
  /** Items a second over the samples kept. */
  perSecond: number;
  /** Seconds until `total` at that rate. */
  secondsLeft: number;
}

/**
 * The samples of the last `windowMs` before the newest one, and the one just
 * before them, so that the rate follows what the work costs now (the
 * second pass of embedding costs more a note than the first) and is still
 * measured over `windowMs` once enough time has passed. Pure.
 */
export function recentSamples(samples: readonly ProgressSample[], windowMs: number): ProgressSample[] {
  const newest = samples.at(-1);
  if (!newest) return [];
  let first = samples.length - 1;
  while (first > 0 && newest.ms - (samples[first - 1] as ProgressSample).ms <= windowMs) first--;
  // One sample more, so that the span reaches windowMs.
  return samples.slice(Math.max(0, first - 1));
}

/**
 * Items done before a rate is told: embedding hands out its work in groups
 * of up to 256 notes, and a first step of one note, before the first group
 * came back, said "0.2 notes/s, about 2 h 32 min left" on a vault embedded
 * in 6 minutes.
 */
const MIN_DONE = 10;

/**
 * The rate between the first and the last sample and the time left to
 * `total` at it; undefined until a second has passed between them and
 * MIN_DONE items (or all that were left) were done in it. Pure.
 */
export function estimateRate(samples: readonly ProgressSample[], total: number): RateEstimate | undefined {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last) return undefined;
  const seconds = (last.ms - first.ms) / 1000;
  const done = last.done - first.done;
  if (seconds < 1 || done <= 0 || done < Math.min(MIN_DONE, total - first.done)) return undefined;
  const perSecond = done / seconds;
  return { perSecond, secondsLeft: Math.max(0, total - last.done) / perSecond };
}

/** A time left as a person would say it: "12 s", "4 min", "1 h 5 min". Pure. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return 'unknown';
  const whole = Math.round(seconds);
  if (whole < 60) return `${Math.max(1, whole)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** "4.2 notes/s": one decimal below 10 a second, whole numbers above. Pure. */
export function formatRate(perSecond: number, unit: string): string {
  const shown = perSecond < 10 ? perSecond.toFixed(1) : Math.round(perSecond).toLocaleString('en');
  return `${shown} ${unit}/s`;
}

/** What follows a progress bar: "4.2 notes/s, about 3 min left", or that the rate is being measured. Pure. */
export function describeRate(estimate: RateEstimate | undefined, unit: string): string {
  if (!estimate) return 'measuring the rate';
  return `${formatRate(estimate.perSecond, unit)}, about ${formatDuration(estimate.secondsLeft)} left`;
}
