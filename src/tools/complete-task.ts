import { z } from 'zod';
import { MAX_TASK_TEXT } from '../format/tasks.js';
import { noteId, requiredInt, text } from './schemas.js';
import { taskItem, toTaskItem } from './task-items.js';
import { defineTool } from './tool.js';

export const completeTaskTool = defineTool({
  name: 'complete_task',
  title: 'Complete a task',
  description:
    'Tick (or untick, with done false) one task\'s checkbox in place, as list_tasks listed it: "mark the dentist task done". ' +
    'Only the checkbox changes, with the done date written the way the task\'s own fields are ("✅ 2026-12-10" for the Tasks plugin\'s emoji, "[completion:: 2026-12-10]" for Dataview fields, none for a plain checkbox); unticking takes that date away. ' +
    'The write is recorded and can be undone like any other. Returns the task as list_tasks shows it. ' +
    'Errors: "The task has changed since it was listed; list the tasks again" when that line no longer holds a task with this text (nothing is written); "Note not found"; ' +
    'a plain refusal for a teammate\'s shared note or a note whose frontmatter the server cannot parse.',
  scope: 'notes:write',
  // Whether a line still holds a text tells what the note holds, as edit_note's "Text not found" does.
  alsoNeeds: 'notes:read',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.object({
    note_id: noteId('The note_id of the task, as list_tasks gave it.'),
    line: requiredInt('line', 1, 10_000_000, 'The task\'s line, as list_tasks gave it.'),
    text: text('text', { max: MAX_TASK_TEXT, description: 'The task\'s text, as list_tasks gave it: the task on that line must still read so.' }),
    done: z.boolean({ error: 'done must be true or false' }).optional().default(true).describe('true (default) ticks the task, false unticks it.'),
  }),
  output: taskItem.describe('The task as list_tasks shows it.'),
  async handler(args, { view }) {
    await view.assertReady();
    const note = await view.completeTask(args.note_id, { line: args.line, text: args.text, done: args.done }, 'complete_task');
    const task = note.record.tasks?.find((candidate) => candidate.line === args.line);
    // The note written holds the task on that line; were it gone at once (another program's write), the call still says what it did.
    return toTaskItem(note.record, task ?? { line: args.line, text: args.text, status: args.done ? 'done' : 'open' });
  },
});
