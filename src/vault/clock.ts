/** The source of "now", handed down so that tests can set the time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
