/**
 * A labeled evaluation set for semantic search: realistic personal notes over
 * about 30 topics, and queries phrased as a person would ask an assistant,
 * each with the keys of every note a person asking it would want to see.
 * Notes relevant to no query are negatives for every query; notes of the same
 * topic that a query does not ask about are the hard negatives.
 *
 * Most queries deliberately share no content word with their relevant notes
 * (see `sharedContentWords`), so full-text search cannot simply find them;
 * a few keyword-style queries do share words, as real queries often do.
 *
 * The notes and queries are data, in `bench/data/semantic-set.json`
 * (`{ "notes": [{ key, title, body }], "queries": [{ query, relevant }] }`),
 * read once when this module loads; the rest are small pure helpers. Keys
 * are stable: `topic-N`.
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths.js';

export interface LabeledNote {
  key: string;
  title: string;
  body: string;
}

export interface LabeledQuery {
  query: string;
  /** keys of all notes in `LABELED_NOTES` a person asking `query` would want to see */
  relevant: string[];
}

// ---------------------------------------------------------------------------
// Word comparison: lower-case, accents folded, apostrophes dropped, split on
// anything that is not a letter or digit, stop words removed, crude stemming.

/**
 * Common English function words, contractions without their apostrophe, and
 * the words people use to frame a request to an assistant ("notes about…",
 * "remind me…", "find…"), which say nothing about the topic.
 */
export const TOPICLESS_WORDS: ReadonlySet<string> = new Set([
  // articles, pronouns, determiners
  'a', 'an', 'the', 'i', 'me', 'my', 'mine', 'myself', 'we', 'us', 'our', 'ours', 'ourselves',
  'you', 'your', 'yours', 'yourself', 'yourselves', 'he', 'him', 'his', 'himself', 'she', 'her',
  'hers', 'herself', 'it', 'its', 'itself', 'they', 'them', 'their', 'theirs', 'themselves',
  'this', 'that', 'these', 'those', 'what', 'which', 'who', 'whom', 'whose', 'when', 'where',
  'why', 'how', 'all', 'any', 'both', 'each', 'few', 'more', 'most', 'other', 'others', 'some',
  'such', 'no', 'nor', 'not', 'only', 'own', 'same', 'so', 'than', 'too', 'very', 'every',
  'everything', 'anything', 'something', 'nothing', 'else', 'ever', 'also', 'just', 'now',
  'then', 'there', 'here', 'again', 'once', 'further', 'much', 'many', 'whether',
  // auxiliaries and modals
  'am', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'have', 'has', 'had', 'having',
  'do', 'does', 'did', 'doing', 'done', 'can', 'could', 'will', 'would', 'shall', 'should',
  'may', 'might', 'must',
  // conjunctions and prepositions
  'and', 'but', 'if', 'or', 'because', 'as', 'until', 'while', 'of', 'at', 'by', 'for', 'with',
  'about', 'against', 'between', 'into', 'through', 'during', 'before', 'after', 'above',
  'below', 'to', 'from', 'up', 'down', 'in', 'out', 'on', 'off', 'over', 'under', 'onto',
  'upon', 'within', 'without', 'via', 'per',
  // contractions, apostrophe dropped
  'im', 'ive', 'id', 'ill', 'youre', 'weve', 'were', 'theyre', 'dont', 'doesnt', 'didnt',
  'cant', 'couldnt', 'wont', 'wouldnt', 'shouldnt', 'isnt', 'arent', 'wasnt', 'werent',
  'hasnt', 'havent', 'hadnt', 'whats', 'hows', 'thats', 'theres', 'lets', 's', 't',
  // framing words of a request
  'note', 'notes', 'noted', 'anything', 'stuff', 'thing', 'things', 'find', 'show', 'look',
  'looking', 'remind', 'remember', 'recall', 'wrote', 'write', 'written', 'jotted', 'tell',
  'told', 'know', 'get', 'gets', 'getting', 'got', 'want', 'wanted', 'need', 'needed', 'way',
  'ways',
]);

const SUFFIXES = ['ing', 'es', 'ed', 'er', 'ly', 's'] as const;

