import { Parser } from 'htmlparser2';
import { DexiError } from '../vault/errors.js';

/**
 * Reading the bookmark export every browser writes: the "Netscape bookmark
 * file" (`<!DOCTYPE NETSCAPE-Bookmark-file-1>`), HTML whose `<DT>` and `<p>`
 * are never closed. Its meaning lies in the order of its tags, not in a
 * tree: an `<H3>` names the folder whose `<DL>` follows, and `</DL>` ends
 * it. So it is read as a stream of tags (htmlparser2, which every HTML tool
 * of the field builds on), keeping a stack of open folders.
 */

export interface Bookmark {
  url: string;
  title: string;
  /** ADD_DATE: seconds since 1970 in every browser's export. */
  added?: Date;
  /** The folders it was filed in, outermost first, without the browser's own top-level containers. */
  folders: string[][];
  /** Tags a bookmark service wrote (`TAGS="a,b"`: Firefox, Pinboard, Raindrop). */
  tags: string[];
  /**
   * The `<DD>` text right after the link: the note a person wrote on it. A
   * `<DD>` belongs to the `<DT>` just before it, so the one after a folder's
   * `<H3>` (Firefox describes its Bookmarks Toolbar so) is the folder's,
   * and folders have no note to keep it in.
   */
  description?: string;
}

export class BookmarksError extends DexiError {}

/**
 * The folders a browser makes itself, which say where a bookmark sat in the
 * browser's window rather than what it is about: Chrome's and Edge's
 * "Bookmarks bar", Firefox's "Bookmarks Toolbar", "Bookmarks Menu" and
 * "Other Bookmarks", Safari's "Favorites". Chrome and Firefox mark their bar
 * with PERSONAL_TOOLBAR_FOLDER, Firefox its unfiled folder with
 * UNFILED_BOOKMARKS_FOLDER; the names cover exports that do not mark them.
 */
const CONTAINER_NAMES = new Set(
  [
    'bookmarks bar',
    'bookmarks toolbar',
    'bookmarks menu',
    'other bookmarks',
    'mobile bookmarks',
    'favorites bar',
    'favourites bar',
    'other favorites',
    'other favourites',
    'favorites',
    'favourites',
    'bookmarksbar',
    'bookmarksmenu',
    'unsorted bookmarks',
  ].map((name) => name.toLowerCase()),
);

function isContainer(name: string, attributes: Record<string, string>): boolean {
  if (attributes.personal_toolbar_folder === 'true' || attributes.unfiled_bookmarks_folder === 'true') return true;
  return CONTAINER_NAMES.has(name.trim().toLowerCase());
}

/** A browser's ADD_DATE: seconds, though some tools write milliseconds or Chrome's microseconds. */
export function bookmarkDate(value: string | undefined): Date | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  let number = Number(value.trim());
  if (number === 0) return undefined;
  // Seconds until the year 5138; larger values are milliseconds, then microseconds.
  if (number > 1e14) number /= 1e6;
  else if (number > 1e11) number /= 1e3;
  const date = new Date(number * 1000);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Only web pages are bookmarks to keep: `javascript:` bookmarklets, `place:` queries and `file:` links are not pages. */
