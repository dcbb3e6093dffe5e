import { z } from 'zod';
import { toFullNote } from './items.js';
import type { PartRequest } from './note-part.js';
import { BACKLINK_LIMIT, fullNote, noteId, requiredInt } from './schemas.js';
import { defineTool } from './tool.js';

export const getNoteTool = defineTool({
  name: 'get_note',
  title: 'Read a note',
  description:
    'Fetch one note in full: its complete Markdown body (text), title, tags, source kind, source URL and folder, ' +
    'the notes it links to (links, with unresolved for links to notes that do not exist) and the notes that link to it (backlinks: "what links here", newest first). ' +
    'Use it after search_notes, semantic_search or list_notes, which return only a snippet, and before update_note in replace mode; follow links and backlinks by their ids to explore related notes. ' +
    'Errors: "Note not found" for an unknown id or one this connection may not see.',
  scope: 'notes:read',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({
    note_id: noteId(),
    from_line: requiredInt('from_line', 1, undefined, 'Start at this body line (1 is the first line after the frontmatter), e.g. lines.to + 1 of a truncated answer.').optional(),
    max_lines: requiredInt('max_lines', 1, undefined, 'Return at most this many lines from from_line (or from the start).').optional(),
  }),
  output: fullNote,
  async handler(args, { view }) {
    await view.assertReady();
    const note = await view.read(args.note_id);
    const request: PartRequest = {};
    if (args.from_line !== undefined) request.fromLine = args.from_line;
    if (args.max_lines !== undefined) request.maxLines = args.max_lines;
    return toFullNote(note.record, note.body, note.owner, view.connections(note, BACKLINK_LIMIT), request);
  },
});
