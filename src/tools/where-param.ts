import { z } from 'zod';
import { CONDITION_OPS, CONDITION_VALUE_LENGTH } from '../format/property-values.js';
import { MAX_CONDITIONS } from '../format/property-query.js';

/**
 * list_notes' `where` parameter: the shape of its conditions. What a
 * condition means, and the refusals of a value given or left out where it
 * must not be, are property-values.ts's and property-query.ts's.
 */
const condition = z
  .object({
    property: z
      .string({ error: 'each where condition needs "property", the name of a property such as "status" (list_properties lists them)' })
      .min(1, { error: 'a where condition\'s "property" must not be empty' })
      .max(200, { error: 'a where condition\'s "property" may be at most 200 characters' })
      .describe('A property name as list_properties gives it, or "tags" for the note\'s tags (frontmatter and body).'),
    op: z
      .enum(CONDITION_OPS, { error: `each where condition needs "op", one of ${CONDITION_OPS.join(', ')}` })
      .describe('=, !=, <, <=, >, >=, contains, exists or missing.'),
    value: z
      .union([z.string().max(CONDITION_VALUE_LENGTH), z.number(), z.boolean()], {
        error: `a where condition's "value" must be text of at most ${CONDITION_VALUE_LENGTH} characters, a number, or true or false`,
      })
      .optional()
      .describe('What to compare with: text, a number, true or false, or a date (2026-12-01, or 2026-12-01T09:00+02:00). Leave it out for exists and missing.'),
  })
  .strict();

export const whereParam = z
  .array(condition, { error: 'where must be a list of conditions such as {"property": "status", "op": "=", "value": "active"}' })
  .min(1, { error: 'where must hold at least one condition; leave it out to list every note' })
  .max(MAX_CONDITIONS, { error: `where may hold at most ${MAX_CONDITIONS} conditions` })
  .describe(
    `Up to ${MAX_CONDITIONS} conditions on properties, all of which must hold, e.g. [{"property": "status", "op": "=", "value": "active"}, {"property": "due", "op": "<", "value": "2026-12-01"}]. ` +
      'Dates compare as moments (a date alone is midnight, server time zone), numbers as numbers, text ignoring case; on a list, = and contains hold when an element matches, and != when no element equals (so also when the note lacks the property).',
  );