export function bookmarkUrl(href: string): string | undefined {
  try {
    const url = new URL(href.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export interface ParsedBookmarks {
  bookmarks: Bookmark[];
  /** Links that are not web pages (bookmarklets, `place:` queries), left out. */
  skipped: number;
}

/**
 * The bookmarks of an export, each address once: a page filed in two folders
 * is one bookmark in both, with the earliest add date.
 */
export function parseBookmarks(html: string): ParsedBookmarks {
  if (!/<!DOCTYPE\s+NETSCAPE-Bookmark-file-1/i.test(html.slice(0, 4096)) && !/<dt>\s*<a\s[^>]*href/i.test(html)) {
    throw new BookmarksError('This is not a browser bookmarks export: it has neither the NETSCAPE-Bookmark-file-1 heading nor any bookmark links. Export the bookmarks from the browser as HTML.');
  }
  const reader = new BookmarkReader();
  const parser = new Parser(
    {
      onopentag: (name, attributes) => reader.openTag(name, attributes),
      ontext: (text) => reader.text(text),
      onclosetag: (name) => reader.closeTag(name),
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  reader.finishLink();
  reader.finishDescription();
  return { bookmarks: [...reader.byUrl.values()], skipped: reader.skipped };
}

/**
 * What the tags of an export read so far make: the bookmarks by address, the
 * folders open, and the link, heading or description being read.
 */
class BookmarkReader {
  readonly byUrl = new Map<string, Bookmark>();
  skipped = 0;
  // Each open <DL>: the folder it holds, or null for a browser's container or the top level.
  private readonly open: (string | null)[] = [];
  private heading: { name: string; container: boolean } | undefined;
  private headingText: string | undefined;
  private headingAttributes: Record<string, string> = {};
  private link: { href: string; attributes: Record<string, string>; text: string } | undefined;
  private description: string | undefined;
  private lastBookmark: Bookmark | undefined;

  openTag(name: string, attributes: Record<string, string>): void {
    if (name === 'a') {
      this.finishDescription();
      this.link = { href: attributes.href ?? '', attributes, text: '' };
    } else if (name === 'h3' || name === 'h1') {
      this.finishDescription();
      this.lastBookmark = undefined;
      this.headingText = '';
      this.headingAttributes = attributes;
    } else if (name === 'dl') {
      this.finishDescription();
      this.lastBookmark = undefined;
      this.open.push(this.heading === undefined || this.heading.container ? null : this.heading.name);
      this.heading = undefined;
    } else if (name === 'dd') {
      this.description = '';
    } else if (name === 'dt') {
      this.finishDescription();
      this.lastBookmark = undefined;
    } else if (name === 'br' && this.description !== undefined) {
      this.description += '\n';
    }
  }

  text(text: string): void {
    if (this.link) this.link.text += text;
    else if (this.headingText !== undefined) this.headingText += text;
    else if (this.description !== undefined) this.description += text;
  }

  closeTag(name: string): void {
    if (name === 'a') this.finishLink();
    else if ((name === 'h3' || name === 'h1') && this.headingText !== undefined) {
      const folderName = this.headingText.replace(/\s+/g, ' ').trim();
      // The export's own <H1>Bookmarks</H1> names the whole file, not a folder.
      this.heading = name === 'h1' ? { name: folderName, container: true } : { name: folderName, container: folderName === '' || isContainer(folderName, this.headingAttributes) };
      this.headingText = undefined;
    } else if (name === 'dl') {
      this.finishDescription();
      this.lastBookmark = undefined;
      this.open.pop();
    }
  }

  finishLink(): void {
    if (!this.link) return;
    const { href, attributes, text } = this.link;
    this.link = undefined;
    const url = bookmarkUrl(href);
    if (url === undefined) {
      this.skipped++;
      this.lastBookmark = undefined;
      return;
    }
    this.lastBookmark = this.add(url, attributes, text);
  }

  /** The bookmark of `url` in the folders open, merged into the one already read for that address if there is one. */
  private add(url: string, attributes: Record<string, string>, text: string): Bookmark {
    const folders = this.open.filter((name): name is string => name !== null);
    const tags = (attributes.tags ?? '')
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean);
    const added = bookmarkDate(attributes.add_date);
    const title = text.replace(/\s+/g, ' ').trim() || url;
    const seen = this.byUrl.get(url);
    if (seen) {
      if (folders.length > 0 && !seen.folders.some((known) => known.join('\0') === folders.join('\0'))) seen.folders.push(folders);
      for (const tag of tags) if (!seen.tags.includes(tag)) seen.tags.push(tag);
      if (added && (!seen.added || added < seen.added)) seen.added = added;
      return seen;
    }
    const bookmark: Bookmark = { url, title, folders: folders.length > 0 ? [folders] : [], tags };
    if (added) bookmark.added = added;
    this.byUrl.set(url, bookmark);
    return bookmark;
  }

  finishDescription(): void {
    if (this.description === undefined) return;
    const text = this.description.replace(/[ \t]+/g, ' ').replace(/\s*\n\s*/g, '\n').trim();
    this.description = undefined;
    if (text !== '' && this.lastBookmark && this.lastBookmark.description === undefined) this.lastBookmark.description = text;
  }
}

/**
 * A browser folder as a tag: each folder a level of a nested tag
 * (`Dev/Web Tools` → `dev/web-tools`), made of the characters a tag may
 * hold (letters, digits, `_`, `-`). Undefined when nothing of it can be a
 * tag (a folder named only with symbols or digits).
 */
export function folderTag(folders: readonly string[]): string | undefined {
  const parts = folders
    .map((name) =>
      name
        .normalize('NFC')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}_-]+/gu, '-')
        .replace(/-{2,}/g, '-')
        .replace(/^-|-$/g, ''),
    )
    .filter((part) => part !== '');
  if (parts.length === 0) return undefined;
  const tag = parts.join('/');
  // A tag needs one character that is not a digit (vault.md, "Tags").
  return /[^\d/]/.test(tag) ? tag : undefined;
}

/** A bookmark's tags: its folders as nested tags, then the tags the export gave it, each once. */
export function bookmarkTags(bookmark: Bookmark): string[] {
  const tags: string[] = [];
  for (const folders of bookmark.folders) {
    const tag = folderTag(folders);
    if (tag !== undefined && !tags.includes(tag)) tags.push(tag);
  }
  for (const given of bookmark.tags) {
    const tag = folderTag([given.replace(/^#/, '')]);
    if (tag !== undefined && !tags.includes(tag)) tags.push(tag);
  }
  return tags;
}
