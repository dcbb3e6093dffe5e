/**
 * Tasks in a note body, as Obsidian, the Tasks plugin and Dataview read them:
 * a list item with a checkbox, its status, its fields and its own tags. Pure
 * functions over the body (the frontmatter already split off), so that a
 * note's tasks are read with the rest of its record (parse.ts), by the first
 * read, the parse workers and the watcher alike, and `complete_task` edits
 * the very line that `list_tasks` showed.
 *
 * What counts as a task:
 * - a list item (`-`, `*`, `+`, `1.` or `1)`) at any indentation, also in a
 *   block quote or a callout (`> - [ ] a`), whose content starts with `[c]`
 *   followed by a space or the line's end: `c` is any one character, ` `
 *   open, `x` or `X` done, `-` cancelled, anything else (`/`, `>`, `!`) open,
 *   as the Tasks plugin counts them;
 * - never on a line that is not Markdown: fenced or indented code, an HTML
 *   comment, a `%%comment%%` or a `$$math$$` block, as outline.ts's scan
 *   decides it (the one line scanner that knows them; the block pass of
 *   ./markdown/ gives no lines).
 * Lines are 1-based and counted as get_note and the outline count them
 * (`bodyLines`).
 *
 * Fields, wherever they sit in the line: the Tasks plugin's emoji (`📅` or
 * `📆`/`🗓` due, `⏳`/`⌛` scheduled, `🛫` start, `✅` done on, `❌` cancelled
 * on, `➕` created, each with a `YYYY-MM-DD`; `🔺⏫🔼🔽⏬` priority) and
 * Dataview's inline fields (`[due:: 2026-12-10]` or `(due:: …)`, with
 * `scheduled`, `start`, `completion`, `cancelled`, `created` and
 * `priority`). A field whose value is no date stays in the text. `🔁`
 * recurrence stays in the text, as do other inline fields; a trailing block
 * id (`^abc`) and `%%comments%%` do not.
 */
import { extractTags } from './markdown.js';
import { scanBody } from './outline.js';

export type TaskStatus = 'open' | 'done' | 'cancelled';
export type TaskPriority = 'highest' | 'high' | 'medium' | 'low' | 'lowest';

/** A task as a note's record keeps it: only the keys it has. */
export interface NoteTask {
  /** 1-based line of the body. */
  line: number;
  status: TaskStatus;
  /** The task without its checkbox, fields, block id and comments, whitespace collapsed. */
  text: string;
  /** Its own tags, lower-case with their sigil. */
  tags?: string[];
  due?: string;
  scheduled?: string;
  start?: string;
  done?: string;
  cancelled?: string;
  created?: string;
  priority?: TaskPriority;
  /** Which syntax its fields are written in: the one complete_task writes the done date in. */
  fields?: 'emoji' | 'dataview';
}

/** At most this many tasks a note are kept: a generated note of 100,000 checkboxes must not fill the catalog. */
export const MAX_TASKS_PER_NOTE = 2000;
/** A task's text is kept up to this many characters. */
export const MAX_TASK_TEXT = 1000;

/** A task line: its prefix (quotes, indentation, list marker and space), its status character and the rest. */
const TASK_LINE = /^((?:[ \t]*>)*[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\[)([^\]])(\](?:[ \t](.*))?)$/u;
/**
 * A quick test of a whole body: whether any line could be a task, so that
 * most notes skip the scan. Measured on 3,000 generated notes (bench/generate.ts,
 * 38% of them with a checkbox line): tasksOf took 4.5% of parseNoteFile's
 * time; with five tasks added to every note, 12%.
 */
const MAY_HOLD_TASK = /^(?:[ \t]*>)*[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\[[^\]]\]/mu;

const DATE = '(\\d{4}-\\d{2}-\\d{2})';
type DateField = 'due' | 'scheduled' | 'start' | 'done' | 'cancelled' | 'created';
const EMOJI_DATES: [DateField, RegExp][] = [
  ['due', new RegExp(`(?:📅|📆|🗓)\\uFE0F?[ \\t]*${DATE}`, 'gu')],
  ['scheduled', new RegExp(`(?:⏳|⌛)\\uFE0F?[ \\t]*${DATE}`, 'gu')],
  ['start', new RegExp(`🛫\\uFE0F?[ \\t]*${DATE}`, 'gu')],
  ['done', new RegExp(`✅\\uFE0F?[ \\t]*${DATE}`, 'gu')],
  ['cancelled', new RegExp(`❌\\uFE0F?[ \\t]*${DATE}`, 'gu')],
  ['created', new RegExp(`➕\\uFE0F?[ \\t]*${DATE}`, 'gu')],
];
const EMOJI_PRIORITY: [TaskPriority, string][] = [
  ['highest', '🔺'],
  ['high', '⏫'],
  ['medium', '🔼'],
  ['low', '🔽'],
  ['lowest', '⏬'],
];
const PRIORITY_EMOJI = new RegExp(`(?:${EMOJI_PRIORITY.map(([, emoji]) => emoji).join('|')})\\uFE0F?`, 'gu');
const DATAVIEW_KEYS: Record<string, DateField> = { due: 'due', scheduled: 'scheduled', start: 'start', completion: 'done', cancelled: 'cancelled', created: 'created' };
/** `[key:: value]` or `(key:: value)`, the brackets matching. */
const DATAVIEW_FIELD = /\[([A-Za-z]+)::[ \t]*([^\]]*?)[ \t]*\]|\(([A-Za-z]+)::[ \t]*([^)]*?)[ \t]*\)/gu;
const DATAVIEW_DATE = /^(\d{4}-\d{2}-\d{2})(?:T[\d:.]+)?$/u;
const PRIORITIES = new Set<string>(EMOJI_PRIORITY.map(([name]) => name));
const BLOCK_ID = /(?:^|[ \t])\^[A-Za-z0-9-]+[ \t]*$/u;
const COMMENT = /%%.*?%%|<!--.*?-->/gu;

