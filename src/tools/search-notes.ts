import { z } from 'zod';
import type { Vault } from '../vault/vault.js';
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
  async handler(args, { view, fulltext }) {
    await view.assertReady('The search index is still being built');
    // Each vault's index counts its visible matches and keeps the best
    // `wanted`; the page is cut from those, merged across vaults.
    const wanted = args.page * args.size;
    const hits: { vault: Vault; id: string; score: number; terms: string[] }[] = [];
    let total = 0;
    for (const vault of view.searchableVaults()) {
      const index = fulltext.get(vault);
      if (!index) continue;
      const page = index.query(args.query, view.visibilityTest(vault), wanted);
      total += page.total;
      for (const hit of page.hits) hits.push({ vault, ...hit });
    }
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const items = [];
    for (const hit of hits.slice(wanted - args.size, wanted)) {
      const note = view.visibleIn(hit.vault, hit.id);
      if (note) items.push({ ...toItem(note), matched_terms: hit.terms });
    }
    return { items, total, page: args.page };
  },
});
