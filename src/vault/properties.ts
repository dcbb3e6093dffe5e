import { isDeepStrictEqual } from 'node:util';
import { editedHead, joinNote } from '../format/frontmatter-edit.js';
import { parseFrontmatter, splitFrontmatter, type FrontmatterData } from '../format/frontmatter.js';
import { guardedContent, splitForEdit, stampUpdated, type EditedNote } from './edits.js';
import { InvalidInputError } from './errors.js';
import type { Admit, NoteWithBody } from './note.js';
import { HIDDEN_PROPERTIES } from '../format/property-values.js';

/**
 * A note's properties (its frontmatter keys) as `set_properties`,
 * `create_note` and `get_note` see them. Pure: the vault reads and writes
 * the files, this decides what the keys become.
 *
 * `id` is the note's identity and `review` the card's schedule, which
 * `grade_review` keeps: neither is shown nor set here. `attachment` is
 * refused too: it names the file that `delete_note` removes with the note,
 * so setting it would let a write delete any file of the vault.
 */

/** A value a property may be set to; null removes the key. */
export type PropertyValue = string | number | boolean | (string | number)[] | null;

/** Property updates as the frontmatter editor takes them: undefined removes a key. */
export type PropertyUpdates = Record<string, string | number | boolean | (string | number)[] | undefined>;

/**
 * The keys that are never shown as properties (`properties` of get_note):
 * `id` and `review`, as the contract says, and `title`, which the note's
 * own `title` gives. Security: whether a note's title is written in its
 * frontmatter tells whether its file name was taken when it was created or
 * moved (a numbered name keeps the title there), so under a boundary it
 * would tell that a note the connection cannot see holds that name.
 */
const HIDDEN_KEYS = HIDDEN_PROPERTIES;

/** Why a key may not be set, by key. */
const REFUSED_KEYS: ReadonlyMap<string, string> = new Map([
  ['id', 'The property id is the note\'s identity and cannot be set or removed; leave it out of properties.'],
  ['review', 'The property review holds the note\'s review schedule, which grade_review keeps; leave it out of properties.'],
  [
    'attachment',
    'The property attachment names the file kept with an imported note (delete_note removes it with the note), so it cannot be set or removed; leave it out of properties.',
  ],
]);

/** Bounds on one call's properties, so that one call cannot make a block too large to be read again (256 K characters). */
export const PROPERTY_LIMITS = {
  keys: 50,
  keyLength: 200,
  textLength: 5_000,
  listItems: 100,
  itemLength: 1_000,
  totalLength: 50_000,
} as const;

const count = (n: number): string => n.toLocaleString('en');

/** The length a value adds to the block, roughly: what the bounds count. */
function lengthOf(value: PropertyValue): number {
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + String(item).length + 2, 0);
  return value === null ? 0 : String(value).length;
}

function checkKey(key: string): void {
  const refused = REFUSED_KEYS.get(key);
  if (refused !== undefined) throw new InvalidInputError(refused);
  if (key.trim() === '') throw new InvalidInputError('A property name must not be empty or only spaces.');
  if (key.length > PROPERTY_LIMITS.keyLength) throw new InvalidInputError(`A property name may be at most ${count(PROPERTY_LIMITS.keyLength)} characters.`);
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/.test(key)) {
    throw new InvalidInputError(`The property name ${JSON.stringify(key)} holds a line break or a control character; use one line of plain text.`);
  }
}

function checkValue(key: string, value: PropertyValue): void {
  if (typeof value === 'string' && value.length > PROPERTY_LIMITS.textLength) {
    throw new InvalidInputError(`The property ${key} may hold at most ${count(PROPERTY_LIMITS.textLength)} characters of text; put longer text in the note's body.`);
  }
  if (typeof value === 'number' && !Number.isFinite(value)) throw new InvalidInputError(`The property ${key} must be a finite number.`);
  if (!Array.isArray(value)) return;
  if (value.length > PROPERTY_LIMITS.listItems) throw new InvalidInputError(`The property ${key} may list at most ${count(PROPERTY_LIMITS.listItems)} items.`);
  for (const item of value) {
    if (typeof item === 'string' && item.length > PROPERTY_LIMITS.itemLength) {
      throw new InvalidInputError(`Each item of the property ${key} may be at most ${count(PROPERTY_LIMITS.itemLength)} characters.`);
    }
    if (typeof item === 'number' && !Number.isFinite(item)) throw new InvalidInputError(`Each number in the property ${key} must be finite.`);
  }
}

