/** create_note: a new note from Markdown text, answered in full. */
import { z } from 'zod';
import { toWrittenNote } from './note-items.js';
import { fullNote, text } from './schemas.js';
import { propertiesParam } from './set-properties.js';
import { defineTool } from './tool.js';

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
    return toWrittenNote(view, note);
  },
});