/** What a task line's checkbox says. */
export function statusOf(char: string): TaskStatus {
  if (char === 'x' || char === 'X') return 'done';
  if (char === '-') return 'cancelled';
  return 'open';
}

/** A line's checkbox: where its status character is, the character, and the text after `]`; undefined when the line is no task line. */
export function taskLineParts(line: string): { at: number; char: string; rest: string } | undefined {
  const match = TASK_LINE.exec(line);
  if (!match) return undefined;
  return { at: (match[1] as string).length, char: match[2] as string, rest: match[4] ?? '' };
}

/** A task's fields read out of the text after its checkbox, and the text without them. Pure. */
export function readTask(rest: string, status: TaskStatus, line: number): NoteTask {
  const task: NoteTask = { line, status, text: '' };
  let text = rest.replace(COMMENT, ' ');
  for (const [field, pattern] of EMOJI_DATES) {
    text = text.replace(pattern, (_whole, date: string) => {
      task[field] ??= date;
      task.fields = 'emoji';
      return ' ';
    });
  }
  text = text.replace(PRIORITY_EMOJI, (emoji) => {
    task.priority ??= EMOJI_PRIORITY.find(([, sign]) => emoji.startsWith(sign))?.[0];
    task.fields = 'emoji';
    return ' ';
  });
  text = text.replace(DATAVIEW_FIELD, (whole, squareKey?: string, squareValue?: string, roundKey?: string, roundValue?: string) => {
    const key = (squareKey ?? roundKey ?? '').toLowerCase();
    const value = squareValue ?? roundValue ?? '';
    const field = DATAVIEW_KEYS[key];
    const date = DATAVIEW_DATE.exec(value)?.[1];
    if (field !== undefined && date !== undefined) task[field] ??= date;
    else if (key === 'priority' && PRIORITIES.has(value.toLowerCase())) task.priority ??= value.toLowerCase() as TaskPriority;
    else return whole;
    task.fields ??= 'dataview';
    return ' ';
  });
  text = text.replace(BLOCK_ID, ' ').replace(/\s+/gu, ' ').trim();
  task.text = text.length > MAX_TASK_TEXT ? text.slice(0, MAX_TASK_TEXT) : text;
  const tags = extractTags(text);
  if (tags.length > 0) task.tags = tags;
  return task;
}

/** The tasks of a body, in order. */
export function tasksOf(body: string): NoteTask[] {
  if (!MAY_HOLD_TASK.test(body)) return [];
  const scan = scanBody(body);
  const tasks: NoteTask[] = [];
  for (let index = 0; index < scan.lines.length && tasks.length < MAX_TASKS_PER_NOTE; index++) {
    if (!scan.prose[index]) continue;
    const parts = taskLineParts(scan.lines[index]?.text ?? '');
    if (parts) tasks.push(readTask(parts.rest, statusOf(parts.char), index + 1));
  }
  return tasks;
}

/** How task texts compare when complete_task checks the one it was given: whitespace runs as one space, ends trimmed. */
export function sameTaskText(a: string, b: string): boolean {
  return a.replace(/\s+/gu, ' ').trim() === b.replace(/\s+/gu, ' ').trim();
}

const TRAILING = /(?:[ \t]+\^[A-Za-z0-9-]+)?[ \t]*$/u;
const DONE_EMOJI = new RegExp(`[ \\t]*✅\\uFE0F?[ \\t]*${DATE}`, 'gu');
const COMPLETION_FIELD = /[ \t]*(?:\[completion::[^\]]*\]|\(completion::[^)]*\))/giu;
const CANCELLED_EMOJI = new RegExp(`[ \\t]*❌\\uFE0F?[ \\t]*${DATE}`, 'gu');
const CANCELLED_FIELD = /[ \t]*(?:\[cancelled::[^\]]*\]|\(cancelled::[^)]*\))/giu;

/**
 * A task line ticked (`done`: its status becomes `x`) or unticked (` `),
 * every other byte kept; undefined when the line holds no task. Ticking
 * writes the done date `today` where the task's own fields say how: ` ✅
 * YYYY-MM-DD` for the Tasks plugin's emoji, ` [completion:: YYYY-MM-DD]` for
 * Dataview's fields (as the Tasks plugin writes it in its Dataview format,
 * and Dataview's own completion tracking), before a trailing block id and
 * only when the task has no done date yet; a task with no fields gets none.
 * Unticking takes both forms away; either takes a cancelled date away. A
 * line already as asked comes back as it is.
 */
export function toggledTaskLine(line: string, done: boolean, today: string): string | undefined {
  const parts = taskLineParts(line);
  if (!parts) return undefined;
  if (statusOf(parts.char) === (done ? 'done' : 'open') && (done || parts.char === ' ')) return line;
  const head = line.slice(0, parts.at);
  // A task no longer cancelled loses its cancelled date, as in the Tasks plugin.
  const rest = line.slice(parts.at + parts.char.length).replace(CANCELLED_EMOJI, '').replace(CANCELLED_FIELD, '');
  if (!done) return `${head} ${rest.replace(DONE_EMOJI, '').replace(COMPLETION_FIELD, '')}`;
  const task = readTask(parts.rest, 'done', 0);
  const stamp = task.done !== undefined || task.fields === undefined ? '' : task.fields === 'emoji' ? ` ✅ ${today}` : ` [completion:: ${today}]`;
  const end = TRAILING.exec(rest)?.index ?? rest.length;
  return `${head}x${rest.slice(0, end)}${stamp}${rest.slice(end)}`;
}
