import moment, { type Moment, type unitOfTime } from 'moment';

/**
 * A daily note's template filled in as Obsidian's Daily notes fill it when
 * they make the note, so that a note get_daily_note makes reads as the one
 * Obsidian would have made that day. The rules, in Obsidian's order (the
 * same the daily-notes interface that Calendar and Periodic Notes share
 * copies from the core plugin):
 * - `{{date}}` is the day in the daily notes' own format (folders and all,
 *   when the format has them), `{{time}}` the time now as `HH:mm`, and
 *   `{{title}}` the new file's name;
 * - `{{date:FORMAT}}` and `{{time:FORMAT}}` are the note's day at the time
 *   now, in FORMAT (moment.js tokens, spaces around it trimmed); an offset
 *   before the colon (`{{date+1d:dddd}}`, `{{date-1w}}`) moves it first, the
 *   unit read as moment reads it (`m` minutes, `M` months, `d` days, `w`
 *   weeks, `y` years, `q` quarters, `h` hours, `s` seconds); with an offset
 *   and no format, the daily format.
 * Names take any case and spaces inside the braces. Everything else is left
 * exactly as written. Pure.
 */

/** What a template is filled with. */
export interface DailyFill {
  /** The note's day. */
  date: Moment;
  /** The daily notes' format (DailySettings.format). */
  format: string;
  /** The new file's name, without `.md`. */
  title: string;
  /** The clock's time now: `{{time}}`, and the time of day the formatted variables carry. */
  now: Date;
}

const PLAIN_DATE = /{{\s*date\s*}}/gi;
const PLAIN_TIME = /{{\s*time\s*}}/gi;
const TITLE = /{{\s*title\s*}}/gi;
// One variable at a time, even two on one line: the format ends at the first `}}`.
const FORMATTED = /{{\s*(date|time)\s*(([+-]\d+)([yqmwdhs]))?\s*(:.+?)?}}/gi;

export function fillDailyTemplate(template: string, fill: DailyFill): string {
  const now = moment(fill.now);
  const dayText = fill.date.format(fill.format);
  // Replacers, not replacement strings: a `$` in a title or a format is text.
  return template
    .replace(PLAIN_DATE, () => dayText)
    .replace(PLAIN_TIME, () => now.format('HH:mm'))
    .replace(TITLE, () => fill.title)
    .replace(FORMATTED, (_match: string, _kind: string, offset: string | undefined, amount: string | undefined, unit: string | undefined, format: string | undefined) => {
      const at = fill.date.clone().set({ hour: now.hour(), minute: now.minute(), second: now.second() });
      if (offset !== undefined && amount !== undefined && unit !== undefined) at.add(Number.parseInt(amount, 10), unit as unitOfTime.DurationConstructor);
      return format === undefined ? at.format(fill.format) : at.format(format.slice(1).trim());
    });
}
