/**
 * The links a move or a rename changes: what they named before it
 * (`linkMeanings`), and their repair after it (`repairLinks`), each link
 * rewritten to name what it named (link-rewrite.ts), through the vault's
 * ordinary edit so that every rewrite is a recorded, atomic write.
 */
import type { Catalog } from './catalog.js';
import { DexiError } from './errors.js';
import type { LinkIndex, Visible } from './link-index.js';
import { rewriteLinks, uniqueForm, type FormRule } from '../format/link-rewrite.js';
import { linkKey } from '../format/links.js';
import type { Change } from './late-edits.js';
import type { NoteRecord } from './note.js';
import { WARNING, type Logger } from './logger.js';

/**
 * What the links a move may change named before it: by linking note's id,
 * the link path → the id of the note the link resolved to (links that named
 * nothing are left out: a move cannot break them), and, for a note the
 * moving connection sees, its view: those links were resolved among the
 * notes it sees, and are repaired so.
 */
export type LinkMeanings = Map<string, { links: Map<string, string>; visible?: Visible }>;

/**
 * What every link that a move of `note` to `toPath` may change names now:
 * the links with the key of its file name, old and new (they differ when
 * the name is numbered or the note renamed), in every note holding one, and
 * all of its own links (which it takes along to another folder). Each
 * note's links are resolved among the notes `visible` admits when it admits
 * that note (its text is shown to the connection), else among them all.
 */
export function linkMeanings(index: LinkIndex, note: NoteRecord, toPath: string, visible: Visible | undefined): LinkMeanings {
  const meanings: LinkMeanings = new Map();
  const keys = new Set([linkKey(note.path), linkKey(toPath)]);
  const add = (source: NoteRecord): void => {
    const seen = meanings.get(source.id);
    const links = seen?.links ?? new Map<string, string>();
    const view = visible && visible(source) ? visible : undefined;
    const own = source.id === note.id;
    for (const link of source.links ?? []) {
      if (!own && !keys.has(linkKey(link))) continue;
      const target = index.resolve(link, source.path, view);
      if (target) links.set(link, target.id);
    }
    if (links.size > 0) meanings.set(source.id, view ? { links, visible: view } : { links });
  };
  for (const key of [note.path, toPath]) for (const source of index.linkersOfKey(key)) add(source);
  add(note);
  return meanings;
}

/**
 * After a move: each link that named a note before and names another (or
 * none) now is rewritten, by `edit`, to name the one it named. A note that
 * cannot be written (read-only, unparsable, busy) keeps its links as they
 * are, with a log line.
 */
export async function repairLinks(
  catalog: Catalog,
  meanings: LinkMeanings,
  edit: (id: string, change: Change) => Promise<unknown>,
  log: Logger,
): Promise<void> {
  const index = catalog.links;
  for (const [sourceId, { links, visible }] of meanings) {
    const source = catalog.get(sourceId);
    if (!source) continue;
    // As the links were read: among the notes the connection sees, for a note it sees.
    const resolve = (linkPath: string, sourcePath: string): string | undefined => index.resolve(linkPath, sourcePath, visible)?.path;
    const targets = new Map<string, string>();
    for (const [link, was] of links) {
      const wasNote = catalog.get(was);
      if (wasNote && index.resolve(link, source.path, visible)?.id !== was) targets.set(link, wasNote.path);
    }
    if (targets.size === 0) continue;
    // Security: in a note the bounded connection sees, a form that depends on no note but the target (link-rewrite.ts).
    const rule: FormRule = visible ? 'full' : (form, target) => uniqueForm(form, target, index.named(target).map((other) => other.path));
    try {
      await edit(sourceId, (content, record) => rewriteLinks(content, record.path, targets, resolve, rule));
    } catch (error) {
      if (!(error instanceof DexiError)) throw error;
      log(`Links in ${source.path} to a moved note were left as they are: ${error.message}`, WARNING);
    }
  }
}
