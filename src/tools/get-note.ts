import { z } from 'zod';
import { toFullNote } from './note-items.js';
import type { PartRequest } from './note-part.js';
import { BACKLINK_LIMIT, fullNote, noteId, requiredInt, text } from './schemas.js';
import { defineTool } from './tool.js';

export const getNoteTool = defineTool({
  name: 'get_note',
  title: 'Read a note',
  description:
    'Fetch one note: its Markdown body (text), title, tags, source kind, source URL and folder, its outline (the headings, with their lines), ' +
    'the notes it links to (links, with unresolved for links to notes that do not exist) and the notes that link to it (backlinks: "what links here", newest first). ' +
    'The body comes whole up to 50,000 characters; a longer one comes cut to the whole lines that fit, with truncated: true and lines saying which lines text holds. ' +
    'Read a long note by its outline: call again with heading set to a heading from outline to get that section (or from_line = lines.to + 1 to read on), rather than asking for the whole note again. ' +
    'Use it after search_notes, semantic_search or list_notes, which return only a snippet, and before update_note in replace mode (which overwrites the whole body: never replace a body you read truncated); follow links and backlinks by their ids to explore related notes. ' +
    'Errors: "Note not found" for an unknown id or one this connection may not see; "Heading not found: X" or a heading matching several (name it as Parent#Child); a from_line past the end of the note or outside the section.',
  scope: 'notes:read',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({
    note_id: noteId(),
    heading: text('heading', {
      min: 1,
      max: 1000,
      description: 'Read only this section, its heading line included: the heading\'s text as outline gives it (any case), Parent#Child for a nested one, or ^blockid for the block ending with that id.',
    }).optional(),
    from_line: requiredInt('from_line', 1, undefined, 'Start at this body line (1 is the first line after the frontmatter), e.g. lines.to + 1 of a truncated answer; with heading, a line of that section.').optional(),
    max_lines: requiredInt('max_lines', 1, undefined, 'Return at most this many lines, from from_line (or from the start of the section or body).').optional(),
  }),
  output: fullNote,
  async handler(args, { view }) {
    await view.assertReady();
    const note = await view.read(args.note_id);
    const request: PartRequest = {};
    if (args.heading !== undefined) request.heading = args.heading;
    if (args.from_line !== undefined) request.fromLine = args.from_line;
    if (args.max_lines !== undefined) request.maxLines = args.max_lines;
    return toFullNote(note.record, note.body, note.owner, view.connections(note, BACKLINK_LIMIT), note.properties, request);
  },
});
