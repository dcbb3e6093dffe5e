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
import type { VaultView, VisibleNote } from '../access/view.js';
import { TopK } from '../index/top-k.js';
import type { ToolContext } from '../tools/tool.js';
import { DexiError } from '../vault/errors.js';
import { formatIso } from '../format/time.js';
import { ResourceChanges } from './resource-changes.js';
import { noteNamed } from './note-names.js';
import { readyForRequest } from './progress.js';

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
/** The template's URI, as `completion/complete` names it. */
export const NOTE_TEMPLATE = `${SCHEME}{note_id}`;

export function noteUri(id: string): string {
  return `${SCHEME}${encodeURIComponent(id)}`;
}

/** The note id a resource URI names, or undefined when it names none. Pure. */
export function noteIdOfUri(uri: string): string | undefined {
  if (!uri.startsWith(SCHEME)) return undefined;
  const rest = uri.slice(SCHEME.length);
  // A note may be named by its path (note-names.ts), whose folders a client may leave unencoded.
  if (rest === '' || rest.includes('?') || rest.includes('#')) return undefined;
  try {
    return decodeURIComponent(rest);
  } catch {
    return undefined;
  }
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
 * to the notes' changes, for when the connection closes.
 */
export function serveNotesAsResources(server: Server, context: ToolContext): () => void {
  const { view } = context;
  const changes = new ResourceChanges(view, {
    updated: (id) => void server.sendResourceUpdated({ uri: noteUri(id) }).catch(() => undefined),
    listChanged: () => void server.sendResourceListChanged().catch(() => undefined),
  });
  serveList(server, view, changes);
  serveTemplates(server);
  serveRead(server, view);
  serveSubscriptions(server, view, changes);
  return () => changes.stop();
}

/** The note id a request's URI names, or an error saying what a note's URI looks like. */
function idOf(uri: string): string {
  const id = noteIdOfUri(uri);
  if (id === undefined) throw new McpError(ErrorCode.InvalidParams, `"${uri}" is not a note of this server; note resources look like ${SCHEME}NOTE_ID.`);
  return id;
}

/** `resources/list`: every visible note, newest first, a page at a time; the first list starts the client's `list_changed`. */
function serveList(server: Server, view: VaultView, changes: ResourceChanges): void {
  server.setRequestHandler(ListResourcesRequestSchema, async (request, extra) => {
    await readyForRequest(view, request.params, extra.sendNotification);
    const offset = offsetOf(request.params?.cursor);
    // Only the notes up to the page are kept in order, as list_notes does: sorting
    // every note took the first page 227 ms at 100,000 notes (median over stdio).
    const kept = new TopK<{ id: string; score: number; note: VisibleNote }>(offset + RESOURCE_PAGE_SIZE);
    let total = 0;
    const listed = changes.listing();
    for (const note of view.allNotes()) {
      total++;
      listed?.(note.record.id);
      if (kept.admits(note.record.updatedMs, note.record.id)) kept.push({ id: note.record.id, score: note.record.updatedMs, note });
    }
    const page = kept
      .sorted()
      .slice(offset)
      .map((item) => describe(item.note));
    const next = offset + RESOURCE_PAGE_SIZE;
    return next < total ? { resources: page, nextCursor: String(next) } : { resources: page };
  });
}

function serveTemplates(server: Server): void {
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: NOTE_TEMPLATE,
        name: 'note',
        title: 'A note, by id',
        description: 'A note of the vault as Markdown, by the id that list_notes, search_notes and the other tools give; note_id completes from the titles of the notes.',
        mimeType: MARKDOWN,
      },
    ],
  }));
}

/** `resources/read`: a visible note's Markdown body; any other id is the specification's "resource not found". */
function serveRead(server: Server, view: VaultView): void {
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { uri } = request.params;
    const name = idOf(uri);
    await readyForRequest(view, request.params, extra.sendNotification);
    const named = noteNamed(view, name);
    // -32002 is the specification's "resource not found".
    if ('refused' in named) throw new McpError(-32002, named.refused, { uri });
    try {
      const note = await view.read(named.id);
      const meta: Record<string, unknown> = { title: note.record.title, updated: formatIso(new Date(note.record.updatedMs)) };
      if (note.owner === undefined) meta.path = note.record.path;
      else meta.owner = note.owner;
      return { contents: [{ uri, mimeType: MARKDOWN, text: note.body, _meta: meta }] };
    } catch (error) {
      // -32002 is the specification's "resource not found".
      if (error instanceof DexiError) throw new McpError(-32002, error.toolSentence, { uri });
      throw error;
    }
  });
}

/** `resources/subscribe` and `unsubscribe`: only a note the client may see can be followed. */
function serveSubscriptions(server: Server, view: VaultView, changes: ResourceChanges): void {
  server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
    const name = idOf(request.params.uri);
    await readyForRequest(view, request.params, extra.sendNotification);
    const named = noteNamed(view, name);
    if ('refused' in named) throw new McpError(-32002, named.refused, { uri: request.params.uri });
    // Changes are told by the note's id URI (and unsubscribe names it so): a name would follow one URI and hear of another.
    if (named.id !== name) throw new McpError(ErrorCode.InvalidParams, `Follow a note by its id: ${noteUri(named.id)}.`, { uri: request.params.uri });
    changes.follow(named.id);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    changes.unfollow(idOf(request.params.uri));
    return {};
  });
}
