import { noteHasTag, tagFilterCandidates } from './tags.js';
import {
  compileCondition,
  conditionHolds,
  PropertyConditionError,
  type CompiledCondition,
  type Condition,
  type PropertyType,
  type StoredValue,
  type TypedElement,
} from './property-values.js';

/**
 * list_notes `where` over a vault's property index, and list_properties'
 * counts: which notes to visit (only those of the condition's property
 * whose notes are fewest, never every note when one condition needs its
 * property), which of them hold every condition, and what each item shows.
 * Pure and generic over the record, so that the tools and the view share it
 * without the tools importing the model.
 *
 * `tags` is the note's tags, frontmatter and body alike, under the tag
 * rules of tags.ts: `=` and `contains` hold for a tag the value covers
 * (`#ml` covers `#ml/papers`; a bare word means `#word` or `@word`), `!=`
 * is their opposite, `exists` and `missing` ask whether the note has any tag.
 */

/** What a query reads of a note. */
export interface PropertyRecord {
  readonly tags: readonly string[];
  readonly properties?: Readonly<Record<string, StoredValue>> | undefined;
}

/** A vault's notes by property (the catalog's PropertyIndex): each note holding it, with its value's typed elements. */
export interface PropertyLookup<R> {
  notesWith(name: string): ReadonlyMap<R, readonly TypedElement[]> | undefined;
  names(): Iterable<[string, ReadonlyMap<R, readonly TypedElement[]>]>;
}

/** How many conditions one call may give. */
export const MAX_CONDITIONS = 10;

const TAG_OPS = new Set(['=', '!=', 'contains', 'exists', 'missing']);

interface TagCondition {
  readonly op: Condition['op'];
  /** The tags the value means (tagFilterCandidates); empty for exists and missing. */
  readonly candidates: readonly string[];
}

function compileTagCondition(condition: CompiledCondition): TagCondition {
  if (!TAG_OPS.has(condition.op)) {
    throw new PropertyConditionError(`The property "tags" takes =, !=, contains, exists or missing, not "${condition.op}"; tags have no order.`);
  }
  if (condition.value === undefined) return { op: condition.op, candidates: [] };
  const candidates = tagFilterCandidates(String(condition.value));
  if (!candidates) throw new PropertyConditionError(`A condition on "tags" needs a tag such as "#ml", "@alice" or a bare word; "${String(condition.value)}" is not one.`);
  return { op: condition.op, candidates };
}

function tagHolds(condition: TagCondition, tags: readonly string[]): boolean {
  if (condition.op === 'exists') return tags.length > 0;
  if (condition.op === 'missing') return tags.length === 0;
  const has = noteHasTag(tags, condition.candidates);
  return condition.op === '!=' ? !has : has;
}

export class WhereQuery {
  private constructor(
    private readonly conditions: readonly CompiledCondition[],
    private readonly tagConditions: readonly TagCondition[],
    /** The property names the conditions name, in their order, each once: the keys an item shows. */
    readonly names: readonly string[],
  ) {}

  /** The query of a call's `where`; refused with a plain sentence (PropertyConditionError). */
  static compile(where: readonly Condition[]): WhereQuery {
    if (where.length === 0) throw new PropertyConditionError('where must hold at least one condition; leave it out to list every note.');
    if (where.length > MAX_CONDITIONS) throw new PropertyConditionError(`where may hold at most ${MAX_CONDITIONS} conditions.`);
    const conditions: CompiledCondition[] = [];
    const tagConditions: TagCondition[] = [];
    for (const condition of where) {
      const compiled = compileCondition(condition);
      if (compiled.property === 'tags') tagConditions.push(compileTagCondition(compiled));
      else conditions.push(compiled);
    }
    return new WhereQuery(conditions, tagConditions, [...new Set(where.map((condition) => condition.property))]);
  }

  /** The tags one condition asks for (`tags` = or contains), which a tag index can find: a call without `tag` visits only those notes. */
  get tagged(): readonly string[] | undefined {
    return this.tagConditions.find((condition) => condition.op === '=' || condition.op === 'contains')?.candidates;
  }

