import { printable } from '../storage/filenames.js';
import { isLate, type ActivityRecord } from '../vault/record/activity.js';
import { formatLocal, parseIso } from '../format/time.js';
import { recordedCalls } from '../vault/record/undo.js';

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
const SPAN = /^(\d{1,5})\s*([mhdw])$/i;
const DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2})?$/;

/** Whether `--since` has one of its forms (a date of that form may still be no date, such as 2026-02-31). Pure. */
export function isSinceForm(text: string): boolean {
  return SPAN.test(text.trim()) || DATE.test(text.trim());
}

/**
 * `--since`: a span back from now (`30m`, `12h`, `1d`, `2w`) or a date or
 * time (`2026-12-01`, `2026-12-01T09:00`, read in local time as a person
 * means it). Undefined when the text is neither. Pure.
 */
export function sinceTime(text: string, now: Date): Date | undefined {
  const span = SPAN.exec(text.trim());
  if (span) return new Date(now.getTime() - Number(span[1]) * (UNITS[(span[2] as string).toLowerCase()] as number));
  // Frontmatter's reader: a date-time without an offset is local time, and an impossible date none.
  return DATE.test(text.trim()) ? parseIso(text.trim()) : undefined;
}

/** A recorded time as the person's clock shows it, to the second. */
export function localTimestamp(iso: string): string {
  return formatLocal(new Date(iso), 'second');
}

/** A recorded write as one line; paths as `printable` shows them (a name cannot reorder or hide what is printed around it). */
function change(entry: ActivityRecord): string {
  return printable(changeText(entry));
}

/** A recorded write in words, as recorded ("changed Work/plan.md"): `activity --json` and `status` give it so. Pure. */
export function changeText(entry: ActivityRecord): string {
  switch (entry.action) {
    case 'created':
      return `created ${entry.path}`;
    case 'changed':
      return `changed ${entry.path}${entry.because === 'links' ? ' (its links to the moved note)' : ''}`;
    case 'moved':
      return `moved ${entry.from} → ${entry.path}`;
    case 'deleted':
      return `deleted ${entry.path}${entry.attachment ? ` and ${entry.attachment.path}` : ''}`;
  }
}

/**
 * `dexi-vault activity`: the rows to print, a header then one per write at
 * or after `since`, oldest first, with what an undo has taken back marked.
 * Pure.
 */
export function activityRows(entries: readonly ActivityRecord[], since: Date | undefined): string[][] {
  const { undone } = recordedCalls(entries);
  // Late text taken in is shown on the write it completes, not as a row of its own.
  const key = (entry: ActivityRecord): string => `${entry.call}\0${entry.action}\0${entry.path}`;
  const late = new Set(entries.filter(isLate).map(key));
  const rows: string[][] = [['TIME', 'TOOL', 'BY', 'CHANGE']];
  for (const entry of entries) {
    if (isLate(entry) || (since !== undefined && new Date(entry.time).getTime() < since.getTime())) continue;
    const marks = [
      late.has(key(entry)) ? '(with text another program wrote late, kept)' : '',
      undone.has(entry.call) ? '(undone)' : '',
      entry.undoes !== undefined ? '(an undo)' : '',
    ]
      .filter(Boolean)
      .join(' ');
    rows.push([localTimestamp(entry.time), printable(entry.tool), printable(entry.by), `${change(entry)}${marks ? ` ${marks}` : ''}`]);
  }
  return rows;
}

/** One recorded write as `activity --json` gives it: what the table shows, with the time as recorded (UTC) and the call it belongs to. */
export interface ActivityItem {
  time: string;
  tool: string;
  by: string;
  call: string;
  change: string;
  late?: true;
  undone?: true;
  undo?: true;
}

/** The writes `activityRows` shows, as objects for `--json`. Pure. */
export function activityItems(entries: readonly ActivityRecord[], since: Date | undefined): ActivityItem[] {
  const { undone } = recordedCalls(entries);
  const key = (entry: ActivityRecord): string => `${entry.call}\0${entry.action}\0${entry.path}`;
  const late = new Set(entries.filter(isLate).map(key));
  const items: ActivityItem[] = [];
  for (const entry of entries) {
    if (isLate(entry) || (since !== undefined && new Date(entry.time).getTime() < since.getTime())) continue;
    items.push({
      time: entry.time,
      tool: entry.tool,
      by: entry.by,
      call: entry.call,
      change: changeText(entry),
      ...(late.has(key(entry)) ? { late: true as const } : {}),
      ...(undone.has(entry.call) ? { undone: true as const } : {}),
      ...(entry.undoes !== undefined ? { undo: true as const } : {}),
    });
  }
  return items;
}
