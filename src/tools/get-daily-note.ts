import type { Moment } from 'moment';
import { z } from 'zod';
import { hasScope } from '../access/policy.js';
import type { VaultView } from '../access/view.js';
import { dailyDate, dailyNotePlace, type DailyNotePlace } from '../format/daily-notes.js';
import { fillDailyTemplate } from '../format/daily-template.js';
import { fileNameProblem, folderNameProblem, numberedName, printable } from '../storage/filenames.js';
import { folderPathProblem } from '../storage/paths.js';
import { DexiError, InvalidInputError } from '../vault/errors.js';
import type { NoteRecord } from '../vault/note.js';
import { toFullNote } from './note-items.js';
import { BACKLINK_LIMIT, fullNote, text } from './schemas.js';
import { defineTool } from './tool.js';

/**
 * get_daily_note: the note Obsidian's Daily notes open for a day, found where
 * Obsidian's settings put it (src/format/daily-notes.ts) and, when asked,
 * made there from the daily template as Obsidian fills it
 * (src/format/daily-template.ts), through the view's create: recorded and
 * undoable like create_note's.
 */

/** Why no note can be at `place` (settings that name a hidden folder, `..`, a name with `:`), or undefined. */
function placeProblem(place: DailyNotePlace): string | undefined {
  const folder = place.folder === null ? undefined : (folderPathProblem(place.folder) ?? folderNameProblem(place.folder));
  return folder ?? fileNameProblem(place.name);
}

/** How many numbered names (` 2`, ` 3`, …) a tag-bounded connection's daily note is looked for under. */
const NUMBERED_LOOKUPS = 5;

/**
 * The daily note at `place` this connection sees. Under a tag boundary, where
 * the file may be held by a note it cannot see, also the note it made beside
 * it (createDaily): numbered, with the day's name as its title.
 */
async function findDaily(view: VaultView, place: DailyNotePlace): Promise<NoteRecord | undefined> {
  if (placeProblem(place) !== undefined) return undefined;
  const found = await view.daily.ownNoteAt(place.path);
  if (found !== undefined || view.policy.tag === undefined) return found;
  const folder = place.folder === null ? '' : `${place.folder}/`;
  for (let attempt = 2; attempt <= NUMBERED_LOOKUPS; attempt++) {
    const numbered = await view.daily.ownNoteAt(`${folder}${numberedName(place.name, attempt)}.md`);
    if (numbered?.title === place.name) return numbered;
  }
  return undefined;
}

/** A new daily note at `place`, from the template the settings name (none, or one this connection cannot see: empty, as Obsidian makes it). */
async function createDaily(view: VaultView, place: DailyNotePlace, fill: { date: Moment; format: string; template: string; now: Date; noteCap: number | null }) {
  const problem = placeProblem(place);
  if (problem !== undefined) {
    throw new InvalidInputError(`The daily notes settings put this note at "${printable(place.path)}", where no note can be made (${problem}); change the format or folder in Obsidian's Daily notes settings.`);
  }
  const template = fill.template === '' ? '' : ((await view.daily.templateText(fill.template)) ?? '');
  const body = fillDailyTemplate(template, { date: fill.date, format: fill.format, title: place.name, now: fill.now });
  // Security: under a tag boundary the file may be held by a daily note this
  // connection cannot see; the new note is then numbered (` 2`) with its title
  // in its frontmatter. Writing the title always makes both answers alike.
  const properties = view.policy.tag === undefined ? undefined : { title: place.name };
  // "unfiled" is create_note's name for the top level; a folder boundary refuses a folder outside it as create_note does.
  return view.create({ title: place.name, text: body, noteCap: fill.noteCap, folder: place.folder ?? 'unfiled', properties, ownFrontmatter: true }, 'get_daily_note');
}

export const getDailyNoteTool = defineTool({
  name: 'get_daily_note',
  title: 'Open a daily note',
  description:
    'Get the daily note (journal page) of a day, the one Obsidian\'s Daily notes open: found where the vault\'s Daily notes settings (or the Periodic Notes plugin\'s) put it, by its folder and date format, even when the person made it by hand. ' +
    'Use it for "today\'s note", "what did I write yesterday", or to add to the journal (then update_note in append mode or edit_note with its id). ' +
    'With create: true, a missing note is made where Obsidian would make it, from the daily template with {{date}}, {{time}}, {{title}} and {{date:FORMAT}} filled in as Obsidian fills them (creating needs write access). ' +
    'Returns the note in full, as get_note does. Errors: "No daily note for YYYY-MM-DD" when it does not exist and create is not true; "Folder not found: X" when the daily notes folder is outside what this connection may use.',
  scope: 'notes:read',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.object({
    date: text('date', { min: 1, max: 20, description: 'The day: YYYY-MM-DD, or today (the default), yesterday or tomorrow, in the server\'s time zone.' }).optional().default('today'),
    create: z.boolean({ error: 'create must be true or false' }).optional().default(false).describe('Make the note when it does not exist yet (default false).'),
  }),
  output: fullNote,
  async handler(args, { view, clock, settings }) {
    const now = clock.now();
    const date = dailyDate(args.date, now);
    if (date === undefined) throw new InvalidInputError('date must be a day written YYYY-MM-DD (e.g. 2026-12-02), or today, yesterday or tomorrow.');
    await view.assertReady();
    const daily = await view.daily.settings();
    const place = dailyNotePlace(daily, date);
    const found = await findDaily(view, place);
    if (found !== undefined) {
      const note = await view.read(found.id);
      return toFullNote(note.record, note.body, undefined, view.connections(note, BACKLINK_LIMIT), note.properties);
    }
    const day = date.format('YYYY-MM-DD');
    if (!args.create) throw new DexiError(`No daily note for ${day}; call get_daily_note again with create: true to make it.`);
    if (!hasScope(view.policy, 'notes:write')) throw new DexiError(`No daily note for ${day}, and this connection may only read, so it cannot make one.`);
    const note = await createDaily(view, place, { date, format: daily.format, template: daily.template, now, noteCap: settings.noteCap });
    return toFullNote(note.record, note.body, undefined, view.connections({ record: note.record }, BACKLINK_LIMIT), note.properties);
  },
});
