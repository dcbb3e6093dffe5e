import { describe, expect, it } from 'vitest';
import type { VaultView } from '../../src/access/view.js';
import type { EmbeddingProgress } from '../../src/access/view-types.js';
import { semanticAnswer } from '../../src/tools/semantic-answer.js';
import { catalogRecord } from '../support/records.js';

const hit = (id: string) => ({ note: { record: catalogRecord(id, `${id}.md`) }, score: 0.5, similarity: 0.61 });
const partway = { embedded: 120, searchable: 150, total: 300 };
const further = { embedded: 200, searchable: 240, total: 300 };

describe('semanticAnswer', () => {
  it.each([
    { case: 'done before the search', progress: [undefined], searches: 1, indexing: undefined },
    { case: 'embedding as the search starts and as it ends', progress: [partway, further], searches: 1, indexing: further },
    // The check of a warm start's last notes against their vectors ends while the search awaits the model.
    { case: 'embedding as the search starts, done as it ends', progress: [partway, undefined], searches: 2, indexing: undefined },
  ])('answers as partial only a search over part of the notes, with the counts after it: $case', async ({ progress, searches, indexing }) => {
    const states: (EmbeddingProgress | undefined)[] = [...progress];
    let current = states.shift();
    const view = { embeddingProgress: () => current } as unknown as VaultView;
    let searched = 0;
    const answer = await semanticAnswer(view, async () => {
      searched++;
      const over = current;
      if (states.length > 0) current = states.shift();
      // A search that starts once every note is embedded finds the second note too.
      return over === undefined ? [hit('n1'), hit('n2')] : [hit('n1')];
    });
    expect(searched).toBe(searches);
    expect(answer.items.map((item) => item.id)).toEqual(indexing ? ['n1'] : ['n1', 'n2']);
    expect(answer.indexing && { embedded: answer.indexing.embedded, searchable: answer.indexing.searchable, total: answer.indexing.total }).toEqual(indexing);
  });
});
