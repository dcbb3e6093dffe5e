import { z } from 'zod';
import { PROPERTY_TYPES } from '../format/property-values.js';
import { defineTool } from './tool.js';

/** At most this many properties are listed, the most used: a vault whose notes each have keys of their own would otherwise give one answer too large to read. */
const MAX_LISTED = 500;

export const listPropertiesTool = defineTool({
  name: 'list_properties',
  title: 'List properties',
  description:
    'List the properties (frontmatter keys, as Obsidian shows them) your notes use, most used first, with how many notes have each and its types ' +
    '(text, number, checkbox, date, datetime, list). Call it before filtering list_notes with where, to learn the names and whether to compare numbers, dates or text. ' +
    'tags counts the notes with any tag. id, review and title are not listed; at most the 500 most used are. Takes no parameters. Returns {properties: [{name, count, types}]}. Errors: a plain message while the vault is still being read at start-up.',
  scope: 'notes:read',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({}),
  output: z.object({
    properties: z.array(
      z.object({
        name: z.string(),
        count: z.number().int().describe('How many notes have the property.'),
        types: z.array(z.enum(PROPERTY_TYPES)).describe('The types its values have; empty when every note leaves it empty.'),
      }),
    ),
  }),
  async handler(_args, { view }) {
    await view.assertReady();
    return { properties: view.propertyCounts().slice(0, MAX_LISTED) };
  },
});
