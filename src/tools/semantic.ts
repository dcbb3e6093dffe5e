import { z } from 'zod';
import { similarityFor, type SimilarityKind } from '../index/vectors/calibration.js';
import type { VaultView, VisibleHit } from '../access/view.js';
import { toItem } from './items.js';
import { intParam, noteId, noteItem, text } from './schemas.js';
import { defineTool } from './tool.js';

const indexing = z
  .object({
    embedded: z.number().int().describe('Notes embedded in full.'),
    searchable: z.number().int().describe('Notes found by meaning so far: those embedded in full, and those of which only the opening is embedded yet.'),
    total: z.number().int(),
    message: z.string(),
  })
  .optional()
  .describe('Present while notes are still being embedded: the results cover only the notes embedded so far (long notes are embedded by their opening first, then in full).');

const semanticResult = z.object({ items: z.array(noteItem), indexing });

function progressNote(view: VaultView): z.infer<typeof indexing> {
  const progress = view.embeddingProgress();
  if (!progress) return undefined;
  const { embedded, searchable, total } = progress;
  const count = (n: number): string => n.toLocaleString('en');
  const openingOnly = searchable - embedded;
  const done =
    openingOnly > 0
      ? `${count(embedded)} of ${count(total)} done in full and ${count(openingOnly)} more by their opening only, so results cover only those`
      : `${count(embedded)} of ${count(total)} done, so results cover only those`;
  return { embedded, searchable, total, message: `Still embedding notes: ${done}; try again later for complete results.` };
}

/**
 * Ranked hits as note items with calibrated similarity, plus progress while
 * embedding. `kind` picks the map: a note's cosines to other notes run much
 * higher than a query's, so find_similar has a calibration of its own.
 */
function answer(view: VaultView, hits: readonly VisibleHit[], kind: SimilarityKind): z.infer<typeof semanticResult> {
  const similarity = similarityFor(view.embedderId, kind);
  const items = hits.map((hit) => toItem(hit.note, similarity(hit.score)));
  const progress = progressNote(view);
  return progress ? { items, indexing: progress } : { items };
}

const SIMILARITY_GUIDE =
  'Each result carries similarity (0–1): 0.6 or above is usually relevant, below 0.6 usually only loosely related (0.45 means probably unrelated).';

export const semanticSearchTool = defineTool({
  name: 'semantic_search',
  title: 'Search notes by meaning',
  description:
    'Find notes by meaning using sentence embeddings: it surfaces notes about a concept even when they share no word with the query ' +
    '(e.g. "notes about my garden" finds a note on watering tomatoes). Use it for topics, ideas and vague recollections; use search_notes for exact words or names. ' +
    `${SIMILARITY_GUIDE} Returns {items} ranked by similarity (no total or pages: it is a ranked window), except that a note holding every word of a query of three words or more (a sentence copied from it, a name with its context) comes first; plus indexing while notes are still being embedded. ` +
    'Errors: a plain message for a query outside 1–500 characters, or when semantic search is unavailable.',
  scope: 'notes:read',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({
    query: text('query', { min: 1, max: 500, description: 'What to look for, in plain words: a topic, a question, a description; 1 to 500 characters.' }),
    size: intParam('size', 1, 50, 10, 'How many results, 1 to 50.'),
  }),
  output: semanticResult,
  available: ({ view }) => view.semanticEnabled,
  async handler(args, { view }) {
    await view.assertReady();
    return answer(view, await view.searchMeaning(args.query, args.size), 'query');
  },
});

export const findSimilarTool = defineTool({
  name: 'find_similar',
  title: 'Find similar notes',
  description:
    'The notes closest in meaning to a given note: related reading, likely duplicates, connected ideas. Never returns the note itself. ' +
    `${SIMILARITY_GUIDE} Returns {items} ranked by similarity, plus indexing while notes are still being embedded. ` +
    'Errors: "Note not found" for an unknown id or one this connection may not see; a plain message when that note has not been embedded yet.',
  scope: 'notes:read',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({
    note_id: noteId(),
    size: intParam('size', 1, 50, 10, 'How many results, 1 to 50.'),
  }),
  output: semanticResult,
  available: ({ view }) => view.semanticEnabled,
  async handler(args, { view }) {
    await view.assertReady();
    return answer(view, await view.similarTo(args.note_id, args.size), 'note');
  },
});
