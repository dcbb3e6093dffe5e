import { z } from 'zod';
import { toItem } from './items.js';
import { intParam, noteItem, text } from './schemas.js';
import { defineTool } from './tool.js';

const searchItem = noteItem.extend({
  matched_terms: z.array(z.string()).optional().describe('The words in the note that matched the query (after prefix and typo matching).'),
});

export const searchNotesTool = defineTool({
  name: 'search_notes',
  title: 'Search notes by words',
  description:
    'Full-text search over note titles, bodies and tags, ranked by relevance (BM25: title matches first, notes with more of the words above fewer). ' +
    'Covers every kind of note: bookmarks, saved e-mails and feed articles too. Several words are combined with OR, so a note lacking one word is still found, lower down; ' +
    'word beginnings and small typos match too. Use semantic_search instead to find notes about a concept when the exact words are unknown, and list_notes for date, tag or folder filters. ' +
    'Returns {items, total, page}; each item also lists matched_terms. Errors: a plain message while the index is still being built (with progress), or for a query outside 1–200 characters.',
  scope: 'notes:read',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({
    query: text('query', { min: 1, max: 200, description: 'The words to look for, 1 to 200 characters.' }),
    page: intParam('page', 1, undefined, 1, 'Page number, from 1.'),
    size: intParam('size', 1, 50, 10, 'Items per page, 1 to 50.'),
  }),
  output: z.object({ items: z.array(searchItem), total: z.number().int(), page: z.number().int() }),
  async handler(args, { view }) {
    await view.assertReady('The search index is still being built');
    const { hits, total } = view.searchText(args.query, args.page, args.size);
    const items = hits.map((hit) => ({ ...toItem(hit.note), matched_terms: hit.terms ?? [] }));
    return { items, total, page: args.page };
  },
});
