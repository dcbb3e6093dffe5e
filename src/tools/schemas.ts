import { z } from 'zod';
import { SOURCES } from '../vault/note.js';

/**
 * Input schemas whose every failure reads as a plain sentence naming the
 * parameter (`size must be between 1 and 50`), never a schema dump.
 */

function wholeNumber(name: string, min: number, max?: number) {
  const range = max === undefined ? `${name} must be ${min} or more` : `${name} must be between ${min} and ${max}`;
  const schema = z
    .number({ error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be a whole number`) })
    .int({ error: `${name} must be a whole number` })
    .min(min, range);
  return max === undefined ? schema : schema.max(max, range);
}

export function intParam(name: string, min: number, max: number | undefined, defaultValue: number, description: string) {
  return wholeNumber(name, min, max).optional().default(defaultValue).describe(description);
}

export function requiredInt(name: string, min: number, max: number | undefined, description: string) {
  return wholeNumber(name, min, max).describe(description);
}

export function text(name: string, options: { min?: number; max?: number; description: string }) {
  const { min = 0, max } = options;
  const range =
    max === undefined ? `${name} must not be empty` : min > 0 ? `${name} must be ${min} to ${max} characters` : `${name} must be at most ${max} characters`;
  let schema = z.string({ error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be text`) });
  if (min > 0) schema = schema.min(min, range);
  if (max !== undefined) schema = schema.max(max, range);
  return schema.describe(options.description);
}

export function choice<const T extends readonly [string, ...string[]]>(name: string, values: T, description: string) {
  return z.enum(values, { error: `${name} must be one of: ${values.join(', ')}` }).describe(description);
}

export function noteId(description = 'The note\'s id, as returned by search and list results.') {
  return text('note_id', { min: 1, max: 200, description });
}

export const timestamp = z.string().describe('ISO 8601 time, e.g. 2026-07-14T09:12:00+00:00');

/** The shared note item of list and search results (contract: "The note item"). */
export const noteItemFields = {
  id: z.string(),
  title: z.string(),
  tags: z.array(z.string()).describe('Hashtags (#topic) and mentions (@name), lower case, in order of first appearance.'),
  source: z.enum(SOURCES),
  source_url: z.string().optional(),
  created: timestamp,
  updated: timestamp,
  folder: z.string().optional().describe('The folder holding the note; absent for unfiled notes and teammates\' notes.'),
  shared: z.literal(true).optional().describe('Present on a teammate\'s shared note, which is read-only.'),
  owner: z.string().optional().describe('Whose shared note this is.'),
};

export const noteItem = z.object({
  ...noteItemFields,
  snippet: z.string().describe('The first 300 characters of the body as plain text, … appended when cut.'),
  similarity: z.number().min(0).max(1).optional().describe('0–1, only from semantic_search and find_similar.'),
  properties: z.record(z.string(), z.unknown()).optional().describe('Only from list_notes with where: the properties its conditions name that the note has, as written.'),
});

const noteRef = z.object({ id: z.string(), title: z.string() });

/** How many backlinks a full note lists; `total` says how many there are. */
export const BACKLINK_LIMIT = 50;

export const fullNote = z.object({
  ...noteItemFields,
  text: z
    .string()
    .describe('The Markdown body without the frontmatter: whole up to 50,000 characters, else the lines that lines names (see truncated); with heading, from_line or max_lines, the lines asked for.'),
  properties: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('The frontmatter keys (Obsidian\'s Properties) but id, review and title (the note\'s title is above), with their values as written (dates as text); absent when the frontmatter is not valid YAML.'),
  links: z
    .object({
      notes: z.array(noteRef).describe('The notes this one links to ([[wikilinks]], embeds, Markdown links to notes), each once, in order of first appearance.'),
      unresolved: z.array(z.string()).describe('Links naming a note that does not exist, as written (e.g. "Folder/Name").'),
    })
    .optional()
    .describe('What the note links to; present when this connection may read notes.'),
  backlinks: z
    .object({
      notes: z.array(noteRef).describe(`The notes that link here, most recently updated first, at most ${BACKLINK_LIMIT}.`),
      total: z.number().int().describe('How many notes link here in all.'),
    })
    .optional()
    .describe('The notes that link to this one ("what links here"); present when this connection may read notes.'),
  lines: z
    .object({
      from: z.number().int().describe('The first body line text holds, counting from 1 (the first line after the frontmatter); 0 when the body is empty.'),
      to: z.number().int().describe('The last body line text holds; 0 when the body is empty.'),
      total: z.number().int().describe('How many lines the body has.'),
    })
    .describe('Which lines of the body text holds.'),
  truncated: z
    .literal(true)
    .optional()
    .describe('Present when the lines asked for (or the whole body) did not fit in 50,000 characters: text holds the whole lines that fit (a single longer line comes cut); read on with from_line set to lines.to + 1.'),
  outline: z
    .array(
      z.object({
        heading: z.string().describe('The heading\'s text without the #s: pass it to get_note as heading to read its section.'),
        level: z.number().int().describe('1 for #, 2 for ##, and so on.'),
        line: z.number().int().describe('The body line it is on.'),
      }),
    )
    .describe('The headings of the whole body, in order: read a long note section by section with heading.'),
  outline_truncated: z.literal(true).optional().describe('Present when the note has too many headings to list: outline then holds its shallower levels only.'),
});

/**
 * update_note's result. A connection that may read gets the full note, like
 * get_note. One without notes:read gets a receipt holding only what the call
 * itself sent or the write set: the id and the new `updated` time, the title
 * when the call set it, and the text only when the whole body is exactly the
 * text it sent (a replace); never the note's tags, source, dates or text that
 * came from the note itself.
 */
export const updatedNote = fullNote
  .partial({ title: true, tags: true, source: true, created: true, text: true, lines: true, outline: true })
  .describe('The updated note in full; without notes:read, only the id, updated, and the title and text this call sent.');

export const pagedItems = z.object({
  items: z.array(noteItem),
  total: z.number().int().describe('How many notes match in all, across every page.'),
  page: z.number().int(),
});
