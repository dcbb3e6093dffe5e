import { apartFromHangul } from './korean.js';

/**
 * How text becomes the words of the full-text index: the same rules for a
 * note's text when it is indexed and for a query when it is searched.
 *
 * 1. Text is cut at spaces and punctuation (`splitWords`).
 * 2. Words joined by one `.` `-` `_` `:` `/` or `@` (`v1.4.0`, `x86-64`,
 *    `node:fs`, `foo_bar`, `e-mail`) are a compound: the whole is a word of
 *    its own, followed by its parts, so `x86` still finds `x86-64` and
 *    `v1.4.0` finds the note holding `v1.4.0` before one holding `v1.0.4`.
 * 3. Runs of scripts written without spaces (Han, Hiragana, Katakana, Thai,
 *    Lao, Khmer, Myanmar) are cut into words by `Intl.Segmenter` (ICU's
 *    dictionaries). Runs of Han characters also give every pair of adjacent
 *    characters that is not already one of those words: the segmenter cuts
 *    the same characters differently in different places (`数据链接` is
 *    数据 / 链 / 接, `链接到` is 链 / 接到), and the pair 链接 is found
 *    wherever it is written.
 * 4. Each word is lower-cased and folded (`normaliseTerm`). Stop words are
 *    words like any other here: a query leaves them out of its ranking
 *    (stop-words.ts, query-syntax.ts), and a quoted phrase finds them.
 * 5. A word of Hangul is a word apart from Latin letters or digits touching
 *    it (`Obsidian에서` is `Obsidian` and `에서`); a Korean query word finds the
 *    words it begins (korean.ts).
 *
 * The compound forms and the character pairs are extra words beside the
 * words of the text: `phraseTerms` leaves them out, so that adjacent words in
 * its list are adjacent in the text.
 */

// ---------------------------------------------------------------------------
// Folding.

const ASCII = /^[\x00-\x7f]*$/;
/**
 * Words that folding leaves as they are: kana (voiced ones too, which
 * decompose and compose again), the common Han ideographs, Hangul
 * syllables. Most words of a Japanese, Chinese or Korean note.
 */
const UNCHANGED = /^[\u3005-\u3007\u3041-\u3096\u309d\u309e\u30a1-\u30fa\u30fc-\u30fe\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3]+$/;
/**
 * Letters whose marks may be folded (see `fold`): the Latin, Greek,
 * Cyrillic, Hebrew and Arabic blocks, and the compatibility forms that
 * decompose to them (letterlike symbols such as Å, enclosed and squared
 * letters, ligatures, presentation and full-width forms).
 */
const FOLDABLE = /[\u0041-\u005a\u0061-\u007a\u00aa-\u06ff\u0750-\u077f\u08a0-\u08ff\u1d00-\u1fff\u2100-\u24ff\u2c60-\u2c7f\u3300-\u33ff\ua640-\ua69f\ua720-\ua7ff\ufb00-\ufdff\ufe70-\ufeff\uff21-\uff5a]/;
/** Anything `fold` may have to change after NFKD: a combining mark, Hangul jamo (to compose again), a soft hyphen, a tatweel, a final sigma. */
const NEEDS_FOLDING = /[\p{M}\u00ad\u0640\u1100-\u11ff\u03c2]/u;
/** A word of Latin, Greek or Hebrew letters (with digits, symbols, marks): every mark of it goes. */
const ALL_MARKS_GO = /^[\u0000-\u03ff\u0590-\u05ff\u1d00-\u1fff\u2000-\u2bff]+$/;
const MARKS = /[\p{M}\u00ad]/gu;
/** Every combining mark after a Latin, Greek or Hebrew letter: accents, Greek tonos and breathings, Hebrew points. */
const MARKS_AFTER_LETTER = /([\p{Script=Latin}\p{Script=Greek}\p{Script=Hebrew}])\p{M}+/gu;
/** Arabic harakat (tanween, fatha, damma, kasra, shadda, sukun, the small high marks, the dagger alef), the tatweel, a soft hyphen. */
const DROPPED = /[\u064b-\u0652\u0656-\u065f\u0670]|\u00ad|\u0640/g;
/** Madda and hamza on an alef: آ أ إ become ا (on و and ي, ؤ ئ, they are kept). */
const ALEF_HAMZA = /(?<=\u0627)[\u0653-\u0655]/g;
/** Cyrillic: the diaeresis of ё (ё is written е), then a stress accent on a vowel; й ї ў ѓ ќ keep theirs. */
const CYRILLIC_YO = /(?<=\u0435)\u0308/g;
const CYRILLIC_STRESS = /(?<=[\u0430\u0435\u0438\u043e\u0443\u044b\u044d\u044e\u044f\u0456\u0454])[\u0300\u0301]/g;
/** What is left to compose again: a kept mark, or Hangul jamo. */
const TO_COMPOSE = /[\p{M}\u1100-\u11ff]/u;

