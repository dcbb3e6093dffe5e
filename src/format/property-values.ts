import { DexiError } from '../storage/errors.js';
import { parseIso } from './time.js';

/**
 * What a frontmatter property's value is, and how a `where` condition of
 * list_notes compares with it. Pure: the catalog keeps each note's values
 * (storedValue) and their typed elements (typedValue) in its property
 * index, so a query compares numbers and moments already made, and never
 * parses a date again.
 *
 * The rules (contract "Properties"): dates compare as moments (a date alone
 * is midnight in the server's time zone, `parseIso`; a date-time with a zone
 * is that instant), numbers as numbers, text case-insensitively; on a list a
 * condition holds when one element matches. Each element compares by its
 * own type, so one property may mix types across notes (or within a list):
 * a number only with a value that reads as a number, a date only with one
 * that reads as a date, a checkbox only with true or false, and text with the
 * value's text (for `<`, `<=`, `>`, `>=` only with text that reads as
 * neither a number nor a date, so that `priority > 2` leaves "high" out). `!=` is the exact opposite of `=`: it holds when no element
 * equals the value, so also for a note without the property.
 */

export const PROPERTY_TYPES = ['text', 'number', 'checkbox', 'date', 'datetime', 'list'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

export const CONDITION_OPS = ['=', '!=', '<', '<=', '>', '>=', 'contains', 'exists', 'missing'] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

export type PropertyScalar = string | number | boolean;
/** A property's value as a note's record keeps it: a scalar, a list of scalars, or null for one left empty (`status:`). */
export type StoredValue = PropertyScalar | PropertyScalar[] | null;

/** Bounds on what a record keeps of one note's properties, so that one hostile block stays small in memory and in the cache. */
export const STORED_LIMITS = { keys: 64, listItems: 100, textLength: 2_000 } as const;

/** A condition's text is at most this long (the tool schema says so too). */
export const CONDITION_VALUE_LENGTH = 1_000;

/** The list_notes `where` refusals: plain sentences an assistant can act on. */
export class PropertyConditionError extends DexiError {}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const NUMBER_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A YAML `Date` (a timestamp the parser tagged) as text: the date alone at UTC midnight, which is how the parser reads `2026-01-02`; else its ISO instant. */
function dateText(date: Date): string | undefined {
  if (!Number.isFinite(date.getTime())) return undefined;
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
}

function storedScalar(raw: unknown): PropertyScalar | undefined {
  if (typeof raw === 'string') return raw.length > STORED_LIMITS.textLength ? raw.slice(0, STORED_LIMITS.textLength) : raw;
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined;
  if (typeof raw === 'boolean') return raw;
  if (raw instanceof Date) return dateText(raw);
  return undefined;
}

/**
 * A frontmatter value as a record keeps it, or undefined for one that is no
 * property type (a nested mapping). Lists keep their scalar items, at most
 * STORED_LIMITS.listItems; text is cut at STORED_LIMITS.textLength.
 */
export function storedValue(raw: unknown): StoredValue | undefined {
  if (raw === null) return null;
  if (!Array.isArray(raw)) return storedScalar(raw);
  const items: PropertyScalar[] = [];
  for (const item of raw) {
    if (items.length === STORED_LIMITS.listItems) break;
    const kept = storedScalar(item);
    if (kept !== undefined) items.push(kept);
  }
  return items;
}

/** One element of a value, typed once: its kind, its text in lower case, and its number (a moment for dates, 1 or 0 for a checkbox; NaN for text). */
export interface TypedElement {
  readonly kind: Exclude<PropertyType, 'list'>;
  readonly text: string;
  readonly n: number;
}

function typedScalar(value: PropertyScalar): TypedElement {
  if (typeof value === 'number') return { kind: 'number', text: String(value), n: value };
  if (typeof value === 'boolean') return { kind: 'checkbox', text: String(value), n: value ? 1 : 0 };
  const moment = parseIso(value)?.getTime();
  if (moment !== undefined) return { kind: DATE_ONLY.test(value.trim()) ? 'date' : 'datetime', text: value.toLowerCase(), n: moment };
  return { kind: 'text', text: value.toLowerCase(), n: Number.NaN };
}

/** A value's elements, typed: one for a scalar, one each for a list's items, none for null. */
export function typedValue(value: StoredValue): readonly TypedElement[] {
  if (value === null) return [];
  if (Array.isArray(value)) return value.map(typedScalar);
  return [typedScalar(value)];
}

/** The type list_properties names for a value; undefined for null (an empty property has no type). */
export function propertyType(value: StoredValue): PropertyType | undefined {
  if (value === null) return undefined;
  if (Array.isArray(value)) return 'list';
  return typedScalar(value).kind;
}

/** A condition as list_notes takes it. */
export interface Condition {
  property: string;
  op: ConditionOp;
  value?: PropertyScalar | undefined;
}

/** A condition checked, with its value read once in every way an element may compare with it. */
export interface CompiledCondition {
  readonly property: string;
  readonly op: ConditionOp;
  readonly value: PropertyScalar | undefined;
  readonly text: string;
  readonly number: number | undefined;
  readonly moment: number | undefined;
  readonly checkbox: number | undefined;
  /** Whether text elements take an order from the value: only from text that reads as neither a number nor a date. */
  readonly ordersText: boolean;
}

function quoted(property: string): string {
  return JSON.stringify(property);
}

/** Check one condition (a value exactly where its op takes one) and read its value once; refused with a plain sentence. */
export function compileCondition(condition: Condition): CompiledCondition {
  const { property, op, value } = condition;
  if (property.trim() === '') throw new PropertyConditionError('Each where condition needs a property name; "property" must not be empty.');
  const takesValue = op !== 'exists' && op !== 'missing';
  if (!takesValue && value !== undefined) {
    throw new PropertyConditionError(`The condition on ${quoted(property)} uses "${op}", which takes no value; leave "value" out.`);
  }
  if (takesValue && value === undefined) {
    throw new PropertyConditionError(`The condition on ${quoted(property)} uses "${op}", which compares with a value; give "value" (text, a number, true or false, or a date such as 2026-12-01).`);
  }
  const text = value === undefined ? '' : String(value).toLowerCase();
  let number: number | undefined;
  let moment: number | undefined;
  let checkbox: number | undefined;
  if (typeof value === 'number') number = value;
  if (typeof value === 'boolean') checkbox = value ? 1 : 0;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (NUMBER_TEXT.test(trimmed)) number = Number(trimmed);
    moment = parseIso(trimmed)?.getTime();
    if (text.trim() === 'true' || text.trim() === 'false') checkbox = text.trim() === 'true' ? 1 : 0;
  }
  const ordersText = typeof value === 'string' && number === undefined && moment === undefined;
  return { property, op, value, text, number, moment, checkbox, ordersText };
}

