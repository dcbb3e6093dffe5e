/** find_similar: the notes closest in meaning to a given note. */
import { z } from 'zod';
import { SEMANTIC_TOOL, semanticAnswer, SIMILARITY_GUIDE, sizeParam } from './semantic-answer.js';
import { noteId } from './schemas.js';
import { defineTool } from './tool.js';

export const findSimilarTool = defineTool({
  name: 'find_similar',
  title: 'Find similar notes',
  description:
    'The notes closest in meaning to a given note: related reading, likely duplicates, connected ideas. Never returns the note itself. ' +
    `${SIMILARITY_GUIDE} Returns {items} in order of similarity, highest first, plus indexing while notes are still being embedded. ` +
    'Errors: "Note not found" for an unknown id or one this connection may not see; a plain message when that note has not been embedded yet.',
  ...SEMANTIC_TOOL,
  input: z.object({
    note_id: noteId(),
    size: sizeParam,
  }),
  async handler(args, { view }) {
    await view.assertReady();
    return semanticAnswer(view, () => view.similarTo(args.note_id, args.size));
  },
});
