/** move_note: a note filed into a folder and/or renamed, the links to it kept working. */
import { z } from 'zod';
import { hasScope } from '../access/policy.js';
import { InvalidInputError } from '../vault/errors.js';
import { formatIso } from '../format/time.js';
import { toWrittenNote } from './note-items.js';
import { noteId, text, updatedNote } from './schemas.js';
import { defineTool } from './tool.js';

export const moveNoteTool = defineTool({
  name: 'move_note',
  title: 'Move or rename a note',
  description:
    'File a note into a folder (a name as list_folders gives it, in any case, or "unfiled" for the top level; a folder that does not exist yet is created), rename it (name: its new file name, which is the title list_notes shows), or both. ' +
    'The note keeps its id and its text. A move alone keeps its title and file name (with " 2" added if that name is taken there; the title is then kept in its frontmatter). A rename changes the file name and the title (a title in its frontmatter is set to the new name). ' +
    'Links to it from other notes keep working: they are rewritten to its new folder or name, as Obsidian does, keeping their heading, alias and form. Use it to organise notes ("file these under Projects", "call this one Budget 2027"); ask the person before moving or renaming notes they did not name. ' +
    'Returns the note in full. Errors: "Note not found"; "Folder not found: X" for a folder outside what this connection may use; a plain sentence for a name another note in that folder already has (in any case) or a name a file cannot have (characters like / \\ : * ? " < > | # ^ [ ], a leading dot, over 200 bytes); ' +
    'a plain refusal for a teammate\'s shared note, a read-only note, or a note whose frontmatter the server cannot parse.',
  scope: 'notes:write',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.object({
    note_id: noteId('The id of one of your own notes.'),
    folder: text('folder', { min: 1, max: 1000, description: 'The folder to move it into, e.g. "Projects/Alpha" (made if missing), or "unfiled" for the top level. Leave out to keep it where it is.' }).optional(),
    name: text('name', { min: 1, max: 250, description: 'The new name of the note (its file name without .md, and the title list_notes shows), e.g. "Budget 2027". Leave out to keep its name.' }).optional(),
  }),
  output: updatedNote,
  async handler(args, { view }) {
    if (args.folder === undefined && args.name === undefined) throw new InvalidInputError('Give folder (where to move the note), name (what to rename it to), or both.');
    await view.assertReady();
    const note = await view.move(args.note_id, args.folder, 'move_note', args.name);
    // A write-only connection learns nothing of the note it did not send.
    if (!hasScope(view.policy, 'notes:read')) return { id: note.record.id, updated: formatIso(new Date(note.record.updatedMs)) };
    return toWrittenNote(view, note);
  },
});
