import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import type { VisibleNote } from '../access/view.js';
import type { ToolContext } from '../tools/tool.js';
import { DexiError } from '../vault/errors.js';
import type { NoteRecord } from '../vault/note.js';
import { formatIso } from '../vault/time.js';
import { viewReadyForRequest } from './errors.js';

/**
 * Notes as MCP resources, so that a client can let the person attach a note
 * to a conversation. They go through the connection's view exactly as the
 * tools do: a note outside the boundary is not listed and cannot be read,
 * and its id reads as "Note not found", like an id that never existed.
 */

const SCHEME = 'dexi-note://';
/** Resources a `resources/list` page holds. */
export const RESOURCE_PAGE_SIZE = 100;
const MARKDOWN = 'text/markdown';

export function noteUri(id: string): string {
  return `${SCHEME}${encodeURIComponent(id)}`;
}

/** The note id a resource URI names, or undefined when it names none. Pure. */
export function noteIdOfUri(uri: string): string | undefined {
  if (!uri.startsWith(SCHEME)) return undefined;
  const rest = uri.slice(SCHEME.length);
  if (rest === '' || rest.includes('/') || rest.includes('?') || rest.includes('#')) return undefined;
  try {
    return decodeURIComponent(rest);
  } catch {
    return undefined;
  }
}

/** Newest first by `updated`, then path and id, so pages neither skip nor repeat a note while nothing changes. */
function newestFirst(a: VisibleNote, b: VisibleNote): number {
  const x = a.record;
  const y = b.record;
  if (x.updatedMs !== y.updatedMs) return y.updatedMs - x.updatedMs;
  if (x.path !== y.path) return x.path < y.path ? -1 : 1;
  return x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
}

function describe(note: VisibleNote): Resource {
  const { record } = note;
  const resource: Resource = {
    uri: noteUri(record.id),
    // A teammate's note shows no folder anywhere, so not its path either.
    name: note.owner === undefined ? record.path : record.title,
    title: record.title,
    mimeType: MARKDOWN,
    size: record.size,
    annotations: { lastModified: formatIso(new Date(record.updatedMs)) },
  };
  if (record.snippet !== '') resource.description = record.snippet;
  return resource;
}

/** A cursor is the offset of the next page, as this server wrote it. */
function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  if (!/^\d{1,9}$/.test(cursor)) throw new McpError(ErrorCode.InvalidParams, 'This cursor was not given by this server; list the resources again from the first page.');
  return Number(cursor);
}

/**
 * Answer `resources/list`, `resources/templates/list`, `resources/read` and
 * `resources/subscribe` for this connection. Returns what stops it listening
 * to the vault, for when the connection closes.
 */
export function serveNotesAsResources(server: Server, context: ToolContext): () => void {
  const { view } = context;
  const ready = (): Promise<void> => viewReadyForRequest(view);
  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    await ready();
    const offset = offsetOf(request.params?.cursor);
    // Sorted afresh for each page: 100,000 notes take a few tens of milliseconds, and a kept order would go stale with every edit.
    const notes = [...view.allNotes()].sort(newestFirst);
    const page = notes.slice(offset, offset + RESOURCE_PAGE_SIZE).map(describe);
    const next = offset + RESOURCE_PAGE_SIZE;
    return next < notes.length ? { resources: page, nextCursor: String(next) } : { resources: page };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: `${SCHEME}{note_id}`,
        name: 'note',
        title: 'A note, by id',
        description: 'A note of the vault as Markdown, by the id that list_notes, search_notes and the other tools give.',
        mimeType: MARKDOWN,
      },
    ],
  }));
  const idOf = (uri: string): string => {
    const id = noteIdOfUri(uri);
    if (id === undefined) throw new McpError(ErrorCode.InvalidParams, `"${uri}" is not a note of this server; note resources look like ${SCHEME}NOTE_ID.`);
    return id;
  };
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const id = idOf(uri);
    await ready();
    try {
      const note = await view.read(id);
      const meta: Record<string, unknown> = { title: note.record.title, updated: formatIso(new Date(note.record.updatedMs)) };
      if (note.owner === undefined) meta.path = note.record.path;
      else meta.owner = note.owner;
      return { contents: [{ uri, mimeType: MARKDOWN, text: note.body, _meta: meta }] };
    } catch (error) {
      // -32002 is the specification's "resource not found".
      if (error instanceof DexiError) throw new McpError(-32002, error.message, { uri });
      throw error;
    }
  });

  // Subscriptions: the ids of the notes this client follows. Only notes it
  // may see can be followed, and a change is told only of those; a note that
  // leaves its view (deleted, moved or retagged out of the boundary) is told
  // once, as changed, and then no longer followed.
  const followed = new Set<string>();
  const tell = (id: string): void => {
    server.sendResourceUpdated({ uri: noteUri(id) }).catch(() => undefined);
  };
  const onNote = (record: NoteRecord): void => {
    if (!followed.has(record.id)) return;
    if (view.find(record.id) === undefined) followed.delete(record.id);
    tell(record.id);
  };
  const onRemoved = (record: NoteRecord): void => {
    if (!followed.delete(record.id)) return;
    tell(record.id);
  };
  const vaults = view.searchableVaults();
  for (const vault of vaults) {
    vault.on('note', onNote);
    vault.on('removed', onRemoved);
  }
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const id = idOf(request.params.uri);
    await ready();
    if (view.find(id) === undefined) throw new McpError(-32002, 'Note not found', { uri: request.params.uri });
    followed.add(id);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    followed.delete(idOf(request.params.uri));
    return {};
  });
  return () => {
    for (const vault of vaults) {
      vault.off('note', onNote);
      vault.off('removed', onRemoved);
    }
    followed.clear();
  };
}
