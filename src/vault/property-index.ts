import { typedValue, type TypedElement } from '../format/property-values.js';
import type { PropertyLookup } from '../format/property-query.js';
import type { RecordIndex } from './deferred-index.js';
import type { NoteRecord } from './note.js';

/**
 * Notes by frontmatter property: for each property name, the notes that
 * have it with their value's elements typed once (property-values.ts,
 * `typedValue`: a date's moment, a number, text in lower case), so that a
 * list_notes `where` visits only the notes of the property it asks about
 * and compares numbers it does not parse again. Made by the catalog like
 * the tag index (deferred-index.ts) and kept in step one note at a time, in
 * O(properties of the note); nothing is rebuilt for a query.
 *
 * A note's properties are never changed in place: a changed note is a new
 * record. A record made again with the same properties object (new dates,
 * a move) takes over the typed elements of the one it replaces.
 */
export class PropertyIndex implements RecordIndex, PropertyLookup<NoteRecord> {
  private readonly notesByName = new Map<string, Map<NoteRecord, readonly TypedElement[]>>();

  put(record: NoteRecord, old?: NoteRecord): void {
    const properties = record.properties;
    const kept = old !== undefined && old.properties === properties ? this.take(old) : undefined;
    if (old !== undefined && kept === undefined) this.remove(old);
    if (properties === undefined) return;
    for (const [name, value] of Object.entries(properties)) {
      let notes = this.notesByName.get(name);
      if (!notes) this.notesByName.set(name, (notes = new Map()));
      notes.set(record, kept?.get(name) ?? typedValue(value));
    }
  }

  remove(record: NoteRecord): void {
    for (const name of Object.keys(record.properties ?? {})) {
      const notes = this.notesByName.get(name);
      if (!notes) continue;
      notes.delete(record);
      if (notes.size === 0) this.notesByName.delete(name);
    }
  }

  notesWith(name: string): ReadonlyMap<NoteRecord, readonly TypedElement[]> | undefined {
    return this.notesByName.get(name);
  }

  names(): Iterable<[string, ReadonlyMap<NoteRecord, readonly TypedElement[]>]> {
    return this.notesByName.entries();
  }

  /** The typed elements indexed for `old`, by name, forgetting them there. */
  private take(old: NoteRecord): Map<string, readonly TypedElement[]> {
    const kept = new Map<string, readonly TypedElement[]>();
    for (const name of Object.keys(old.properties ?? {})) {
      const elements = this.notesByName.get(name)?.get(old);
      if (elements !== undefined) kept.set(name, elements);
    }
    this.remove(old);
    return kept;
  }
}
