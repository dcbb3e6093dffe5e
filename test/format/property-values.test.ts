import { describe, expect, it } from 'vitest';
import {
  compileCondition,
  conditionHolds,
  propertyType,
  recordProperties,
  storedValue,
  typedValue,
  type Condition,
  type ConditionOp,
  type StoredValue,
} from '../../src/format/property-values.js';

/** Whether a note whose property holds `stored` (undefined: the note lacks it) holds the condition. */
function holds(stored: StoredValue | undefined, op: ConditionOp, value?: Condition['value']): boolean {
  return conditionHolds(compileCondition({ property: 'p', op, value }), stored === undefined ? undefined : typedValue(stored));
}

describe('the type of a value', () => {
  it.each<[string, StoredValue, string | undefined]>([
    ['text', 'active', 'text'],
    ['number', 3, 'number'],
    ['a negative fraction', -0.5, 'number'],
    ['checkbox', false, 'checkbox'],
    ['a date alone', '2026-12-01', 'date'],
    ['a date with a time and a zone', '2026-12-01T09:00:00+02:00', 'datetime'],
    ['a date with a time and no zone', '2026-12-01 09:00', 'datetime'],
    ['an impossible date is text', '2026-02-30', 'text'],
    ['a number written as text stays text', '42', 'text'],
    ['a list', ['a', 1], 'list'],
    ['an empty list', [], 'list'],
    ['an empty property has no type', null, undefined],
  ])('%s', (_name, value, type) => {
    expect(propertyType(value)).toBe(type);
  });
});

describe('what a record keeps of a YAML value', () => {
  const midnightUtc = new Date(Date.UTC(2026, 0, 2));
  const instant = new Date(Date.UTC(2026, 0, 2, 9, 30));
  it.each<[string, unknown, StoredValue | undefined]>([
    ['text', 'x', 'x'],
    ['a number', 7, 7],
    ['an infinite number is no value', Infinity, undefined],
    ['a boolean', true, true],
    ['null (an empty property)', null, null],
    ['a YAML timestamp of a date alone, as the yaml package hands it (UTC midnight)', midnightUtc, '2026-01-02'],
    ['a YAML timestamp with a time', instant, '2026-01-02T09:30:00.000Z'],
    ['an invalid Date', new Date(Number.NaN), undefined],
    ['a nested mapping is no property type', { a: 1 }, undefined],
    ['a list keeps its scalars', ['a', { b: 1 }, 2, null, midnightUtc], ['a', 2, '2026-01-02']],
    ['long text is cut', 'y'.repeat(3000), 'y'.repeat(2000)],
  ])('%s', (_name, raw, kept) => {
    expect(storedValue(raw)).toEqual(kept);
  });

  it('keeps every key but id, review, title and tags, and not __proto__', () => {
    const data = JSON.parse('{"id":"x","review":{"due":"2026-01-01"},"title":"T","tags":["a"],"status":"on","n":1,"__proto__":{"polluted":true},"nested":{"a":1}}') as Record<string, unknown>;
    expect(recordProperties(data)).toEqual({ status: 'on', n: 1 });
    expect(Object.getPrototypeOf(recordProperties(data))).toBe(Object.prototype);
    expect(recordProperties({ id: 'x' })).toBeUndefined();
  });

  it('keeps at most 64 keys', () => {
    const data = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i]));
    expect(Object.keys(recordProperties(data) ?? {})).toHaveLength(64);
  });
});

