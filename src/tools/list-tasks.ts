import { z } from 'zod';
import { formatLocal } from '../format/time.js';
import { tagFilterCandidates } from '../format/tags.js';
import type { NoteTask } from '../format/tasks.js';
import { InvalidInputError } from '../vault/errors.js';
import type { NoteRecord } from '../vault/note.js';
import { resolveFolderFilter } from './list-notes.js';
import { choice, intParam, text } from './schemas.js';
import { taskItem, toTaskItem } from './task-items.js';
import { defineTool } from './tool.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_WORDS = { yesterday: -1, today: 0, tomorrow: 1 } as const;

/** A `due_before`/`due_after` value as a `YYYY-MM-DD` day: a date, or today, tomorrow or yesterday in the server's time zone. */
export function dayOf(name: string, value: string, now: Date): string {
  const trimmed = value.trim().toLowerCase();
  if (DAY.test(trimmed) && !Number.isNaN(Date.parse(trimmed))) return trimmed;
  const offset = DAY_WORDS[trimmed as keyof typeof DAY_WORDS];
  if (offset === undefined) throw new InvalidInputError(`${name} must be a date as YYYY-MM-DD, or today, tomorrow or yesterday; "${value}" is not one.`);
  return formatLocal(new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset), 'day');
}

/** Earliest due first, tasks without a due date after them; then by the note's path and the line. */
function byDue(a: { record: NoteRecord; task: NoteTask }, b: { record: NoteRecord; task: NoteTask }): number {
  const [dueA, dueB] = [a.task.due, b.task.due];
  if (dueA !== dueB) return dueA === undefined ? 1 : dueB === undefined ? -1 : dueA < dueB ? -1 : 1;
  if (a.record.path !== b.record.path) return a.record.path < b.record.path ? -1 : 1;
  return a.task.line - b.task.line;
}

export const listTasksTool = defineTool({
  name: 'list_tasks',
  title: 'List tasks',
  description:
    'List the tasks (checkbox items, "- [ ] call Ann 📅 2026-12-10") across the notes: the right tool for "what is due this week?", "what is overdue?" or "my open tasks tagged #work". ' +
    'Reads Obsidian checkboxes with the Tasks plugin\'s emoji fields and Dataview\'s [due:: …] fields; tasks in code blocks and comments are not tasks. ' +
    'Returns {items, total, page}, earliest due date first and tasks without one after; each item has note_id, note_title, line, text, status and, when set, due, scheduled, start, done and priority, with the task\'s tags. ' +
    'To tick one, pass its note_id, line and text to complete_task. ' +
    'Errors: "Folder not found: X" for an unknown folder; plain messages for a date that is not YYYY-MM-DD, a tag that is no tag, or an out-of-range page or size.',
  scope: 'notes:read',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({
    status: choice('status', ['open', 'done', 'cancelled', 'all'] as const, 'Which tasks: open (default; any status but done and cancelled), done, cancelled or all.').optional().default('open'),
    due_before: text('due_before', { min: 1, max: 20, description: 'Only tasks due before this day (not on it): YYYY-MM-DD, or today, tomorrow or yesterday (server time zone). due_before "today" lists overdue tasks.' }).optional(),
    due_after: text('due_after', { min: 1, max: 20, description: 'Only tasks due after this day (not on it): YYYY-MM-DD, or today, tomorrow or yesterday.' }).optional(),
    folder: text('folder', { min: 1, max: 1000, description: 'Only tasks of notes in this folder or its subfolders (name as list_folders gives it), or "unfiled" for notes at the top level.' }).optional(),
    tag: text('tag', { min: 1, max: 200, description: 'Only tasks carrying this tag, or in a note that carries it: "#hashtag", "@mention" or a bare word; #work also matches #work/team.' }).optional(),
    query: text('query', { min: 1, max: 200, description: 'Only tasks whose text holds each of these words (any case).' }).optional(),
    page: intParam('page', 1, undefined, 1, 'Page number, from 1.'),
    size: intParam('size', 1, 100, 20, 'Tasks per page, 1 to 100.'),
  }),
  output: z.object({
    items: z.array(taskItem),
    total: z.number().int().describe('How many tasks match in all, across every page.'),
    page: z.number().int(),
  }),
  async handler(args, { view, clock }) {
    await view.assertReady();
    const now = clock.now();
    const before = args.due_before === undefined ? undefined : dayOf('due_before', args.due_before, now);
    const after = args.due_after === undefined ? undefined : dayOf('due_after', args.due_after, now);
    const candidates = args.tag === undefined ? undefined : tagFilterCandidates(args.tag);
    if (args.tag !== undefined && !candidates) throw new InvalidInputError(`tag must be a tag such as "#work", "@alice" or a bare word; "${args.tag}" is not one.`);
    let folder: string | null | undefined;
    if (args.folder !== undefined) folder = args.folder.trim().toLowerCase() === 'unfiled' ? null : resolveFolderFilter(args.folder, [...view.folderCounts().folders.keys()]);
    const words = (args.query ?? '').toLowerCase().split(/\s+/u).filter((word) => word !== '');

    const found: { record: NoteRecord; task: NoteTask }[] = [];
    const visit = (record: NoteRecord): void => {
      if (!record.tasks) return;
      if (folder === null ? record.folder !== null : folder !== undefined && record.folder !== folder && !record.folder?.startsWith(`${folder}/`)) return;
      for (const task of record.tasks) {
        if (args.status !== 'all' && task.status !== args.status) continue;
        if ((before !== undefined || after !== undefined) && task.due === undefined) continue;
        if ((before !== undefined && (task.due as string) >= before) || (after !== undefined && (task.due as string) <= after)) continue;
        if (words.length > 0 && !words.every((word) => task.text.toLowerCase().includes(word))) continue;
        found.push({ record, task });
      }
    };
    // A tag filter visits only the notes it covers, through the tag index: a
    // note's tags hold its body's, so a task's own tags are among them.
    // Teammates' shared notes have no folder.
    for (const record of view.ownNotes(candidates)) visit(record);
    if (folder === undefined) for (const { record } of view.sharedNotes(candidates)) visit(record);
    found.sort(byDue);
    const start = (args.page - 1) * args.size;
    return { items: found.slice(start, start + args.size).map(({ record, task }) => toTaskItem(record, task)), total: found.length, page: args.page };
  },
});