/**
 * A crude stemmer: `ies` → `y`, else strips one of `ing es ed er ly s` (when
 * at least three letters remain), then a final `e` and a doubled final
 * consonant, so that bake/baking/baked/baker, run/running and note/notes
 * meet.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) {
    w = `${w.slice(0, -3)}y`;
  } else {
    for (const suffix of SUFFIXES) {
      if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
        w = w.slice(0, -suffix.length);
        break;
      }
    }
  }
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  const last = w[w.length - 1];
  if (w.length > 3 && last !== undefined && last === w[w.length - 2] && !'aeiou'.includes(last)) w = w.slice(0, -1);
  return w;
}

/** Lower-cased words of `text`, accents folded and apostrophes dropped. */
export function words(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '');
  return folded.split(/[^a-z0-9]+/).filter((word) => word.length > 0);
}

/** The words of `text` that are not stop words. */
export function contentWords(text: string): string[] {
  return words(text).filter((word) => !TOPICLESS_WORDS.has(word));
}

/**
 * The content words of `query` (lower-cased, each once, in query order) whose
 * stem is also the stem of a content word of `text`.
 */
export function sharedContentWords(query: string, text: string): string[] {
  const textStems = new Set(contentWords(text).map(stem));
  const shared: string[] = [];
  for (const word of contentWords(query)) {
    if (textStems.has(stem(word)) && !shared.includes(word)) shared.push(word);
  }
  return shared;
}

// ---------------------------------------------------------------------------
// The notes and the queries.

/** Where the labeled set is kept: beside the sources, since the compiled benchmarks do not copy it. */
export const LABELED_SET_FILE = path.join(ROOT, 'bench', 'data', 'semantic-set.json');

export interface LabeledSet {
  notes: LabeledNote[];
  queries: LabeledQuery[];
}

/**
 * The labeled set in `file`, its shape checked: a hand-edited data file is
 * not type-checked, and a misspelt field would otherwise only show as a
 * worse recall.
 */
export function loadLabeledSet(file: string = LABELED_SET_FILE): LabeledSet {
  const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const fail = (where: string, what: string): never => {
    throw new Error(`${file}: ${where} ${what}`);
  };
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  const text = (value: unknown, where: string): string => (typeof value === 'string' ? value : fail(where, 'is not a string'));
  if (!isObject(data) || !Array.isArray(data.notes) || !Array.isArray(data.queries)) {
    return fail('the top level', 'is not an object with the arrays "notes" and "queries"');
  }
  const notes = data.notes.map((note: unknown, i): LabeledNote => {
    if (!isObject(note)) return fail(`notes[${i}]`, 'is not an object');
    return { key: text(note.key, `notes[${i}].key`), title: text(note.title, `notes[${i}].title`), body: text(note.body, `notes[${i}].body`) };
  });
  const queries = data.queries.map((entry: unknown, i): LabeledQuery => {
    if (!isObject(entry)) return fail(`queries[${i}]`, 'is not an object');
    if (!Array.isArray(entry.relevant)) return fail(`queries[${i}].relevant`, 'is not an array');
    return {
      query: text(entry.query, `queries[${i}].query`),
      relevant: entry.relevant.map((key: unknown, k) => text(key, `queries[${i}].relevant[${k}]`)),
    };
  });
  return { notes, queries };
}

const LABELED_SET = loadLabeledSet();
export const LABELED_NOTES: readonly LabeledNote[] = LABELED_SET.notes;
export const LABELED_QUERIES: readonly LabeledQuery[] = LABELED_SET.queries;

/** How many of `LABELED_QUERIES` share no content word with any of their relevant notes (title + body). */
export function queriesSharingNoWord(): number {
  const byKey = new Map(LABELED_NOTES.map((note) => [note.key, note]));
  let count = 0;
  for (const { query, relevant } of LABELED_QUERIES) {
    const text = relevant.map((key) => {
      const note = byKey.get(key);
      return note === undefined ? '' : `${note.title}\n${note.body}`;
    }).join('\n');
    if (sharedContentWords(query, text).length === 0) count++;
  }
  return count;
}
