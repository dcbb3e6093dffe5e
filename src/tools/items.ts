import type { z } from 'zod';
import type { NoteConnections, VisibleNote } from '../access/view.js';
import type { NoteRecord } from '../vault/note.js';
import { formatIso } from '../format/time.js';
import { readPart, type PartRequest } from './note-part.js';
import type { fullNote, noteItem, noteItemFields, updatedNote } from './schemas.js';

type ItemFields = z.infer<z.ZodObject<typeof noteItemFields>>;

function baseFields(record: NoteRecord, owner: string | undefined): ItemFields {
  const fields: ItemFields = {
    id: record.id,
    title: record.title,
    tags: [...record.tags],
    source: record.source,
    created: formatIso(new Date(record.createdMs)),
    updated: formatIso(new Date(record.updatedMs)),
  };
  if (record.sourceUrl !== undefined) fields.source_url = record.sourceUrl;
  if (owner !== undefined) {
    fields.shared = true;
    fields.owner = owner;
  } else if (record.folder !== null) {
    fields.folder = record.folder;
  }
  return fields;
}

export function toItem(note: VisibleNote, similarity?: number): z.infer<typeof noteItem> {
  const { id, title, ...rest } = baseFields(note.record, note.owner);
  // Key order as in the contract's example, for people reading the JSON.
  const item: z.infer<typeof noteItem> = { id, title, snippet: note.record.snippet, ...rest };
  if (similarity !== undefined) item.similarity = similarity;
  return item;
}

/**
 * The note in full, as get_note and the writes return it. Its text is the
 * part of the body `request` asks for (get_note's heading, from_line and
 * max_lines), else the whole body, and in every answer at most TEXT_LIMIT
 * characters of it in whole lines (note-part.ts), so that no tool answer
 * carries a body of megabytes. `properties`: the frontmatter keys shown
 * (properties.ts), where its block can be read.
 */
export function toFullNote(
  record: NoteRecord,
  body: string,
  owner?: string,
  connections?: NoteConnections,
  properties?: Record<string, unknown>,
  request: PartRequest = {},
): z.infer<typeof fullNote> {
  const { id, title, ...rest } = baseFields(record, owner);
  const part = readPart(body, request);
  // What text holds, next to it, where an assistant reading the JSON sees it; the outline, which can be long, last.
  const note: z.infer<typeof fullNote> = {
    id,
    title,
    text: part.text,
    lines: part.lines,
    ...(part.truncated ? { truncated: true as const } : {}),
    ...rest,
    ...(properties === undefined ? {} : { properties }),
    ...(connections
      ? {
          links: { notes: connections.links.map(toRef), unresolved: connections.unresolved },
          backlinks: { notes: connections.backlinks.map(toRef), total: connections.backlinkCount },
        }
      : {}),
    outline: part.outline,
    ...(part.outlineCut ? { outline_truncated: true as const } : {}),
  };
  return note;
}

function toRef(record: NoteRecord): { id: string; title: string } {
  return { id: record.id, title: record.title };
}

/**
 * What update_note tells a connection without notes:read: only what the call
 * sent or the write set (see updatedNote). The title when this call set it and
 * the note now has exactly that title; the text when the call replaced the body
 * and the body is exactly the text sent, or the text sent and the one final
 * line break the note's ending gave it (the same answer whether the note had
 * a final line break or not). A note's own line ending, applied to the text's
 * inner line breaks, would make it differ: then it is left out.
 */
/** Whether a replaced `body` is the `text` sent, as it is or with the final line break replacedBody added. */
function isSentText(body: string, text: string): boolean {
  if (body === text) return true;
  return text !== '' && !/[\r\n]$/.test(text) && body.startsWith(text) && ['\n', '\r\n', '\r'].includes(body.slice(text.length));
}

export function toWriteReceipt(record: NoteRecord, body: string, sent: { title?: string | undefined; text?: string | undefined; mode: 'replace' | 'append' }): z.infer<typeof updatedNote> {
  // Key order as in a full note: id, title, text, then the rest.
  return {
    id: record.id,
    ...(sent.title !== undefined && record.title === sent.title ? { title: sent.title } : {}),
    ...(sent.mode === 'replace' && sent.text !== undefined && isSentText(body, sent.text) ? { text: sent.text } : {}),
    updated: formatIso(new Date(record.updatedMs)),
  };
}