/**
 * A word lower-cased, in its compatibility form (`ﬁ` is `fi`, `Ａ` is `a`,
 * `ﾃﾞｰﾀ` is `データ`), with the marks that people leave out when they type
 * folded away, and every other mark kept:
 *
 * - Latin, Greek, Hebrew: every mark goes (`café` = `cafe`, `Ελλάδα` =
 *   `ελλαδα`, pointed Hebrew = unpointed); Greek final ς is σ.
 * - Cyrillic: only ё → е and stress accents; й, ї, ў, ѓ, ќ are letters of
 *   their own and are kept.
 * - Arabic: harakat and tatweel go, and آ أ إ are ا, as Arabic search
 *   usually does; ؤ and ئ are kept.
 * - Everything else keeps its marks: kana voicing (`データ`, not `テータ`),
 *   Devanagari and other Indic vowel signs and viramas, Thai, Lao, Khmer and
 *   Myanmar vowels and tones; Hangul is composed again.
 */
function fold(term: string): string {
  // Every mark kept (Indic, Thai, kana, …): decomposing and composing again is NFKC.
  if (!FOLDABLE.test(term)) return term.normalize('NFKC').toLowerCase();
  const decomposed = term.normalize('NFKD').toLowerCase();
  if (ALL_MARKS_GO.test(decomposed)) {
    const bare = decomposed.replace(MARKS, '');
    return bare.includes('\u03c2') ? bare.replaceAll('\u03c2', '\u03c3') : bare;
  }
  if (!NEEDS_FOLDING.test(decomposed)) return decomposed;
  // Cyrillic, Arabic, or letters of several scripts: mark by mark.
  let folded = decomposed.replace(MARKS_AFTER_LETTER, '$1').replace(DROPPED, '');
  if (folded.includes('\u0627')) folded = folded.replace(ALEF_HAMZA, '');
  if (/[\u0400-\u04ff]/.test(folded)) folded = folded.replace(CYRILLIC_YO, '').replace(CYRILLIC_STRESS, '');
  if (folded.includes('\u03c2')) folded = folded.replaceAll('\u03c2', '\u03c3');
  return TO_COMPOSE.test(folded) ? folded.normalize('NFC') : folded;
}

/** A word as the index holds it (see `fold`), or null for an empty one. */
export function normaliseTerm(term: string): string | null {
  // Runs for every word of every note: NFKD was half the cost, and ASCII
  // words (most of them) have nothing to decompose.
  const folded = ASCII.test(term) ? term.toLowerCase() : term.charCodeAt(0) >= 0x3000 && UNCHANGED.test(term) ? term : fold(term);
  return folded.length === 0 ? null : folded;
}

// ---------------------------------------------------------------------------
// Cutting text into words.

/** Spaces and punctuation, captured, so that a compound's joiners can be seen. U+200B (zero-width space) marks word boundaries in Thai, Khmer and Myanmar text. */
const SEPARATORS = /([\s\p{Z}\p{P}\u200b]+)/u;

/** `. - _ : / @` between two words make a compound. */
function isJoiner(separator: string): boolean {
  if (separator.length !== 1) return false;
  const code = separator.charCodeAt(0);
  // - . / : @ _
  return code === 0x2d || code === 0x2e || code === 0x2f || code === 0x3a || code === 0x40 || code === 0x5f;
}

/** Characters of the scripts written without spaces between words. */
const UNSPACED_CLASS = '\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Thai}\\p{scx=Lao}\\p{scx=Khmer}\\p{scx=Myanmar}';
const UNSPACED = new RegExp(`[${UNSPACED_CLASS}]`, 'u');
/** A run of them, with the marks that follow (variation selectors, kana voicing marks). */
const UNSPACED_RUNS = new RegExp(`[${UNSPACED_CLASS}](?:[${UNSPACED_CLASS}]|\\p{M})*`, 'gu');
const HAN = /\p{Script=Han}/u;
const HAN_RUNS = /\p{Script=Han}{2,}/gu;

/** One segmenter with a fixed locale: its dictionaries pick the words, not the machine's language. */
const SEGMENTER = new Intl.Segmenter('en', { granularity: 'word' });
/**
 * Runs are segmented together, joined by spaces, up to about this many
 * characters: each call of the segmenter costs as much as seven words.
 */
const BATCH = 256;
/**
 * Longer text is segmented in windows of this size: V8's segmenter spends
 * time in proportion to the whole text on every word (a 40,000-character
 * text takes 20 times as long per word as a short one).
 */
const WINDOW = 1024;

/** The words of a run of unspaced scripts, and where each starts in it. */
interface Segmented {
  words: string[];
  starts: number[];
}

/**
 * The word-like segments of `text` and where they start. A window that
 * does not reach the end gives up its last two segments, which the
 * segmenter may have cut short or chosen for want of what follows; the next
 * window starts where they did.
 */
