/** update_note: a note's title and/or whole body replaced, or text appended. */
import { z } from 'zod';
import { hasScope } from '../access/policy.js';
import { NothingToUpdateError } from '../vault/errors.js';
import { toWriteReceipt, toWrittenNote } from './note-items.js';
import { choice, noteId, text, updatedNote } from './schemas.js';
import { defineTool } from './tool.js';

export const updateNoteTool = defineTool({
  name: 'update_note',
  title: 'Update a note',
  description:
    'Change a note\'s title and/or body. mode "append" (safe: use it to add thoughts) adds the text at the end of the body on a new line. ' +
    'mode "replace" (the default) overwrites the entire body: read the note with get_note first, keep what should stay, and prefer append unless a rewrite was asked for. ' +
      'For a small change inside a note (fix a word, add a bullet under a heading, rewrite one section), use edit_note instead. ' +
    'Frontmatter (id, review schedule, other keys) is always kept; a new title is stored without moving the file. ' +
    'Returns the updated note in full (a connection without read access gets only the id, the new updated time, and the title and text it sent). ' +
    'Errors: "Note not found"; "Nothing to update" when replace mode gets neither title nor text, or append mode no title and no (or empty) text; ' +
    'a plain refusal for a teammate\'s shared note, a note whose frontmatter the server cannot parse, or an edit that would remove the tag this connection is limited to.',
  scope: 'notes:write',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.object({
    note_id: noteId('The id of one of your own notes.'),
    title: text('title', { max: 500, description: 'New title, up to 500 characters; omit to keep the current one.' }).optional(),
    text: text('text', { description: 'Text to append, or the new body in replace mode; omit to keep the body.' }).optional(),
    mode: choice('mode', ['replace', 'append'] as const, 'append adds to the end; replace (default) overwrites the whole body.').optional().default('replace'),
  }),
  output: updatedNote,
  async handler(args, { view }) {
    // Asked for nothing: refused before the note is looked up, so the answer is the same for every id and nothing is written.
    if (args.title === undefined && (args.text === undefined || (args.mode === 'append' && args.text === ''))) throw new NothingToUpdateError();
    await view.assertReady();
    const request: Parameters<typeof view.update>[1] = { mode: args.mode };
    if (args.title !== undefined) request.title = args.title;
    if (args.text !== undefined) request.text = args.text;
    const note = await view.update(args.note_id, request, 'update_note');
    // A write-only connection never gets back note text it did not send.
    if (!hasScope(view.policy, 'notes:read')) return toWriteReceipt(note.record, note.body, args);
    return toWrittenNote(view, note);
  },
});
