import { z } from 'zod';
import { hasScope } from '../access/policy.js';
import { InvalidInputError, NothingToUpdateError } from '../vault/errors.js';
import { formatIso } from '../format/time.js';
import { toFullNote, toWriteReceipt } from './items.js';
import type { NoteConnections, VaultView } from '../access/view.js';
import type { NoteRecord } from '../vault/note.js';
import { BACKLINK_LIMIT, choice, fullNote, noteId, text, updatedNote } from './schemas.js';
import { propertiesParam } from './set-properties.js';
import { defineTool } from './tool.js';

/** A written note's links and backlinks, for a connection that may read: they name other notes. */
function readableConnections(view: VaultView, record: NoteRecord): NoteConnections | undefined {
  return hasScope(view.policy, 'notes:read') ? view.connections({ record }, BACKLINK_LIMIT) : undefined;
}

export const createNoteTool = defineTool({
  name: 'create_note',
  title: 'Create a note',
  description:
    'Create a new note from Markdown text. Write #hashtags and @mentions inline: they become the note\'s tags. ' +
    'The note is saved as a Markdown file named after its title (inside this connection\'s folder, if it is limited to one; ' +
    'a connection limited to a tag gets that tag added to the text); folder files it elsewhere and properties sets its frontmatter properties at once. To add to an existing note, use update_note in append mode instead. ' +
    'Returns the created note in full (with text, and its links and backlinks: notes that already linked to its title are its backlinks at once). Errors: the note limit message when the vault is at its note cap; plain messages for a title over 500 characters; "Folder not found: X" for a folder outside what this connection may use; ' +
    'a plain refusal for properties set_properties would refuse.',
  scope: 'notes:write',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.object({
    title: text('title', { max: 500, description: 'The title, up to 500 characters; also the file name. Empty gives "Untitled".' }).optional().default(''),
    text: text('text', { description: 'The body, as Markdown or plain text, with inline #hashtags and @mentions.' }).optional().default(''),
    folder: text('folder', { min: 1, max: 1000, description: 'The folder to create it in, as move_note takes it, e.g. "Projects/Alpha" (made if missing); omit for the top level.' }).optional(),
    properties: propertiesParam('Properties (frontmatter keys) to write into the new note, as set_properties takes them: e.g. {"status": "todo", "due": "2026-12-10"}.').optional(),
  }),
  output: fullNote,
  async handler(args, { view, settings }) {
    await view.assertReady();
    const note = await view.create({ title: args.title, text: args.text, noteCap: settings.noteCap, folder: args.folder, properties: args.properties }, 'create_note');
    return toFullNote(note.record, note.body, undefined, readableConnections(view, note.record), note.properties);
  },
});

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
    return toFullNote(note.record, note.body, undefined, readableConnections(view, note.record), note.properties);
  },
});

export const deleteNoteTool = defineTool({
  name: 'delete_note',
  title: 'Delete a note',
  description:
    'Permanently delete a note file, and the record attached to it (saved page, e-mail or feed article) if it has one. Cannot be undone. ' +
    'Confirm with the person before deleting anything they did not explicitly ask to delete. ' +
    'Returns {deleted: true, id, title}, with attachment_kept (a sentence) when the note\'s attachment was left in place: it is removed only when it is a plain file inside this connection\'s boundary, outside dot-folders, not reached through a link, and not a note. ' +
    'Errors: "Note not found"; a plain refusal for a teammate\'s shared note.',
  scope: 'notes:write',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.object({ note_id: noteId('The id of one of your own notes.') }),
  output: z.object({ deleted: z.literal(true), id: z.string(), title: z.string(), attachment_kept: z.string().optional() }),
  async handler(args, { view }) {
    await view.assertReady();
    const { record, attachmentKept } = await view.delete(args.note_id, 'delete_note');
    return { deleted: true as const, id: record.id, title: record.title, ...(attachmentKept === undefined ? {} : { attachment_kept: attachmentKept }) };
  },
});

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
    return toFullNote(note.record, note.body, undefined, readableConnections(view, note.record), note.properties);
  },
});
