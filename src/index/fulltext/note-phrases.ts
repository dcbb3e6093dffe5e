import { DexiError } from '../../vault/errors.js';
import { toSearchText } from '../../format/markdown.js';
import type { NoteRecord, NoteWithBody } from '../../vault/note.js';
import { indexedNote, type PhraseCheck, type PhraseLookup } from './fulltext.js';
import { holdsPhrase } from './query-syntax.js';
import { phraseTerms } from './terms.js';

/** Where a phrase search reads notes from: the `Vault` is one. */
export interface NoteSource {
  get(id: string): NoteRecord | undefined;
  /** The note's body; `withProperties` false: without the frontmatter's properties, which a phrase check does not need. */
  read(id: string, withProperties: boolean): Promise<NoteWithBody>;
}

/**
 * How a search of `notes`' index looks for phrases in their text (the index
 * keeps no word positions: see `RankedMiniSearch#rankReading`). Which of the
 * phrases a note holds, adjacent and in order in one of the fields named
 * (its `phraseTerms`: one index word per place), the fields made as the
 * index made them (`indexedNote`): the title and tags from the record, the
 * body's search text from the file, read only when a phrase may stand
 * there. Undefined when the note is gone, or can no longer be read.
 *
 * It lives beside the index, which made the fields it reads again: the
 * access layer only says which notes a search may find.
 */
export function notePhraseCheck(notes: NoteSource): PhraseCheck {
  return async (id, phrases) => {
    let record = notes.get(id);
    if (!record) return undefined;
    let body = '';
    if (phrases.some((phrase) => phrase.fields.includes('body'))) {
      try {
        const note = await notes.read(id, false);
        record = note.record;
        body = toSearchText(note.body);
      } catch (error) {
        if (error instanceof DexiError) return undefined;
        throw error;
      }
    }
    return phrasesInFields({ ...indexedNote(record, body) }, phrases);
  };
}

/** Which of `phrases` the fields hold, each field's words made once. Pure. */
export function phrasesInFields(fields: Readonly<Record<string, string>>, phrases: readonly PhraseLookup[]): boolean[] {
  const words = new Map<string, string[]>();
  const wordsOf = (field: string): string[] => {
    let known = words.get(field);
    if (!known) words.set(field, (known = phraseTerms(fields[field] ?? '')));
    return known;
  };
  return phrases.map((phrase) => phrase.fields.some((field) => holdsPhrase(wordsOf(field), phrase.terms)));
}
