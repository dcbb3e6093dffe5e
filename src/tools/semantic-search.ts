/** semantic_search: notes found by meaning, through sentence embeddings. */
import { z } from 'zod';
import { ANCHOR_SIMILARITY } from '../access/meaning-calibration.js';
import { SEMANTIC_TOOL, semanticAnswer, SIMILARITY_GUIDE, sizeParam } from './semantic-answer.js';
import { text } from './schemas.js';
import { defineTool } from './tool.js';

export const semanticSearchTool = defineTool({
  name: 'semantic_search',
  title: 'Search notes by meaning',
  description:
    'Find notes by meaning using sentence embeddings: it surfaces notes about a concept even when they share no word with the query ' +
    '(e.g. "notes about my garden" finds a note on watering tomatoes). Use it for topics, ideas and vague recollections; use search_notes for exact words or names. ' +
    `${SIMILARITY_GUIDE} Returns {items} in order of similarity, highest first (no total or pages: it is a ranked window); a note holding every word of a query of three words or more (a sentence copied from it, a name with its context) is always among them, with a similarity of at least ${ANCHOR_SIMILARITY}; plus indexing while notes are still being embedded. ` +
    'Errors: a plain message for a query outside 1–500 characters, or when semantic search is unavailable.',
  ...SEMANTIC_TOOL,
  input: z.object({
    query: text('query', { min: 1, max: 500, description: 'What to look for, in plain words: a topic, a question, a description; 1 to 500 characters.' }),
    size: sizeParam,
  }),
  async handler(args, { view }) {
    await view.assertReady();
    return semanticAnswer(view, () => view.searchMeaning(args.query, args.size));
  },
});
