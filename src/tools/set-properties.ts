import { z } from 'zod';
import { hasScope } from '../access/policy.js';
import { formatIso } from '../format/time.js';
import { toFullNote } from './items.js';
import { BACKLINK_LIMIT, noteId, updatedNote } from './schemas.js';
import { defineTool } from './tool.js';

const VALUE_TYPES = 'text, a number, true or false, a list of texts or numbers, or null to remove the property';

const propertyValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()])), z.null()], {
  error: `each property must be ${VALUE_TYPES}`,
});

/** The `properties` parameter of set_properties and create_note: a key to a value (null removes the key); bounds are checked by checkProperties. */
export function propertiesParam(description: string) {
  return z
    .record(z.string(), propertyValue, { error: (issue) => (issue.input === undefined ? 'properties is required' : 'properties must be an object of property names and values') })
    .describe(description);
}

export const setPropertiesTool = defineTool({
  name: 'set_properties',
  title: 'Set note properties',
  description:
    'Set, change or remove properties (the frontmatter keys Obsidian shows as Properties) of a note, and nothing else: ' +
    'use it to tick a property (done: true), set a status, a due date, a rating, tags or aliases, rather than rewriting the note with update_note in replace mode. ' +
    `properties maps each name to ${VALUE_TYPES}, e.g. {"status": "done", "rating": 4, "tags": ["project", "q3"], "draft": null}. ` +
    'Properties not named stay exactly as written, with their comments; new ones go at the end. Setting title changes the title the note is listed under (not its file name); ' +
    'the note\'s own updated (or modified) property, if it has one, is set to now unless the call sets it. ' +
    'Returns the note in full, with its properties (a connection without read access gets only the id and the new updated time). ' +
    'Errors: "Note not found"; a plain refusal for id, review (grade_review keeps it) and attachment, for values over the limits, for a teammate\'s shared note or a note whose frontmatter the server cannot parse, ' +
    'and for a change that would remove the tag this connection is limited to.',
  scope: 'notes:write',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({
    note_id: noteId('The id of one of your own notes.'),
    properties: propertiesParam(`Property names and their new values: ${VALUE_TYPES}. Up to 50 at once.`),
  }),
  output: updatedNote,
  async handler(args, { view }) {
    await view.assertReady();
    const note = await view.setProperties(args.note_id, args.properties, 'set_properties');
    // A write-only connection learns nothing of the note it did not send.
    if (!hasScope(view.policy, 'notes:read')) return { id: note.record.id, updated: formatIso(new Date(note.record.updatedMs)) };
    return toFullNote(note.record, note.body, undefined, view.connections({ record: note.record }, BACKLINK_LIMIT), note.properties);
  },
});
