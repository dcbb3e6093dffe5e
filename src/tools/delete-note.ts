/** delete_note: a note file removed, with the record attached to it. */
import { z } from 'zod';
import { noteId } from './schemas.js';
import { defineTool } from './tool.js';
import { DeclinedError, NoteNotFoundError } from '../vault/errors.js';

export const deleteNoteTool = defineTool({
  name: 'delete_note',
  title: 'Delete a note',
  description:
    'Permanently delete a note file, and the record attached to it (saved page, e-mail or feed article) if it has one. Cannot be undone. ' +
    'Confirm with the person before deleting anything they did not explicitly ask to delete. ' +
    'Where the client can ask the person, the server asks them itself first; if they decline, nothing is deleted and the call says so. ' +
    'Returns {deleted: true, id, title}, with attachment_kept (a sentence) when the note\'s attachment was left in place: it is removed only when it is a plain file inside this connection\'s boundary, outside dot-folders, not reached through a link, and not a note. ' +
    'Errors: "Note not found"; a plain refusal for a teammate\'s shared note.',
  scope: 'notes:write',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.object({ note_id: noteId('The id of one of your own notes.') }),
  output: z.object({ deleted: z.literal(true), id: z.string(), title: z.string(), attachment_kept: z.string().optional() }),
  async handler(args, { view, confirm }) {
    await view.assertReady();
    if (confirm) {
      // Asked only about a note this connection sees: any other id is "Note not found", as without asking.
      const note = view.find(args.note_id);
      if (!note) throw new NoteNotFoundError();
      if (!(await confirm(`Delete the note "${note.record.title}" (${note.record.path})? This cannot be undone.`))) throw new DeclinedError(`to delete "${note.record.title}"`);
    }
    const { record, attachmentKept } = await view.delete(args.note_id, 'delete_note');
    return { deleted: true as const, id: record.id, title: record.title, ...(attachmentKept === undefined ? {} : { attachment_kept: attachmentKept }) };
  },
});
