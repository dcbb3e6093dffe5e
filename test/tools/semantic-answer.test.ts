import { describe, expect, it } from 'vitest';
import type { VaultView } from '../../src/access/view.js';
import type { EmbeddingProgress } from '../../src/access/view-types.js';
import { semanticAnswer } from '../../src/tools/semantic-answer.js';
import { catalogRecord } from '../support/records.js';

/** A view whose embedding progress is `before` until the search runs, and every note's after. */
function viewMeanwhile(before: EmbeddingProgress | undefined): { view: VaultView; searched: () => void } {
  let progress = before;
  const view = { embeddingProgress: () => progress } as unknown as VaultView;
  return { view, searched: () => (progress = undefined) };
}

const hit = { note: { record: catalogRecord('n1', 'n1.md') }, score: 0.5, similarity: 0.61 };

describe('semanticAnswer', () => {
  it.each([
    { case: 'embedding when the search starts, done when it ends', before: { embedded: 120, searchable: 150, total: 300 }, indexing: true },
    { case: 'done before the search', before: undefined, indexing: false },
  ])('says a search is partial when the notes were still being embedded as it started: $case', async ({ before, indexing }) => {
    const { view, searched } = viewMeanwhile(before);
    const answer = await semanticAnswer(view, async () => {
      // The check of the last notes against their vectors ends while the search awaits the model.
      searched();
      return [hit];
    });
    expect(answer.items.map((item) => [item.id, item.similarity])).toEqual([['n1', 0.61]]);
    expect(answer.indexing !== undefined).toBe(indexing);
    if (before) expect(answer.indexing).toMatchObject({ embedded: 120, searchable: 150, total: 300 });
  });
});
