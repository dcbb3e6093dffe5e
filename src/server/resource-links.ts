/**
 * The notes a tool's answer names, as `resource_link` content beside its
 * JSON, so that a client can open one as a resource (`resources/read`)
 * without the assistant copying its id. The answer's JSON is unchanged and
 * comes first. Links are given only to a client that negotiated a protocol
 * version that has them (2025-06-18 and later): an older client would find
 * a content type it does not know.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InitializeRequestSchema, type InitializeRequest, type InitializeResult, type ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import { noteUri } from './resources.js';

/** The first protocol version with `resource_link` content. */
const LINKS_SINCE = '2025-06-18';

/** Whether the client of `server` may be sent resource links: kept from its `initialize`, as the SDK keeps no negotiated version. */
export function linksAllowed(server: Server): () => boolean {
  let negotiated: string | undefined;
  // The SDK's own initialize handler answers; this only reads the version it agreed to.
  const answer = (server as unknown as { _oninitialize: (request: InitializeRequest) => Promise<InitializeResult> })._oninitialize.bind(server);
  server.setRequestHandler(InitializeRequestSchema, async (request) => {
    const result = await answer(request);
    negotiated = result.protocolVersion;
    return result;
  });
  return () => negotiated !== undefined && negotiated >= LINKS_SINCE;
}

interface Named {
  id: string;
  title: string;
}

/** The note an answer's item names: a note item's `id` and `title`, or a task's `note_id` and `note_title`. */
function namedNote(item: unknown): Named | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const { id, title, note_id: noteId, note_title: noteTitle } = item as Record<string, unknown>;
  if (typeof noteId === 'string' && typeof noteTitle === 'string') return { id: noteId, title: noteTitle };
  if (typeof id === 'string' && typeof title === 'string') return { id, title };
  return undefined;
}

/** A link for each note an answer's `items` name, each note once, in the answer's order. */
export function noteLinks(result: unknown): ResourceLink[] {
  const items = (result as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return [];
  const seen = new Set<string>();
  const links: ResourceLink[] = [];
  for (const item of items) {
    const note = namedNote(item);
    if (!note || seen.has(note.id)) continue;
    seen.add(note.id);
    links.push({ type: 'resource_link', uri: noteUri(note.id), name: note.title, mimeType: 'text/markdown' });
  }
  return links;
}