/**
 * The updates a call's `properties` ask for (null: remove the key), once
 * every key and value is within bounds and allowed; refused with a plain
 * sentence otherwise. The types of the values are the tool schema's to check.
 */
export function checkProperties(properties: Readonly<Record<string, PropertyValue>>): PropertyUpdates {
  const entries = Object.entries(properties);
  if (entries.length === 0) throw new InvalidInputError('properties must name at least one property to set or remove.');
  if (entries.length > PROPERTY_LIMITS.keys) throw new InvalidInputError(`properties may name at most ${count(PROPERTY_LIMITS.keys)} properties at once.`);
  let total = 0;
  const updates: PropertyUpdates = {};
  for (const [key, value] of entries) {
    checkKey(key);
    checkValue(key, value);
    total += key.length + lengthOf(value);
    updates[key] = value === null ? undefined : value;
  }
  if (total > PROPERTY_LIMITS.totalLength) throw new InvalidInputError(`properties may hold at most ${count(PROPERTY_LIMITS.totalLength)} characters in all.`);
  return updates;
}

/** Parsed data as JSON would give it: a date the YAML tagged as a timestamp becomes its ISO text. */
function asJson(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

/**
 * What `get_note` shows as `properties`: every frontmatter key but `id`,
 * `review` and `title` (HIDDEN_KEYS), in the block's order, each with its YAML value as JSON. Dates
 * stay the text they are written as (the YAML 1.2 core schema reads
 * `2026-01-02` as a string). Undefined when the block cannot be read (the
 * note is then never rewritten either).
 */
export function propertiesOf(data: FrontmatterData): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (HIDDEN_KEYS.has(key)) continue;
    // Defined as own data so that a key such as `__proto__` is a key like any other.
    Object.defineProperty(shown, key, { value: asJson(value) ?? null, enumerable: true, writable: true, configurable: true });
  }
  return shown;
}

/** propertiesOf for a file's whole content; undefined when its frontmatter is not valid YAML. */
export function propertiesOfContent(content: string): Record<string, unknown> | undefined {
  const parsed = parseFrontmatter(splitFrontmatter(content).yaml);
  return parsed.ok ? propertiesOf(parsed.data) : undefined;
}

/**
 * A note's file with these properties set or removed (see checkProperties),
 * or undefined when none of them would change (nothing is then written).
 * Only the lines of the keys that change are rewritten (editedHead keeps
 * every other byte, comments included); the body is put back as it was.
 *
 * Bookkeeping, as update_note does it: the note's own `updated` key (or
 * `modified`, `date modified`), if it has one and the call does not set or
 * remove it itself, is stamped with `now`, written the way the note writes
 * it. No key the note did not have is added but the ones asked for.
 */
export function withProperties(content: string, updates: PropertyUpdates, now: Date): EditedNote | undefined {
  const { split, data } = splitForEdit(content);
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(updates)) {
    const present = Object.hasOwn(data, key);
    if (value === undefined ? present : !present || !isDeepStrictEqual(asJson(data[key]), value)) changes[key] = value;
  }
  if (Object.keys(changes).length === 0) return undefined;
  stampUpdated(data, changes, now, updates);
  // A layout refused (FrontmatterLayoutError) is a DexiError: the assistant reads its sentence as it is.
  const head = editedHead(content, split, changes);
  const after: FrontmatterData = { ...data };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete after[key];
    else after[key] = value;
  }
  return { content: joinNote(head, split.body, split.eol), body: split.body, data: after };
}

/** A note read from `content`, with its properties beside it where its block can be read. */
export function withPropertiesOf(content: string, note: NoteWithBody): NoteWithBody {
  const properties = note.record.broken ? undefined : propertiesOfContent(content);
  return properties === undefined ? note : { ...note, properties };
}

export interface PropertiesRequest {
  properties: PropertyUpdates;
  /** Sees the tags the note would have after the edit; throws to refuse it before anything is written. */
  guard?: (tagsAfter: string[]) => void;
  admit?: Admit;
}

/**
 * The vault's edit for `set_properties` (a Change: content in, new content
 * or undefined for nothing to write): withProperties at `now`, then the
 * request's guard on the tags the note would have.
 */
export function propertiesChange(request: PropertiesRequest, now: Date): (content: string) => string | undefined {
  return (content) => guardedContent(withProperties(content, request.properties, now), request.guard);
}
