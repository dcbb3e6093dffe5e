import { z } from 'zod';
import { InvalidInputError } from '../vault/errors.js';
import type { BodyOperation } from '../vault/body-edits.js';
import { toFullNote } from './note-items.js';
import { BACKLINK_LIMIT, choice, fullNote, noteId, text } from './schemas.js';
import { defineTool } from './tool.js';

/** Bounds of the texts: an old text is something copied from a note; written text may be up to a large note's worth (the note's own size limit still applies). */
const OLD_TEXT_MAX = 100_000;
const NEW_TEXT_MAX = 1_000_000;

const OPERATIONS = ['replace_text', 'insert', 'replace_section'] as const;
type Operation = (typeof OPERATIONS)[number];

/** Which parameters each operation takes; any other is refused, so that a misplaced one is not silently ignored. */
const PARAMETERS: Record<Operation, { required: string[]; optional: string[] }> = {
  replace_text: { required: ['old_text', 'new_text'], optional: ['all'] },
  insert: { required: ['text'], optional: ['position', 'heading'] },
  replace_section: { required: ['heading', 'text'], optional: [] },
};

const input = z.object({
  note_id: noteId('The id of one of your own notes.'),
  operation: choice('operation', OPERATIONS, 'replace_text: change an exact text; insert: add lines; replace_section: rewrite one section (or ^block).'),
  old_text: text('old_text', { min: 1, max: OLD_TEXT_MAX, description: 'replace_text: the exact text to find in the body (a line break stands for the note\'s own).' }).optional(),
  new_text: text('new_text', { max: NEW_TEXT_MAX, description: 'replace_text: the text to put in its place; "" deletes it.' }).optional(),
  all: z.boolean({ error: 'all must be true or false' }).optional().describe('replace_text: replace every occurrence (default false: old_text must occur once).'),
  text: text('text', { max: NEW_TEXT_MAX, description: 'insert: the lines to add; replace_section: the section\'s new content (its heading line stays).' }).optional(),
  position: choice('position', ['start', 'end'] as const, 'insert: at the start or the end (default) of the body, or of the section or block named by heading.').optional(),
  heading: text('heading', {
    min: 1,
    max: 1000,
    description: 'A heading\'s text without the #s, any case ("Tasks"); "Parent#Child" for a nested one; "^id" for the block ending with that block id.',
  }).optional(),
});

type EditArgs = z.infer<typeof input>;

/**
 * The operation the arguments ask for, or a refusal naming the parameter
 * that is missing or does not belong: decided on the arguments alone, so the
 * answer is the same whatever the note id.
 */
function operationOf(args: EditArgs): BodyOperation {
  const allowed = PARAMETERS[args.operation];
  for (const name of ['old_text', 'new_text', 'all', 'text', 'position', 'heading'] as const) {
    const given = args[name] !== undefined;
    if (given && !allowed.required.includes(name) && !allowed.optional.includes(name)) {
      throw new InvalidInputError(`${name} does not go with operation ${args.operation}; it takes ${[...allowed.required, ...allowed.optional].join(', ')}.`);
    }
    if (!given && allowed.required.includes(name)) {
      throw new InvalidInputError(`operation ${args.operation} needs ${name}${name === 'new_text' ? ' ("" to delete the text)' : ''}.`);
    }
  }
  if (args.operation === 'replace_text') return { operation: 'replace_text', oldText: args.old_text ?? '', newText: args.new_text ?? '', all: args.all ?? false };
  if (args.operation === 'insert') return { operation: 'insert', text: args.text ?? '', position: args.position ?? 'end', heading: args.heading };
  return { operation: 'replace_section', heading: args.heading ?? '', text: args.text ?? '' };
}

export const editNoteTool = defineTool({
  name: 'edit_note',
  title: 'Edit part of a note',
  description:
    'Change part of a note\'s body and leave every other byte as it is: prefer it to update_note in replace mode for small changes. ' +
    'operation "replace_text" fixes a word or a sentence: old_text must occur exactly once in the body (or set all to replace every occurrence), new_text replaces it ("" deletes). ' +
    'operation "insert" adds text as lines of its own at the start or end (position) of the body, or of a section when heading names one (add a bullet under a heading: a list item joins the list there), or before/after a block when heading is "^id". ' +
    'operation "replace_section" rewrites the content under a heading (the heading line stays; subsections are part of it), or the block named by "^id". ' +
    'heading is the heading\'s text without the #s, any case; use "Parent#Child" when the name occurs twice. The note\'s own `updated` key is stamped; frontmatter is otherwise kept. ' +
    'Returns the note in full, as get_note does. Needs notes:read as well as notes:write. ' +
    'Errors (nothing is written): "Note not found"; "Text not found in the note"; how many times old_text occurs when it occurs more than once; ' +
    '"Heading not found: X"; how many headings match X; a plain refusal for a teammate\'s shared note, a note whose frontmatter the server cannot parse, or an edit that would remove the tag this connection is limited to.',
  scope: 'notes:write',
  // Security: whether a text or a heading is in a note, and how often, is what the note holds. A connection that may not read
  // could learn a note's text call by call from these answers (or from whether a write happened): it is not offered the tool.
  alsoNeeds: 'notes:read',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input,
  output: fullNote,
  async handler(args, { view }) {
    const operation = operationOf(args);
    await view.assertReady();
    const note = await view.editBody(args.note_id, operation, 'edit_note');
    return toFullNote(note.record, note.body, undefined, view.connections({ record: note.record }, BACKLINK_LIMIT), note.properties);
  },
});
