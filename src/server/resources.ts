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
import { foldName } from '../files/names.js';
import { TopK } from '../index/top-k.js';
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
/** The template's URI, as `completion/complete` names it. */
export const NOTE_TEMPLATE = `${SCHEME}{note_id}`;
/** Notes appearing or vanishing within this long are told as one `list_changed`. */
export const LIST_CHANGED_DEBOUNCE_MS = 500;
const MAX_COMPLETIONS = 100;

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
  // The list: once the client has listed, a note that comes into its view or
  // leaves it is told as `list_changed`, a burst of them as one. `listed` is
  // the ids it may see, kept only for a client that listed at all.
  let listed: Set<string> | undefined;
  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    await ready();
    const offset = offsetOf(request.params?.cursor);
    // Only the notes up to the page are kept in order, as list_notes does: sorting
    // every note took the first page 227 ms at 100,000 notes (median over stdio).
    const kept = new TopK<{ id: string; score: number; note: VisibleNote }>(offset + RESOURCE_PAGE_SIZE);
    let total = 0;
    const firstList = listed === undefined;
    if (firstList) listed = new Set();
    for (const note of view.allNotes()) {
      total++;
      if (firstList) listed?.add(note.record.id);
      if (kept.admits(note.record.updatedMs, note.record.id)) kept.push({ id: note.record.id, score: note.record.updatedMs, note });
    }
    const page = kept
      .sorted()
      .slice(offset)
      .map((item) => describe(item.note));
    const next = offset + RESOURCE_PAGE_SIZE;
    return next < total ? { resources: page, nextCursor: String(next) } : { resources: page };
  });
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
      if (error instanceof DexiError) throw new McpError(-32002, error.toolSentence, { uri });
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
  let listTimer: NodeJS.Timeout | undefined;
  const listChanged = (): void => {
    listTimer ??= setTimeout(() => {
      listTimer = undefined;
      server.sendResourceListChanged().catch(() => undefined);
    }, LIST_CHANGED_DEBOUNCE_MS);
  };
  const onNote = (record: NoteRecord): void => {
    const visible = listed !== undefined || followed.has(record.id) ? view.find(record.id) !== undefined : false;
    if (listed !== undefined && visible !== listed.has(record.id)) {
      if (visible) listed.add(record.id);
      else listed.delete(record.id);
      listChanged();
    }
    if (!followed.has(record.id)) return;
    if (!visible) followed.delete(record.id);
    tell(record.id);
  };
  const onRemoved = (record: NoteRecord): void => {
    if (listed?.delete(record.id)) listChanged();
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
    if (listTimer) clearTimeout(listTimer);
    listed = undefined;
  };
}

/**
 * `completion/complete` for the template's note_id: the ids of the visible
 * notes whose title starts with what was typed (folded for case and
 * accents), then those with a word of the title starting so, newest first
 * within each; an id typed so far completes too. The values are ids, as the
 * template takes them. Pure but for the view.
 */
export function completeNoteId(view: VaultView, typed: string): { values: string[]; total: number; hasMore: boolean } {
  const prefix = typed.trim();
  const wanted = foldName(prefix);
  // Sorted only as far as a page needs: an empty prefix completes to every note of the vault.
  const starts = new TopK<{ id: string; score: number }>(MAX_COMPLETIONS);
  const words = new TopK<{ id: string; score: number }>(MAX_COMPLETIONS);
  let total = 0;
  for (const { record } of view.allNotes()) {
    const title = foldName(record.title);
    let into: TopK<{ id: string; score: number }> | undefined;
    if (wanted === '' || title.startsWith(wanted) || record.id.startsWith(prefix)) into = starts;
    else if (title.includes(` ${wanted}`) || title.includes(`-${wanted}`)) into = words;
    if (!into) continue;
    total++;
    if (into.admits(record.updatedMs, record.id)) into.push({ id: record.id, score: record.updatedMs });
  }
  const values = [...starts.sorted(), ...words.sorted()].slice(0, MAX_COMPLETIONS).map((item) => item.id);
  return { values, total, hasMore: total > values.length };
}
