import { readFile } from 'node:fs/promises';
import { bookmarkTags, BookmarksError, parseBookmarks, type Bookmark } from './bookmarks.js';
import { convertPage, ConversionError } from './convert-pool.js';
import { fetchLimited, FetchError } from './fetch.js';
import type { ImportRun } from './import-run.js';
import { decodePageBytes } from './page-bytes.js';
import { escapePlainText } from './plain-text.js';
import type { ImportReport } from './report.js';

/** Limits on saving a bookmarked page: the person's own pages, but nothing may hang an import or fill the disk. */
export const PAGE_LIMITS = { maxBytes: 5 * 1024 * 1024, timeoutMs: 30_000, maxRedirects: 5 };
/** Pages fetched at once: enough to hide the network's latency, few enough not to look like a crawler to one site. */
const PAGE_CONCURRENCY = 4;

export interface BookmarkImport {
  file: string;
  /** Vault-relative folder for the notes. */
  folder: string;
  /** Also save each new bookmark's page: its readable text as the body, the page as the attachment. */
  fetchPages: boolean;
}

interface SavedPage {
  markdown: string;
  html: Buffer;
}

async function savePage(url: string): Promise<SavedPage | { problem: string }> {
  try {
    const response = await fetchLimited(url, { ...PAGE_LIMITS, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' });
    const type = (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (type !== '' && type !== 'text/html' && type !== 'application/xhtml+xml') {
      return { problem: `${url} is not a web page (${type}), so its text was not saved; the bookmark was kept.` };
    }
    const html = decodePageBytes(response.body, response.headers['content-type']);
    const page = await convertPage(html, response.url);
    return { markdown: page.markdown, html: response.body };
  } catch (error) {
    if (error instanceof FetchError) return { problem: `${error.message} The bookmark was kept without its page.` };
    if (error instanceof ConversionError) return { problem: `Could not save the text of ${url}: ${error.reason} The bookmark was kept without its page.` };
    throw error;
  }
}

function bodyOf(bookmark: Bookmark, page: SavedPage | undefined): string {
  const parts: string[] = [];
  // What a person typed in the browser's description field is text, not Markdown.
  if (bookmark.description !== undefined) parts.push(escapePlainText(bookmark.description));
  if (page !== undefined && page.markdown !== '') parts.push(page.markdown);
  return parts.length > 0 ? `${parts.join('\n\n')}\n` : '';
}

/**
 * `dexi-vault import bookmarks FILE`: a note per bookmarked page, in one
 * folder, with the browser's folders as tags (see README, "Bringing in bookmarks, e-mail and feeds").
 */
export async function importBookmarks(run: ImportRun, options: BookmarkImport, report: ImportReport): Promise<void> {
  let html: string;
  try {
    html = await readFile(options.file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BookmarksError(
      code === 'ENOENT' ? `There is no file at ${options.file}.` : code === 'EISDIR' ? `${options.file} is a folder; give the bookmarks export file (an .html file).` : `${options.file} cannot be read: ${(error as Error).message}`,
    );
  }
  const { bookmarks, skipped } = parseBookmarks(html);
  if (skipped > 0) report.problem(`${skipped.toLocaleString('en')} of the links are not web pages (bookmarklets, browser queries or local files) and were left out.`);
  let done = 0;
  report.progress(0, bookmarks.length);
  for (let start = 0; start < bookmarks.length; start += PAGE_CONCURRENCY) {
    const batch = bookmarks.slice(start, start + PAGE_CONCURRENCY);
    // Only the pages of bookmarks that will become notes are fetched.
    const pages = await Promise.all(
      batch.map((bookmark) => (options.fetchPages && run.state('bookmark', bookmark.url) === 'new' ? savePage(bookmark.url) : Promise.resolve(undefined))),
    );
    for (const [index, bookmark] of batch.entries()) {
      const page = pages[index];
      if (page !== undefined && 'problem' in page) report.problem(page.problem);
      const saved = page !== undefined && !('problem' in page) ? page : undefined;
      const tags = bookmarkTags(bookmark);
      const fields: Record<string, unknown> = { source: 'bookmark', source_url: bookmark.url };
      if (tags.length > 0) fields.tags = tags;
      const outcome = await run.add({
        kind: 'bookmark',
        key: bookmark.url,
        title: bookmark.title,
        body: bodyOf(bookmark, saved),
        folder: options.folder,
        fields,
        ...(bookmark.added ? { created: bookmark.added } : {}),
        ...(saved ? { attachment: { extension: 'html', bytes: saved.html } } : {}),
      });
      if (outcome.problem !== undefined) report.problem(`The bookmark of ${bookmark.url} was not imported: ${outcome.problem}`);
      report.progress(++done, bookmarks.length);
    }
  }
  report.finish(`Imported ${bookmarks.length.toLocaleString('en')} ${bookmarks.length === 1 ? 'bookmark' : 'bookmarks'} into ${options.folder}/: ${run.describeCounts()}.`);
}