function segmentText(text: string, into: (segment: string, index: number) => void): void {
  for (let from = 0; from < text.length; ) {
    let end = Math.min(text.length, from + WINDOW);
    // Never between the halves of a surrogate pair.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    const segments = [...SEGMENTER.segment(end === text.length && from === 0 ? text : text.slice(from, end))];
    let keep = segments.length;
    let next = end;
    if (end < text.length && segments.length > 2) {
      keep = segments.length - 2;
      next = from + (segments[keep] as Intl.SegmentData).index;
    }
    for (let k = 0; k < keep; k++) {
      const { segment, index, isWordLike } = segments[k] as Intl.SegmentData;
      if (isWordLike) into(segment, from + index);
    }
    from = next;
  }
}

/** Each run's words: runs are segmented in batches joined by spaces, where words always end. */
function segmentRuns(runs: readonly string[]): Segmented[] {
  const out = runs.map((): Segmented => ({ words: [], starts: [] }));
  for (let first = 0; first < runs.length; ) {
    let last = first;
    let length = (runs[first] as string).length;
    while (last + 1 < runs.length && length + 1 + (runs[last + 1] as string).length <= BATCH) length += 1 + (runs[++last] as string).length;
    const batch = first === last ? (runs[first] as string) : runs.slice(first, last + 1).join(' ');
    let run = first;
    let runStart = 0;
    segmentText(batch, (segment, index) => {
      while (index > runStart + (runs[run] as string).length) {
        runStart += (runs[run] as string).length + 1;
        run++;
      }
      const into = out[run] as Segmented;
      into.words.push(segment);
      into.starts.push(index - runStart);
    });
    first = last + 1;
  }
  return out;
}

/**
 * A run's words, then, with `extras`, the pairs of adjacent Han characters
 * that are not one of its words.
 */
function pushRun(run: string, { words, starts }: Segmented, out: string[], extras: boolean): void {
  for (const word of words) out.push(word);
  if (!extras || !HAN.test(run)) return;
  let word = 0;
  for (const match of run.matchAll(HAN_RUNS)) {
    const characters = [...match[0]];
    let at = match.index;
    for (let i = 0; i + 1 < characters.length; i++) {
      const first = characters[i] as string;
      const pair = first + (characters[i + 1] as string);
      while (word < starts.length && (starts[word] as number) < at) word++;
      if (starts[word] !== at || words[word] !== pair) out.push(pair);
      at += first.length;
    }
  }
}

/** The words of `text` before they are normalised; `extras`: with compound forms and character pairs. */
function cut(text: string, extras: boolean): string[] {
  // A particle attached to a Latin word is a word apart (korean.ts).
  text = apartFromHangul(text);
  const unspaced = UNSPACED.test(text);
  // A run of an unspaced script is a word apart from what touches it
  // (`Node.jsのセットアップ` is `Node.js` and `のセットアップ`), then segmented.
  const pieces = (unspaced ? text.replace(UNSPACED_RUNS, ' $& ') : text).split(SEPARATORS);
  const out: string[] = [];
  /** The runs to segment, and how many words came before each. */
  const runs: string[] = [];
  const slots: number[] = [];
  // pieces: word, separator, word, …; the first and last word may be empty.
  for (let i = 0; i < pieces.length; i += 2) {
    const word = pieces[i] as string;
    if (word.length === 0) continue;
    let last = i;
    while (last + 2 < pieces.length && isJoiner(pieces[last + 1] as string) && (pieces[last + 2] as string).length > 0) last += 2;
    if (last === i) {
      if (unspaced && UNSPACED.test(word)) {
        runs.push(word);
        slots.push(out.length);
      } else out.push(word);
      continue;
    }
    if (extras) out.push(pieces.slice(i, last + 1).join(''));
    for (let part = i; part <= last; part += 2) out.push(pieces[part] as string);
    i = last;
  }
  if (runs.length === 0) return out;
  const segmented = segmentRuns(runs);
  const all: string[] = [];
  let done = 0;
  for (const [r, run] of runs.entries()) {
    const slot = slots[r] as number;
    for (; done < slot; done++) all.push(out[done] as string);
    pushRun(run, segmented[r] as Segmented, all, extras);
  }
  for (; done < out.length; done++) all.push(out[done] as string);
  return all;
}

/** Text cut into words, before they are normalised (MiniSearch's `tokenize`): the words, compound forms and character pairs. */
export function splitWords(text: string): string[] {
  return cut(text, true);
}

function normaliseAll(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const word of words) {
    const term = normaliseTerm(word);
    if (term !== null) out.push(term);
  }
  return out;
}

/** The index's words in `text`, in order, repeats kept: what a query is matched by. A compound comes before its parts. */
export function searchTerms(text: string): string[] {
  return normaliseAll(cut(text, true));
}

/**
 * The index's words in `text` one per place, in order, without the compound
 * forms and character pairs: adjacent in this list means adjacent in the
 * text (`node:fs module` is `node fs module`), what a phrase is matched by.
 */
export function phraseTerms(text: string): string[] {
  return normaliseAll(cut(text, false));
}
