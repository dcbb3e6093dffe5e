/**
 * What semantic_search and find_similar share: the answer (note items with a
 * calibrated similarity, and the embedding progress while notes are still
 * being embedded), the size parameter and the parts of a tool that needs a
 * model.
 */
import { z } from 'zod';
import type { VaultView, VisibleHit } from '../access/view.js';
import { toItem } from './note-items.js';
import { intParam, noteItem } from './schemas.js';
import type { ToolContext } from './tool.js';

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
 * The hits `search` finds, as note items with the similarity the view
 * computed for them (already in its order), plus progress while embedding.
 * The search awaits the model and the calibration, and the embedding (after
 * a warm start, the check of the last notes against their vectors) can
 * finish meanwhile: taken only after, the progress let an answer searched
 * over part of the notes come back as complete. Taken before and after, an
 * answer is partial only when it was searched before the notes were done,
 * with the counts of after, which cover whatever it found; when they were
 * done meanwhile, it is searched again, over every note.
 */
export async function semanticAnswer(view: VaultView, search: () => Promise<readonly VisibleHit[]>): Promise<z.infer<typeof semanticResult>> {
  const before = progressNote(view);
  let hits = await search();
  const progress = before && progressNote(view);
  if (before && !progress) hits = await search();
  const items = hits.map((hit) => toItem(hit.note, hit.similarity ?? 0));
  return progress ? { items, indexing: progress } : { items };
}

/** How to read similarity, for both tools' descriptions. */
export const SIMILARITY_GUIDE =
  'Each result carries similarity (0–1), calibrated on the notes this connection sees: 0.6 or above means related most of the time, ' +
  'and most unrelated notes score below 0.6 (about 0.3 is as close as a random note of this vault).';

export const sizeParam = intParam('size', 1, 50, 10, 'How many results, 1 to 50.');

/**
 * What both tools are beside their input: reads that answer with
 * semanticResult, listed only where a model is loaded.
 */
export const SEMANTIC_TOOL = {
  scope: 'notes:read',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  output: semanticResult,
  available: ({ view }: ToolContext): boolean => view.semanticEnabled,
} as const;