describe('conditions on one value', () => {
  const localMidnight = new Date(2026, 11, 1).toISOString();
  it.each<[string, StoredValue | undefined, ConditionOp, Condition['value'], boolean]>([
    // text: case-insensitive
    ['text = ignores case', 'Active', '=', 'active', true],
    ['text = is whole', 'active', '=', 'act', false],
    ['text != ', 'done', '!=', 'active', true],
    ['text != same text', 'Active', '!=', 'ACTIVE', false],
    ['text contains', 'In Progress', 'contains', 'progress', true],
    ['text contains not', 'done', 'contains', 'prog', false],
    ['text < orders by letters', 'apple', '<', 'Banana', true],
    ['text >= ', 'beta', '>=', 'beta', true],
    ['text compared with a number compares its text', '10', '=', 10, true],
    ['text takes no order from a number', '10', '<', '9', false],
    ['text takes no order from a number value', 'high', '>=', 2, false],
    ['text takes no order from a date', 'soon', '>', '2026-01-01', false],
    ['text takes no order from a checkbox', 'yes', '>', true, false],
    ['text != a number', 'high', '!=', 2, true],
    // numbers
    ['number =', 3, '=', 3, true],
    ['number = its text', 3, '=', '3', true],
    ['number = 3.0 text', 3, '=', '3.0', true],
    ['number < ', 2, '<', 10, true],
    ['number 10 > 9 as numbers', 10, '>', '9', true],
    ['number <= equal', 5, '<=', 5, true],
    ['number > not', 5, '>', 5, false],
    ['number with text that is no number', 3, '=', 'high', false],
    ['number with text that is no number, order', 3, '<', 'high', false],
    ['number != text that is no number', 3, '!=', 'high', true],
    ['number contains is equality', 12, 'contains', 1, false],
    ['number contains equal', 12, 'contains', 12, true],
    // checkbox
    ['checkbox = true', true, '=', true, true],
    ['checkbox = "true"', true, '=', 'TRUE', true],
    ['checkbox = false', false, '=', true, false],
    ['checkbox != true', false, '!=', true, true],
    ['checkbox with other text', true, '=', 'yes', false],
    ['checkbox false < true', false, '<', true, true],
    // dates: moments, a date alone at local midnight
    ['date = same date', '2026-12-01', '=', '2026-12-01', true],
    ['date = its local midnight as an instant', '2026-12-01', '=', localMidnight, true],
    ['date < later date', '2026-11-30', '<', '2026-12-01', true],
    ['date > earlier', '2026-12-02', '>', '2026-12-01', true],
    ['date is before a time later that day', '2026-12-01', '<', '2026-12-01T10:00', true],
    ['date with text that is no date', '2026-12-01', '=', 'december', false],
    ['date != text that is no date', '2026-12-01', '!=', 'december', true],
    ['date with a number', '2026-12-01', '<', 5, false],
    ['datetime zones compare as instants', '2026-12-01T09:00:00+02:00', '=', '2026-12-01T07:00:00Z', true],
    ['datetime later instant', '2026-12-01T09:00:00+02:00', '<', '2026-12-01T08:00:00Z', true],
    ['datetime >= same', '2026-12-01T07:00Z', '>=', '2026-12-01T09:00+02:00', true],
    // lists: an element matches
    ['list = one element', ['a', 'B'], '=', 'b', true],
    ['list = none', ['a', 'b'], '=', 'c', false],
    ['list contains an element that contains the text', ['alpha', 'beta'], 'contains', 'ALP', true],
    ['list != holds when no element equals', ['a', 'b'], '!=', 'c', true],
    ['list != fails when one element equals', ['a', 'b'], '!=', 'a', false],
    ['list of numbers >', [1, 5], '>', 4, true],
    ['list mixed types compare each by its own', ['x', 7, '2026-01-01'], '<', '2026-06-01', true],
    ['list mixed, number element', ['x', 7], '=', '7', true],
    ['empty list =', [], '=', 'a', false],
    ['empty list !=', [], '!=', 'a', true],
    ['empty list exists', [], 'exists', undefined, true],
    // empty property (null)
    ['null exists', null, 'exists', undefined, true],
    ['null missing', null, 'missing', undefined, false],
    ['null =', null, '=', '', false],
    ['null !=', null, '!=', 'x', true],
    // missing property
    ['missing: exists', undefined, 'exists', undefined, false],
    ['missing: missing', undefined, 'missing', undefined, true],
    ['missing: =', undefined, '=', 'x', false],
    ['missing: != holds (the opposite of =)', undefined, '!=', 'x', true],
    ['missing: <', undefined, '<', 5, false],
    ['missing: contains', undefined, 'contains', 'x', false],
    ['present: missing', 'x', 'missing', undefined, false],
  ])('%s', (_name, stored, op, value, expected) => {
    expect(holds(stored, op, value)).toBe(expected);
  });
});

describe('a condition refused', () => {
  it.each<[string, Condition, string]>([
    ['a value for exists', { property: 'status', op: 'exists', value: 'x' }, 'The condition on "status" uses "exists", which takes no value; leave "value" out.'],
    ['a value for missing', { property: 'status', op: 'missing', value: false }, 'The condition on "status" uses "missing", which takes no value; leave "value" out.'],
    ['no value for =', { property: 'status', op: '=' }, 'The condition on "status" uses "=", which compares with a value; give "value" (text, a number, true or false, or a date such as 2026-12-01).'],
    ['no value for <', { property: 'due', op: '<' }, 'The condition on "due" uses "<", which compares with a value; give "value" (text, a number, true or false, or a date such as 2026-12-01).'],
    ['an empty name', { property: ' ', op: 'exists' }, 'Each where condition needs a property name; "property" must not be empty.'],
  ])('%s', (_name, condition, sentence) => {
    expect(() => compileCondition(condition)).toThrow(sentence);
  });
});
