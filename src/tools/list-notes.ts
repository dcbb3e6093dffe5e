import { z } from 'zod';
import { foldMatches, resolveName } from '../storage/names.js';
import { FolderNotFoundError, InvalidInputError } from '../vault/errors.js';
import { TopK } from '../index/top-k.js';
import { SOURCES, type NoteRecord } from '../vault/note.js';
import { tagFilterCandidates } from '../format/tags.js';
import { WhereQuery } from '../format/property-query.js';
import { toItem } from './note-items.js';
import { choice, intParam, pagedItems, text } from './schemas.js';
import { defineTool } from './tool.js';
import { whereParam } from './where-param.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The [start, end) window of a period, in the server's time zone. Pure. */
export function periodWindow(period: 'today' | 'yesterday' | 'week', now: Date): { start: number; end: number } {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1).getTime();
  if (period === 'today') return { start: midnight, end: tomorrow };
  if (period === 'yesterday') return { start: new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1).getTime(), end: midnight };
  return { start: now.getTime() - 7 * DAY_MS, end: now.getTime() + 1 };
}

/**
 * The folder a `folder` filter names, among the folders this connection
 * sees: the folder spelt exactly so, else the only one that differs from it
 * just in case (full Unicode case folding, `foldName`). A name that several
 * visible folders match and none spells exactly (`WORK` with `Work/` and
 * `work/` on a case-sensitive file system) is refused, naming them, rather
 * than one of them picked; a name none matches is "Folder not found". Only
 * visible folders are resolved against and named, so folders outside the
 * boundary change nothing here. Pure.
 */
export function resolveFolderFilter(name: string, visibleFolders: readonly string[]): string {
  const wanted = name.replace(/^\/+|\/+$/g, '');
  const folder = resolveName(wanted, visibleFolders);
  if (folder !== undefined) return folder;
  const candidates = foldMatches(wanted, visibleFolders).sort();
  if (candidates.length < 2) throw new FolderNotFoundError(name);
  const listed = candidates.map((candidate) => `"${candidate}"`);
  const last = listed.pop() as string;
  throw new InvalidInputError(
    `The folder name "${name}" could mean ${listed.join(', ')} or ${last}, which differ only in case; give the name exactly as list_folders shows it.`,
  );
}

export const listNotesTool = defineTool({
  name: 'list_notes',
  title: 'List notes',
  description:
    'Browse notes newest first, with optional filters. The right tool for "what did I save this week?" or "show my bookmarks tagged #ml": ' +
    'it filters by source kind, tag, folder, period and properties rather than by words (use search_notes for words, semantic_search for topics). ' +
    'where filters by properties ("notes with status active": where [{"property": "status", "op": "=", "value": "active"}]; call list_properties for the names). ' +
    'Returns {items, total, page}; each item has id, title, a 300-character snippet, tags, source, created and updated, and with where the properties its conditions name. ' +
    'Errors: "Folder not found: X" for an unknown folder (call list_folders first); plain messages for out-of-range page or size, and for a where condition with a value where its op takes none (exists, missing) or without one where it needs one.',
  scope: 'notes:read',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({
    page: intParam('page', 1, undefined, 1, 'Page number, from 1.'),
    size: intParam('size', 1, 50, 10, 'Items per page, 1 to 50.'),
    source: choice('source', ['all', ...SOURCES] as const, 'Only notes of this kind: all, bookmark, email, feed or note.').optional().default('all'),
    tag: text('tag', { min: 1, max: 200, description: 'Only notes with this tag: "#hashtag", "@mention", or a bare word matching either. #ml also matches nested tags like #ml/papers.' }).optional(),
    folder: text('folder', { min: 1, max: 1000, description: 'Only notes directly inside this folder (name as list_folders gives it; any case, unless folders differ only in case), or "unfiled" for notes at the top level.' }).optional(),
    period: choice('period', ['today', 'yesterday', 'week'] as const, 'Only notes whose sort timestamp falls today, yesterday (calendar days, server time zone) or in the last 7 days.').optional(),
    sort: choice('sort', ['created', 'updated'] as const, 'Order newest first by created (default) or updated time; period filters on the same timestamp.').optional().default('created'),
    where: whereParam.optional(),
  }),
  output: pagedItems,
  async handler(args, { view, clock }) {
    await view.assertReady();
    const key = args.sort === 'updated' ? 'updatedMs' : 'createdMs';
    const candidates = args.tag === undefined ? undefined : tagFilterCandidates(args.tag);
    if (args.tag !== undefined && !candidates) {
      throw new InvalidInputError(`tag must be a tag such as "#ml", "@alice" or a bare word; "${args.tag}" is not one.`);
    }
    let folder: string | null | undefined;
    if (args.folder !== undefined) {
      if (args.folder.trim().toLowerCase() === 'unfiled') folder = null;
      else {
        folder = resolveFolderFilter(args.folder, [...view.folderCounts().folders.keys()]);
      }
    }
    const where = args.where === undefined ? undefined : WhereQuery.compile(args.where);
    const tagged = candidates ?? where?.tagged;
    const window = args.period === undefined ? undefined : periodWindow(args.period, clock.now());

    // Only the notes up to the page are kept in order: sorting every match
    // took 130 ms of a 250 ms call at 100,000 notes (31,000 matches).
    const kept = new TopK<{ id: string; score: number; record: NoteRecord; owner: string | undefined }>(args.page * args.size);
    let total = 0;
    const visit = (record: NoteRecord, owner?: string): void => {
      if (args.source !== 'all' && record.source !== args.source) return;
      if (folder !== undefined && record.folder !== folder) return;
      if (window && (record[key] < window.start || record[key] >= window.end)) return;
      total++;
      if (kept.admits(record[key], record.id)) kept.push({ id: record.id, score: record[key], record, owner });
    };
    // A tag filter visits only the notes it covers, through the vaults' tag
    // indexes. A folder filter is a personal view: teammates' shared notes
    // have no folder.
    // A where query visits only the notes of its narrowest property (or tag) through the vaults' property indexes.
    for (const record of where ? view.ownNotesWhere(where, tagged) : view.ownNotes(tagged)) visit(record);
    if (folder === undefined) for (const { record, owner } of where ? view.sharedNotesWhere(where, tagged) : view.sharedNotes(tagged)) visit(record, owner);
    const start = (args.page - 1) * args.size;
    const page = kept.sorted().slice(start, start + args.size);
    const items = page.map(({ record, owner }) => {
      const item = toItem(owner === undefined ? { record } : { record, owner });
      return where ? { ...item, properties: where.shown(record) } : item;
    });
    return { items, total, page: args.page };
  },
});