  /**
   * The notes to look at: those of the condition's property that the fewest
   * notes have, among the conditions a note without the property cannot hold
   * (all but `!=` and `missing`); undefined when there is none, and every
   * note must be looked at.
   */
  candidates<R>(lookup: PropertyLookup<R>): Iterable<R> | undefined {
    let fewest: ReadonlyMap<R, readonly TypedElement[]> | undefined;
    for (const condition of this.conditions) {
      if (condition.op === '!=' || condition.op === 'missing') continue;
      const notes = lookup.notesWith(condition.property) ?? new Map<R, readonly TypedElement[]>();
      if (fewest === undefined || notes.size < fewest.size) fewest = notes;
    }
    return fewest?.keys();
  }

  /** Whether `record` holds every condition, its values read from `lookup` (the index of its own vault). */
  holds<R extends PropertyRecord>(record: R, lookup: PropertyLookup<R>): boolean {
    return this.holdsIn(record, this.conditions.map((condition) => lookup.notesWith(condition.property)));
  }

  /** holds, with each condition's notes (`notesWith`) looked up once for a whole pass rather than once a note. */
  private holdsIn<R extends PropertyRecord>(record: R, notes: readonly (ReadonlyMap<R, readonly TypedElement[]> | undefined)[]): boolean {
    for (const condition of this.tagConditions) if (!tagHolds(condition, record.tags)) return false;
    for (let i = 0; i < this.conditions.length; i++) {
      if (!conditionHolds(this.conditions[i] as CompiledCondition, notes[i]?.get(record))) return false;
    }
    return true;
  }

  /**
   * The notes of `base` (or of the narrowest property, or `all`) that `sees`
   * lets through and that hold every condition, in no particular order.
   */
  *select<R extends PropertyRecord>(lookup: PropertyLookup<R>, base: Iterable<R> | undefined, all: () => Iterable<R>, sees?: (record: R) => boolean): Generator<R> {
    const notes = this.conditions.map((condition) => lookup.notesWith(condition.property));
    for (const record of base ?? this.candidates(lookup) ?? all()) {
      if ((sees === undefined || sees(record)) && this.holdsIn(record, notes)) yield record;
    }
  }

  /** What an item shows as `properties`: the keys the conditions named that the note has, with their values (dates as written; `tags` its tags). */
  shown(record: PropertyRecord): Record<string, unknown> {
    const shown: Record<string, unknown> = {};
    for (const name of this.names) {
      const value = name === 'tags' ? (record.tags.length > 0 ? [...record.tags] : undefined) : record.properties?.[name];
      if (value !== undefined) Object.defineProperty(shown, name, { value, enumerable: true, writable: true, configurable: true });
    }
    return shown;
  }
}

/** One line of list_properties. */
export interface PropertyCount {
  name: string;
  count: number;
  types: PropertyType[];
}

/** The notes of one vault that list_properties counts: its index, and which of its notes the connection sees (undefined: all). */
export interface CountedVault<R extends PropertyRecord> {
  lookup: PropertyLookup<R>;
  records: () => Iterable<R>;
  sees?: ((record: R) => boolean) | undefined;
}

const TYPE_ORDER: readonly PropertyType[] = ['text', 'number', 'checkbox', 'date', 'datetime', 'list'];

function tally(counts: Map<string, { count: number; types: Set<PropertyType> }>, name: string, type: PropertyType | undefined): void {
  let entry = counts.get(name);
  if (!entry) counts.set(name, (entry = { count: 0, types: new Set() }));
  entry.count++;
  if (type !== undefined) entry.types.add(type);
}

/**
 * list_properties: every property the seen notes have, with how many have
 * it and its types, most used first, then by name. Only the notes `sees`
 * lets through are counted, so a property only unseen notes have is not
 * there at all. `tags` counts the notes with any tag.
 */
export function countProperties<R extends PropertyRecord>(vaults: readonly CountedVault<R>[]): PropertyCount[] {
  const counts = new Map<string, { count: number; types: Set<PropertyType> }>();
  for (const { lookup, records, sees } of vaults) {
    for (const [name, notes] of lookup.names()) {
      for (const [record, elements] of notes) {
        if (sees !== undefined && !sees(record)) continue;
        tally(counts, name, Array.isArray(record.properties?.[name]) ? 'list' : elements[0]?.kind);
      }
    }
    for (const record of records()) if (record.tags.length > 0 && (sees === undefined || sees(record))) tally(counts, 'tags', 'list');
  }
  return [...counts]
    .map(([name, { count, types }]) => ({ name, count, types: TYPE_ORDER.filter((type) => types.has(type)) }))
    .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
