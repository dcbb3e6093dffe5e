import type { ActivityRecord } from '../vault/activity.js';
import { recordedCalls } from '../vault/undo.js';

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * `--since`: a span back from now (`30m`, `12h`, `1d`, `2w`) or a date or
 * time (`2026-12-01`, `2026-12-01T09:00`, read in local time as a person
 * means it). Undefined when the text is neither. Pure.
 */
export function sinceTime(text: string, now: Date): Date | undefined {
  const span = /^(\d{1,5})\s*([mhdw])$/i.exec(text.trim());
  if (span) return new Date(now.getTime() - Number(span[1]) * (UNITS[(span[2] as string).toLowerCase()] as number));
  const date = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?$/.exec(text.trim());
  if (!date) return undefined;
  const [year, month, day, hour, minute] = date.slice(1).map((part) => (part === undefined ? 0 : Number(part))) as [number, number, number, number, number];
  const local = new Date(year, month - 1, day, hour, minute);
  // new Date rolls 2026-02-31 over into March: such a date is not a date.
  return local.getDate() === day && local.getMonth() === month - 1 ? local : undefined;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** A recorded time as the person's clock shows it, to the second. */
export function localTimestamp(iso: string): string {
  const date = new Date(iso);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

function change(entry: ActivityRecord): string {
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
  const rows: string[][] = [['TIME', 'TOOL', 'BY', 'CHANGE']];
  for (const entry of entries) {
    if (since !== undefined && new Date(entry.time).getTime() < since.getTime()) continue;
    const marks = [undone.has(entry.call) ? '(undone)' : '', entry.undoes !== undefined ? '(an undo)' : ''].filter(Boolean).join(' ');
    rows.push([localTimestamp(entry.time), entry.tool, entry.by, `${change(entry)}${marks ? ` ${marks}` : ''}`]);
  }
  return rows;
}
