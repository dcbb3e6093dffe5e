import { describe, expect, it } from 'vitest';
import { formatIso, parseIso } from '../../src/format/time.js';

describe('formatIso', () => {
  const cases: Array<[Date, string]> = [
    [new Date(Date.UTC(2026, 6, 14, 9, 12, 0)), '2026-07-14T09:12:00+00:00'],
    [new Date(Date.UTC(2026, 6, 14, 9, 12, 0, 999)), '2026-07-14T09:12:00+00:00'], // truncated, not rounded
    [new Date(0), '1970-01-01T00:00:00+00:00'],
    [new Date(Date.UTC(2025, 11, 31, 23, 59, 59, 500)), '2025-12-31T23:59:59+00:00'],
    [new Date('2026-07-14T11:12:13+02:00'), '2026-07-14T09:12:13+00:00'],
    [new Date('2024-02-29T00:00:00-05:00'), '2024-02-29T05:00:00+00:00'],
  ];
  for (const [date, expected] of cases) {
    it(`${date.toISOString()} → ${expected}`, () => {
      expect(formatIso(date)).toBe(expected);
    });
  }

  it('throws on an invalid date', () => {
    expect(() => formatIso(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('parseIso', () => {
  const utc: Array<[string, string]> = [
    ['2026-07-14T09:12:00+00:00', '2026-07-14T09:12:00.000Z'],
    ['2026-07-14T09:12:00Z', '2026-07-14T09:12:00.000Z'],
    ['2026-07-14T09:12:00z', '2026-07-14T09:12:00.000Z'],
    ['2026-07-14t09:12:00Z', '2026-07-14T09:12:00.000Z'],
    ['2026-07-14T11:12:00+02:00', '2026-07-14T09:12:00.000Z'],
    ['2026-07-14T03:42:00-05:30', '2026-07-14T09:12:00.000Z'],
    ['2026-07-14T11:12:00+0200', '2026-07-14T09:12:00.000Z'],
    ['2026-07-14T11:12:00+02', '2026-07-14T09:12:00.000Z'],
    ['2026-07-14T00:30:00+01:00', '2026-07-13T23:30:00.000Z'], // crosses midnight
    ['2026-07-14T09:12Z', '2026-07-14T09:12:00.000Z'], // no seconds
    ['2026-07-14 09:12:00Z', '2026-07-14T09:12:00.000Z'], // space separator
    ['2026-07-14T09:12:00 +00:00', '2026-07-14T09:12:00.000Z'], // space before offset
    ['2026-07-14T09:12:00.5Z', '2026-07-14T09:12:00.500Z'],
    ['2026-07-14T09:12:00.123456Z', '2026-07-14T09:12:00.123Z'],
    ['2026-07-14T09:12:00,25Z', '2026-07-14T09:12:00.250Z'],
    ['  2026-07-14T09:12:00Z\n', '2026-07-14T09:12:00.000Z'], // trimmed
    ['2024-02-29T12:00:00Z', '2024-02-29T12:00:00.000Z'], // leap day
  ];
  for (const [input, expected] of utc) {
    it(`${JSON.stringify(input)} → ${expected}`, () => {
      expect(parseIso(input)?.toISOString()).toBe(expected);
    });
  }

  // No offset: the server's local time (ISO 8601), whatever TZ the tests run in.
  const local: Array<[string, Date]> = [
    ['2026-07-14', new Date(2026, 6, 14)],
    ['2024-02-29', new Date(2024, 1, 29)],
    ['2026-07-14T09:12:00', new Date(2026, 6, 14, 9, 12, 0)],
    ['2026-07-14T09:12', new Date(2026, 6, 14, 9, 12)],
    ['2026-07-14 09:12:30.250', new Date(2026, 6, 14, 9, 12, 30, 250)],
  ];
  for (const [input, expected] of local) {
    it(`${JSON.stringify(input)} → local ${expected.toString()}`, () => {
      expect(parseIso(input)?.getTime()).toBe(expected.getTime());
    });
  }

  it('copies a valid Date', () => {
    const date = new Date('2026-07-14T09:12:00Z');
    const parsed = parseIso(date);
    expect(parsed?.getTime()).toBe(date.getTime());
    expect(parsed).not.toBe(date);
  });

  const rejected: Array<[string, unknown]> = [
    ['undefined', undefined],
    ['null', null],
    ['a number', 1_752_484_320_000],
    ['a boolean', true],
    ['an object', { due: '2026-07-14' }],
    ['a list', ['2026-07-14']],
    ['an invalid Date', new Date(Number.NaN)],
    ['an empty string', ''],
    ['a word', 'yesterday'],
    ['a month name', 'July 14, 2026'],
    ['a day-first date', '14/07/2026'],
    ['unpadded parts', '2026-7-14'],
    ['month 13', '2026-13-01'],
    ['month 0', '2026-00-10'],
    ['day 0', '2026-07-00'],
    ['30 February', '2026-02-30'],
    ['29 February of a common year', '2026-02-29'],
    ['31 April', '2026-04-31T00:00:00Z'],
    ['hour 24', '2026-07-14T24:00:00Z'],
    ['minute 60', '2026-07-14T09:60:00Z'],
    ['second 60', '2026-07-14T09:12:60Z'],
    ['offset hour 24', '2026-07-14T09:12:00+24:00'],
    ['an offset without a time', '2026-07-14Z'],
    ['trailing garbage', '2026-07-14T09:12:00Zjunk'],
    ['a time only', '09:12:00'],
  ];
  for (const [name, value] of rejected) {
    it(`yields undefined for ${name}`, () => {
      expect(parseIso(value)).toBeUndefined();
    });
  }

  it('round-trips with formatIso', () => {
    for (const s of ['2026-07-14T09:12:00+00:00', '1999-12-31T23:59:59+00:00', '2030-01-01T00:00:00+00:00']) {
      const parsed = parseIso(s);
      expect(parsed).toBeDefined();
      expect(formatIso(parsed as Date)).toBe(s);
    }
  });
});
