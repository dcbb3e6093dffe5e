/**
 * A task as list_tasks and complete_task answer with it: the schema both
 * tools declare, and the item made from a note's record and one of its
 * tasks (src/format/tasks.ts).
 */
import { z } from 'zod';
import type { NoteTask } from '../format/tasks.js';
import type { NoteRecord } from '../vault/note.js';

const day = (what: string) => z.string().describe(`${what}, YYYY-MM-DD as written in the task.`).optional();

export const taskItem = z.object({
  note_id: z.string(),
  note_title: z.string(),
  line: z.number().int().describe('The task\'s line in the note\'s body, counted as get_note counts lines (from 1, after the frontmatter).'),
  text: z.string().describe('The task without its checkbox and fields; give it back to complete_task.'),
  status: z.enum(['open', 'done', 'cancelled']),
  due: day('Due date'),
  scheduled: day('Scheduled date'),
  start: day('Start date'),
  done: day('Done date'),
  priority: z.enum(['highest', 'high', 'medium', 'low', 'lowest']).optional(),
  tags: z.array(z.string()).describe('The task\'s own tags.'),
});

export type TaskItem = z.infer<typeof taskItem>;

/** The item of one task of a note. */
export function toTaskItem(record: NoteRecord, task: NoteTask): TaskItem {
  const item: TaskItem = { note_id: record.id, note_title: record.title, line: task.line, text: task.text, status: task.status, tags: [...(task.tags ?? [])] };
  for (const key of ['due', 'scheduled', 'start', 'done', 'priority'] as const) {
    const value = task[key];
    if (value !== undefined) Object.assign(item, { [key]: value });
  }
  return item;
}
