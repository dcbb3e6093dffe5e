/**
 * Timestamps as they appear in note frontmatter.
 *
 * Written form (`formatIso`): UTC, seconds precision, explicit `+00:00`
 * offset — `2026-07-14T09:12:00+00:00`. Milliseconds are truncated.
 *
 * Read form (`parseIso`): tolerant of what people and other tools write.
 * - ISO 8601 date-times with `Z` or a numeric offset (`+02:00`, `+0200`,
 *   `+02`), `T` or a single space between date and time, optional seconds and
 *   fractional seconds (kept to the millisecond).
 * - Date-times without an offset and bare dates (`2026-07-14`) are read as
 *   the server's local time (ISO 8601 semantics, and what an Obsidian user
 *   expects: a note `created: 2026-07-14` belongs to that calendar day where
 *   the server runs). Note: this differs from `Date.parse`, which reads a
 *   bare date as UTC midnight.
 * - Valid `Date` objects (e.g. from a YAML 1.1 timestamp) are copied.
 * - Anything else — wrong shapes, impossible dates (`2026-02-30`), numbers,
 *   invalid dates — yields `undefined`, never a throw.
 */

const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** `2026-07-14T09:12:00+00:00`: UTC, seconds precision. Throws RangeError on an invalid Date. */
export function formatIso(date: Date): string {
  const t = date.getTime();
  if (!Number.isFinite(t)) throw new RangeError('Invalid date');
  const y = date.getUTCFullYear();
  const year = y >= 0 && y <= 9999 ? pad(y, 4) : (y < 0 ? '-' : '+') + pad(Math.abs(y), 6);
  return (
    `${year}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}` +
    `T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}+00:00`
  );
}

/**
 * A time as the person's clock shows it: `2026-07-14`, `2026-07-14 11:12`
 * or `2026-07-14 11:12:05`, in the server's time zone.
 */
export function formatLocal(date: Date, precision: 'day' | 'minute' | 'second'): string {
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  if (precision === 'day') return day;
  const minute = `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
  return precision === 'minute' ? minute : `${minute}:${pad(date.getSeconds())}`;
}

function daysInMonth(year: number, month: number): number {
  // month is 1-based; day 0 of the next month is the last day of this one.
  const d = new Date(0);
  d.setUTCFullYear(year, month, 0);
  return d.getUTCDate();
}

/** Parse a frontmatter timestamp; `undefined` when it is not one. See the module comment. */
export function parseIso(value: unknown): Date | undefined {
  if (value instanceof Date) {
    return Number.isFinite(value.getTime()) ? new Date(value.getTime()) : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const m = ISO_RE.exec(value.trim());
  if (!m) return undefined;

  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hasTime = m[4] !== undefined;
  const hour = hasTime ? Number(m[4]) : 0;
  const minute = hasTime ? Number(m[5]) : 0;
  const second = m[6] !== undefined ? Number(m[6]) : 0;
  const ms = m[7] !== undefined ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0;
  const zone = m[8];

  if (month < 1 || month > 12) return undefined;
  if (day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;

  if (zone === undefined) {
    const d = new Date(0);
    d.setFullYear(year, month - 1, day);
    d.setHours(hour, minute, second, ms);
    return Number.isFinite(d.getTime()) ? d : undefined;
  }

  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = sign * (oh * 60 + om);
  }
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute - offsetMinutes, second, ms);
  return Number.isFinite(d.getTime()) ? d : undefined;
}
