import { describe, expect, it } from 'vitest';
import { FullTextIndex, type PhraseLookup } from '../../../src/index/fulltext/fulltext.js';
import { notePhraseCheck, phrasesInFields } from '../../../src/index/fulltext/note-phrases.js';
import { parseQuery, queryWords, wordForWordCoverage, wordForWordCoverageOf } from '../../../src/index/fulltext/query-syntax.js';
import { NoteNotFoundError } from '../../../src/vault/errors.js';
import type { NoteRecord } from '../../../src/vault/note.js';
import { catalogRecord } from '../../support/records.js';

const recordFor = ({ id, title }: { id: string; title: string }): NoteRecord => ({ ...catalogRecord(id, `${id}.md`), title });

const QUERIES = ['alpha', 'alpha beta', '"alpha beta"', 'alpha -gamma', 'alpha OR delta', '-"beta gamma" alpha', 'one two three four'];

describe('a query parsed once', () => {
  it.each(QUERIES)('%s: the index answers its parsed words as it answers the text', async (query) => {
    const index = FullTextIndex.empty();
    const bodies = ['alpha beta gamma', 'beta alpha', 'alpha delta', 'gamma beta one two three four'];
    bodies.forEach((body, i) => index.upsert(recordFor({ id: `n${i}`, title: `Note ${i}` }), body));
    const check = notePhraseCheck({ get: () => undefined, read: () => Promise.reject(new NoteNotFoundError()) });
    const texts = new Map(bodies.map((body, i) => [`n${i}`, body]));
    const reader = async (id: string, lookups: readonly PhraseLookup[]) => phrasesInFields({ body: texts.get(id) ?? '', title: '', tags: '' }, lookups);
    const visible = { key: 'some', sees: (id: string) => id !== 'n2' };
    expect(await index.query(queryWords(parseQuery(query)), visible, 10, reader)).toEqual(await index.query(query, (id) => id !== 'n2', 10, reader));
    expect(wordForWordCoverageOf(queryWords(parseQuery(query)))).toBe(wordForWordCoverage(query));
    // A note gone before its phrases are read is no match.
    expect(await check('n0', [{ terms: ['alpha', 'beta'], fields: ['body'] }])).toBeUndefined();
  });
});

describe('phrases looked for in a note, in the index floor', () => {
  // [fields, phrase lookups, held]
  const cases: [Record<string, string>, PhraseLookup[], boolean[]][] = [
    [{ body: 'the art of war' }, [{ terms: ['art', 'of', 'war'], fields: ['body'] }], [true]],
    [{ body: 'the art in war' }, [{ terms: ['art', 'of', 'war'], fields: ['body'] }], [false]],
    [{ body: 'war and art' }, [{ terms: ['art', 'war'], fields: ['body'] }], [false]],
    [{ title: 'art war', body: '' }, [{ terms: ['art', 'war'], fields: ['body'] }, { terms: ['art', 'war'], fields: ['title', 'body'] }], [false, true]],
    [{ tags: 'project/alpha' }, [{ terms: ['project', 'alpha'], fields: ['tags'] }], [true]],
  ];
  it.each(cases)('%j %j', (fields, lookups, held) => {
    expect(phrasesInFields(fields, lookups)).toEqual(held);
  });

  it('reads the body from the note only when a phrase may stand there', async () => {
    const record: NoteRecord = recordFor({ id: 'x', title: 'Art of war' });
    let reads = 0;
    const check = notePhraseCheck({
      get: (id) => (id === 'x' ? record : undefined),
      read: async () => {
        reads++;
        return { record, body: 'Sun Tzu wrote *the art of war*.' };
      },
    });
    expect(await check('x', [{ terms: ['art', 'of', 'war'], fields: ['title'] }])).toEqual([true]);
    expect(reads).toBe(0);
    expect(await check('x', [{ terms: ['tzu', 'wrote'], fields: ['body'] }, { terms: ['war', 'sun'], fields: ['body'] }])).toEqual([true, false]);
    expect(reads).toBe(1);
    expect(await check('gone', [{ terms: ['art', 'war'], fields: ['title'] }])).toBeUndefined();
  });
});
