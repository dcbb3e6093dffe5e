import { z } from 'zod';
import { toItem } from './note-items.js';
import { intParam, noteItem, text } from './schemas.js';
import { defineTool } from './tool.js';

const searchItem = noteItem.extend({
  matched_terms: z.array(z.string()).optional().describe('The words in the note that matched the query (after prefix and typo matching).'),
});

export const searchNotesTool = defineTool({
  name: 'search_notes',
  title: 'Search notes by words',
  description:
    'Full-text search over note titles, bodies and tags, ranked by relevance: notes holding every query word first, then by BM25 (title matches weigh most). ' +
    'Covers every kind of note: bookmarks, saved e-mails and feed articles too. Words are combined with OR, so a note lacking one word is still found, lower down; ' +
    'word beginnings and small typos match too, and a Korean word finds its forms with particles attached. ' +
    'Common words (the, how, does; their like in other languages) do not count beside other words, so a question can be asked as written; quoted, or alone, they are looked for. ' +
    'Syntax: "exact phrase" finds only notes with those words adjacent and in order, -word or -"phrase" leaves out every note containing it (-word also words it begins, as the search matches them), and OR between two words or phrases makes them alternatives (holding either counts as holding that word). ' +
    'Use semantic_search instead to find notes about a concept when the exact words are unknown, and list_notes for date, tag or folder filters. ' +
    'Returns {items, total, page}; each item also lists matched_terms, and total_approximate: true marks a total estimated because a phrase had too many candidate notes to check them all. ' +
    'Errors: a plain message while the index is still being built (with progress), for a query outside 1–200 characters, or for a query that only leaves words out.',
  scope: 'notes:read',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({
    query: text('query', { min: 1, max: 200, description: 'The words to look for, 1 to 200 characters; "exact phrase", -word, -"phrase" and OR work as the tool describes.' }),
    page: intParam('page', 1, undefined, 1, 'Page number, from 1.'),
    size: intParam('size', 1, 50, 10, 'Items per page, 1 to 50.'),
  }),
  output: z.object({
    items: z.array(searchItem),
    total: z.number().int(),
    total_approximate: z
      .literal(true)
      .optional()
      .describe(
        'Present when total is an estimate: a phrase had more candidate notes than one search reads, so the rest were counted from a sample. Every item holds the phrase, but a matching note beyond those read may be missing.',
      ),
    page: z.number().int(),
  }),
  async handler(args, { view }) {
    await view.assertReady('The search index is still being built');
    const { hits, total, approximate } = await view.searchText(args.query, args.page, args.size);
    const items = hits.map((hit) => ({ ...toItem(hit.note), matched_terms: hit.terms ?? [] }));
    return approximate ? { items, total, total_approximate: true as const, page: args.page } : { items, total, page: args.page };
  },
});