/** How an element compares with a condition's value: negative, zero or positive; undefined when they cannot compare (a number with text that is no number). */
function compare(element: TypedElement, condition: CompiledCondition): number | undefined {
  if (element.kind === 'text') return element.text < condition.text ? -1 : element.text > condition.text ? 1 : 0;
  const other = element.kind === 'number' ? condition.number : element.kind === 'checkbox' ? condition.checkbox : condition.moment;
  return other === undefined ? undefined : element.n - other;
}

function elementHolds(element: TypedElement, condition: CompiledCondition, op: ConditionOp): boolean {
  if (op === 'contains' && element.kind === 'text') return element.text.includes(condition.text);
  // `priority > 2` must not hold for "high": text takes an order from text alone.
  if (element.kind === 'text' && !condition.ordersText && op !== '=' && op !== 'contains') return false;
  const order = compare(element, condition);
  if (order === undefined) return false;
  switch (op) {
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
    default:
      return order === 0;
  }
}

/**
 * Whether a note's value of the condition's property holds it: `elements`
 * as typedValue gives them, undefined when the note has no such property.
 */
export function conditionHolds(condition: CompiledCondition, elements: readonly TypedElement[] | undefined): boolean {
  if (condition.op === 'exists') return elements !== undefined;
  if (condition.op === 'missing') return elements === undefined;
  return condition.op === '!=' ? !anyHolds(elements, condition, '=') : anyHolds(elements, condition, condition.op);
}

function anyHolds(elements: readonly TypedElement[] | undefined, condition: CompiledCondition, op: ConditionOp): boolean {
  if (elements === undefined) return false;
  for (const element of elements) if (elementHolds(element, condition, op)) return true;
  return false;
}

/**
 * The keys never shown as properties (get_note's `properties`, list_properties,
 * `where`): `id` and `review` (the contract), and `title` (properties.ts says
 * why: under a boundary it would tell of a name another note holds).
 */
export const HIDDEN_PROPERTIES: ReadonlySet<string> = new Set(['id', 'review', 'title']);

/**
 * The properties a note's record keeps for `where` and list_properties: every
 * frontmatter key but the hidden ones and `tags` (a note's tags, body tags
 * too, are its record's `tags`), each as storedValue keeps it, at most
 * STORED_LIMITS.keys; undefined when none is left. `__proto__` is left out,
 * so the object is a plain one everywhere it goes (a worker's message, the
 * cache's JSON).
 */
export function recordProperties(data: Readonly<Record<string, unknown>>): Record<string, StoredValue> | undefined {
  let kept: Record<string, StoredValue> | undefined;
  let count = 0;
  for (const [key, raw] of Object.entries(data)) {
    if (HIDDEN_PROPERTIES.has(key) || key === 'tags' || key === '__proto__') continue;
    const value = storedValue(raw);
    if (value === undefined) continue;
    (kept ??= {})[key] = value;
    if (++count === STORED_LIMITS.keys) break;
  }
  return kept;
}
