import { describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import {
  AGAIN_DELAY_MS,
  DAY_MS,
  fromReviewFrontmatter,
  gradeCard,
  toReviewFrontmatter,
  type Grade,
  type ReviewState,
} from '../../src/review/sm2.js';

const T0 = new Date('2026-07-14T09:12:00Z');
const MIN = 60 * 1000;

const AGAIN: Grade = 1;
const HARD: Grade = 2;
const GOOD: Grade = 3;
const EASY: Grade = 4;

/** [grade, interval, ease, repetitions, due offset from the grading time in ms] */
type Step = [Grade, number, number, number, number];

const d = (days: number): number => days * DAY_MS;

const walks: Array<{ name: string; start?: ReviewState; steps: Step[] }> = [
  {
    name: 'Good, Good, Easy from new → 1, 6, 15 days; ease 2.5, 2.5, 2.6',
    steps: [
      [GOOD, 1, 2.5, 1, d(1)],
      [GOOD, 6, 2.5, 2, d(6)],
      [EASY, 15, 2.6, 3, d(15)],
      [GOOD, 39, 2.6, 4, d(39)], // round(15 × 2.6)
    ],
  },
  {
    name: 'Again from new: repetitions 0, interval 0, back in 10 minutes, ease lowered',
    steps: [[AGAIN, 0, 1.96, 0, 10 * MIN]],
  },
  {
    name: 'Again repeatedly: ease bottoms out at 1.3',
    steps: [
      [AGAIN, 0, 1.96, 0, AGAIN_DELAY_MS],
      [AGAIN, 0, 1.42, 0, AGAIN_DELAY_MS],
      [AGAIN, 0, 1.3, 0, AGAIN_DELAY_MS],
      [AGAIN, 0, 1.3, 0, AGAIN_DELAY_MS],
      [GOOD, 1, 1.3, 1, d(1)],
    ],
  },
  {
    name: 'Hard passes but lowers ease by 0.14, never under 1.3',
    steps: [
      [HARD, 1, 2.36, 1, d(1)],
      [HARD, 6, 2.22, 2, d(6)],
      [HARD, 13, 2.08, 3, d(13)], // round(6 × 2.22 = 13.32)
      [HARD, 27, 1.94, 4, d(27)], // round(13 × 2.08 = 27.04)
      [HARD, 52, 1.8, 5, d(52)], // round(27 × 1.94 = 52.38)
      [HARD, 94, 1.66, 6, d(94)], // round(52 × 1.8 = 93.6)
      [HARD, 156, 1.52, 7, d(156)], // round(94 × 1.66 = 156.04)
      [HARD, 237, 1.38, 8, d(237)], // round(156 × 1.52 = 237.12)
      [HARD, 327, 1.3, 9, d(327)], // round(237 × 1.38 = 327.06); 1.24 → 1.3
      [HARD, 425, 1.3, 10, d(425)], // round(327 × 1.3 = 425.1)
      [HARD, 553, 1.3, 11, d(553)], // round(425 × 1.3 = 552.5) → 553
    ],
  },
  {
    name: 'Again after several passes resets repetitions, keeps the lowered ease',
    steps: [
      [GOOD, 1, 2.5, 1, d(1)],
      [GOOD, 6, 2.5, 2, d(6)],
      [GOOD, 15, 2.5, 3, d(15)],
      [AGAIN, 0, 1.96, 0, 10 * MIN],
      [GOOD, 1, 1.96, 1, d(1)],
      [GOOD, 6, 1.96, 2, d(6)],
      [GOOD, 12, 1.96, 3, d(12)], // round(6 × 1.96 = 11.76)
    ],
  },
  {
    name: 'Easy from new raises ease by 0.1 each time',
    steps: [
      [EASY, 1, 2.6, 1, d(1)],
      [EASY, 6, 2.7, 2, d(6)],
      [EASY, 16, 2.8, 3, d(16)], // round(6 × 2.7 = 16.2): the ease before this update
      [EASY, 45, 2.9, 4, d(45)], // round(16 × 2.8 = 44.8)
    ],
  },
  {
    name: 'a half rounds up (6 × 2.25 = 13.5 → 14)',
    start: { due: T0, interval: 6, ease: 2.25, repetitions: 2 },
    steps: [[GOOD, 14, 2.25, 3, d(14)]],
  },
  {
    name: 'Hard on a mature card uses the ease before the update',
    start: { due: T0, interval: 10, ease: 2.5, repetitions: 5 },
    steps: [[HARD, 25, 2.36, 6, d(25)]],
  },
];

describe('gradeCard', () => {
  for (const walk of walks) {
    it(walk.name, () => {
      let state = walk.start;
      let now = T0;
      walk.steps.forEach(([grade, interval, ease, repetitions, offset], i) => {
        const next = gradeCard(state, grade, now);
        const got = {
          step: i,
          interval: next.interval,
          ease: next.ease,
          repetitions: next.repetitions,
          offset: next.due.getTime() - now.getTime(),
        };
        // toEqual uses Object.is on numbers: 2.6 must be exactly 2.6, not 2.6000000000000005.
        expect(got).toEqual({ step: i, interval, ease, repetitions, offset });
        state = next;
        now = next.due; // review exactly when due
      });
    });
  }

  it('does not mutate the previous state', () => {
    const prev: ReviewState = { due: new Date(T0), interval: 6, ease: 2.5, repetitions: 2 };
    const copy = { ...prev, due: new Date(prev.due) };
    gradeCard(prev, AGAIN, T0);
    expect(prev).toEqual(copy);
  });

  it('rejects a grade outside 1–4 at run time', () => {
    expect(() => gradeCard(undefined, 0 as Grade, T0)).toThrow(RangeError);
    expect(() => gradeCard(undefined, 5 as Grade, T0)).toThrow(RangeError);
    expect(() => gradeCard(undefined, 2.5 as Grade, T0)).toThrow(RangeError);
  });

  it('due is a fresh Date computed from now, in whole days', () => {
    const now = new Date('2026-03-28T23:30:15.250Z');
    const next = gradeCard(undefined, GOOD, now);
    expect(next.due.toISOString()).toBe('2026-03-29T23:30:15.250Z');
    expect(next.due).not.toBe(now);
  });
});

describe('review frontmatter', () => {
  it('writes {due, interval, ease, repetitions} in that order with a +00:00 due', () => {
    const fm = toReviewFrontmatter({
      due: new Date('2026-07-14T09:12:00.987Z'),
      interval: 15,
      ease: 2.5 + 0.1,
      repetitions: 3,
    });
    expect(Object.keys(fm)).toEqual(['due', 'interval', 'ease', 'repetitions']);
    expect(fm).toEqual({ due: '2026-07-14T09:12:00+00:00', interval: 15, ease: 2.6, repetitions: 3 });
  });

  it('round-trips through YAML text', () => {
    let state: ReviewState | undefined;
    let now = new Date('2026-07-14T09:12:00Z');
    for (const grade of [GOOD, GOOD, EASY, HARD, AGAIN, GOOD] as Grade[]) {
      state = gradeCard(state, grade, now);
      const text = stringifyYaml({ title: 'Card', review: toReviewFrontmatter(state) });
      expect(text).toContain(`due: ${toReviewFrontmatter(state).due}\n`);
      const back = fromReviewFrontmatter((parseYaml(text) as { review: unknown }).review);
      expect(back).toEqual(state);
      now = state.due;
    }
  });

  it('shows the YAML block as expected', () => {
    const state = gradeCard(gradeCard(undefined, GOOD, T0), GOOD, T0);
    expect(stringifyYaml({ review: toReviewFrontmatter(state) })).toBe(
      'review:\n  due: 2026-07-20T09:12:00+00:00\n  interval: 6\n  ease: 2.5\n  repetitions: 2\n',
    );
  });

  const ok = { due: '2026-07-14T09:12:00+00:00', interval: 6, ease: 2.5, repetitions: 2 };
  const okState: ReviewState = { due: new Date('2026-07-14T09:12:00Z'), interval: 6, ease: 2.5, repetitions: 2 };

  const tolerated: Array<[string, unknown, ReviewState]> = [
    ['a well-formed block', ok, okState],
    ['due with Z', { ...ok, due: '2026-07-14T09:12:00Z' }, okState],
    ['due with another offset', { ...ok, due: '2026-07-14T11:12:00+02:00' }, okState],
    ['due as a Date (YAML 1.1 timestamp)', { ...ok, due: new Date('2026-07-14T09:12:00Z') }, okState],
    ['numeric strings', { ...ok, interval: '6', ease: '2.5', repetitions: '2' }, okState],
    ['ease below the floor is raised to 1.3', { ...ok, ease: 1.1 }, { ...okState, ease: 1.3 }],
    ['ease drift is rounded', { ...ok, ease: 2.6000000000000005 }, { ...okState, ease: 2.6 }],
    ['fractional interval is rounded', { ...ok, interval: 5.6 }, okState],
    ['unknown keys are ignored', { ...ok, extra: 'x' }, okState],
  ];
  for (const [name, raw, expected] of tolerated) {
    it(`reads ${name}`, () => {
      expect(fromReviewFrontmatter(raw)).toEqual(expected);
    });
  }

  const malformed: Array<[string, unknown]> = [
    ['undefined', undefined],
    ['null', null],
    ['a string', 'due tomorrow'],
    ['a number', 42],
    ['a list', [ok]],
    ['a Date', new Date()],
    ['an empty mapping', {}],
    ['a missing due', { interval: 6, ease: 2.5, repetitions: 2 }],
    ['an unparseable due', { ...ok, due: 'soon' }],
    ['an impossible due', { ...ok, due: '2026-02-30T00:00:00Z' }],
    ['a numeric due', { ...ok, due: 1_700_000_000_000 }],
    ['a missing interval', { due: ok.due, ease: 2.5, repetitions: 2 }],
    ['a negative interval', { ...ok, interval: -1 }],
    ['a non-numeric ease', { ...ok, ease: 'high' }],
    ['a zero ease', { ...ok, ease: 0 }],
    ['a NaN ease', { ...ok, ease: Number.NaN }],
    ['an infinite interval', { ...ok, interval: Number.POSITIVE_INFINITY }],
    ['a null repetitions', { ...ok, repetitions: null }],
    ['negative repetitions', { ...ok, repetitions: -3 }],
    ['an empty-string ease', { ...ok, ease: '' }],
    ['a boolean interval', { ...ok, interval: true }],
  ];
  for (const [name, raw] of malformed) {
    it(`yields undefined for ${name}`, () => {
      expect(() => fromReviewFrontmatter(raw)).not.toThrow();
      expect(fromReviewFrontmatter(raw)).toBeUndefined();
    });
  }
});
