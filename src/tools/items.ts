import type { z } from 'zod';
import type { VisibleNote } from '../access/view.js';
import type { NoteRecord } from '../vault/note.js';
import { formatIso } from '../vault/time.js';
import type { fullNote, noteItem, noteItemFields } from './schemas.js';

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

export function toFullNote(record: NoteRecord, body: string, owner?: string): z.infer<typeof fullNote> {
  const { id, title, ...rest } = baseFields(record, owner);
  return { id, title, text: body, ...rest };
}
