import MiniSearch from 'minisearch';

/**
 * How text becomes the words of the full-text index: the same rules for a
 * note's text when it is indexed and for a query when it is searched.
 */

/**
 * The commonest English function words. They occur in nearly every note, so
 * they carry no ranking signal, yet they would be most of the index's
 * postings and make every query touch most notes.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  ('a an and are as at be but by for from had has have he her his i if in into is it its me my not of on or our she so ' +
    'than that the their them then there these they this to was we were what when which who will with would you your').split(' '),
);

const ASCII = /^[\x00-\x7f]*$/;

/** Lower case and strip accents, so `café` finds `cafe` and the reverse; drop stop words. */
export function normaliseTerm(term: string): string | null {
  // Runs for every word of every note: NFKD was half the cost, and ASCII
  // words (most of them) have nothing to decompose.
  const folded = ASCII.test(term) ? term.toLowerCase() : term.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  return folded.length === 0 || STOP_WORDS.has(folded) ? null : folded;
}

const defaultTokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];

/** Text cut into words, before they are normalised (MiniSearch's `tokenize`). */
export function splitWords(text: string): string[] {
  return defaultTokenize(text);
}

/** The index's words in `text`, in order, repeats kept: what a query or a phrase is matched by. */
export function searchTerms(text: string): string[] {
  return splitWords(text).flatMap((word) => normaliseTerm(word) ?? []);
}
