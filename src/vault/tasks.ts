/**
 * `complete_task` as the vault takes it: the edit that ticks or unticks one
 * task of a note, from the file as it is under the note's lock, so that a
 * task changed since it was listed is refused rather than a different one
 * ticked. The syntax is src/format/tasks.ts's; this adds the check against
 * what the assistant saw and the `updated` stamp every body edit makes.
 */
import { formatLocal } from '../format/time.js';
import { bodyLines } from '../format/outline.js';
import { sameTaskText, tasksOf, toggledTaskLine } from '../format/tasks.js';
import { withEditedBody } from './body-edits.js';
import { DexiError } from './errors.js';
import type { Admit } from './note.js';

/** Which task to tick, as list_tasks showed it. */
export interface CompleteTaskRequest {
  /** 1-based body line. */
  line: number;
  /** The task's text as listed: it must still be the text of the task on that line. */
  text: string;
  /** Tick (true) or untick (false). */
  done: boolean;
  admit?: Admit;
}

/** The task on the line is not the one the assistant listed (or there is none): nothing is written. */
export class TaskChangedError extends DexiError {
  constructor() {
    super('The task has changed since it was listed; list the tasks again');
  }
}

/**
 * The change of the note's file that ticks or unticks the task, `today`
 * (in the server's time zone) as its done date: undefined when the task is
 * already as asked, so nothing is written. Throws TaskChangedError.
 */
export function completeTaskChange(request: CompleteTaskRequest, now: Date): (content: string) => string | undefined {
  const today = formatLocal(now, 'day');
  return (content) =>
    withEditedBody(content, now, (body) => {
      const task = tasksOf(body).find((candidate) => candidate.line === request.line);
      const line = bodyLines(body)[request.line - 1];
      if (!task || !line || !sameTaskText(task.text, request.text)) throw new TaskChangedError();
      const toggled = toggledTaskLine(line.text, request.done, today) ?? line.text;
      return `${body.slice(0, line.start)}${toggled}${body.slice(line.end)}`;
    })?.content;
}
