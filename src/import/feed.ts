import { createHash } from 'node:crypto';
import { DetectError, MalformedError, parseFeed, type AnyFeed, type AtomFeed, type JsonFeed, type RdfFeed, type RssFeed } from 'feedsmith';
import { parseHTML } from 'linkedom';
import { enclosuresMarkdown, type Enclosure } from './enclosures.js';
import { FeedError } from './feed-bytes.js';
import { htmlToMarkdown } from './html-markdown.js';
import { capNesting } from './html-nesting.js';
import { tidyMarkdown } from './tidy-markdown.js';

// Where they were: the feeds' tests and the error endings import them from here.
export { decodeFeedBytes, FeedError } from './feed-bytes.js';

/** One article of a feed, ready to become a note. */
export interface FeedArticle {
  /**
   * The article's identity across pulls: the RSS guid, the Atom id, the JSON
   * Feed id, the RDF item's rdf:about; else its address; else a hash of its
   * title, date and content (see `hashKey`).
   */
  key: string;
  /** The article's own web address, absolute; only http and https addresses. */
  url?: string;
  /** Plain text; '' only when the article has nothing a title could come from. */
  title: string;
  /** When it was published, else last updated; undefined when missing or unparsable. */
  date?: Date;
  /** Markdown: a line for each enclosure (enclosures.ts), then the full content when the feed has it, else the summary. */
  body: string;
  author?: string;
}

export interface ParsedFeed {
  /** The feed's name; the host of its address when it names none. */
  title: string;
  siteUrl?: string;
  format: 'rss' | 'atom' | 'rdf' | 'json';
  articles: FeedArticle[];
}

const HTML_PAGE = 'The address does not serve a feed: it returned an HTML page, not RSS, Atom or JSON Feed.';

// ---------------------------------------------------------------------------
// Text helpers

/** The little of linkedom's DOM used here (the project has no DOM types). */
interface TextElement {
  textContent: string | null;
  querySelectorAll(selector: string): ArrayLike<{ remove(): void }>;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** HTML as the plain text a person sees: tags gone, entities decoded, script and style text not counted as text. */
function htmlToText(html: string): string {
  if (!/[<&]/.test(html)) return collapse(html);
  const { document } = parseHTML(`<!doctype html><html><head></head><body>${capNesting(html)}</body></html>`);
  const body = (document as unknown as { body: TextElement }).body;
  for (const element of Array.from(body.querySelectorAll('script, style, template, noscript'))) element.remove();
  // Block ends and line breaks separate words in the page; textContent would run them together.
  for (const element of Array.from(body.querySelectorAll('br, p, div, li, h1, h2, h3, h4, h5, h6, tr, blockquote, pre'))) {
    (element as unknown as { after(text: string): void }).after(' ');
  }
  return collapse(body.textContent ?? '');
}

/**
 * Character references decoded, nothing else: a `<title>` is parsed as
 * text, so `<b>` stays literal while `&amp;` becomes `&`. For fields that
 * are plain text by their format but that generators often entity-encode.
 */
function decodeEntities(text: string): string {
  if (!/&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]*);?/i.test(text)) return collapse(text);
  const { document } = parseHTML(`<!doctype html><html><head><title>${text.replace(/<\//g, '&lt;/')}</title></head><body></body></html>`);
  return collapse((document as unknown as { title: string }).title);
}

/**
 * At most 80 characters of the start of a text, always cut back to a whole
 * word: a title, unlike a snippet (cutSnippet), never ends inside a word.
 */
function firstWords(text: string, max = 80): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Text meant as text, made safe to put in Markdown: a tag-like `<x` would become markup there, so it is escaped. */
function textToMarkdown(text: string): string {
  return tidyMarkdown(text.replace(/<(?=[A-Za-z/!?])/g, '\\<'));
}

function isUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** An address in a feed, made absolute; only web addresses are kept, so no `javascript:` link reaches a note. */
function webAddress(value: string | undefined, base: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  try {
    const url = new URL(trimmed, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** An `xml:base`, itself resolved against the base it sits in; any address, as a base need not be a web address. */
function withBase(base: string | undefined, xmlBase: string | undefined): string | undefined {
  if (!xmlBase?.trim()) return base;
  try {
    return new URL(xmlBase.trim(), base).href;
  } catch {
    return base;
  }
}

function parseDate(...candidates: (string | undefined)[]): Date | undefined {
  for (const candidate of candidates) {
    if (candidate === undefined || candidate.trim() === '') continue;
    const date = new Date(candidate.trim());
    if (!Number.isNaN(date.getTime())) return date;
  }
  return undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

function names(list: (string | undefined)[] | undefined): string | undefined {
  const kept = (list ?? []).map((name) => collapse(name ?? '')).filter((name) => name !== '');
  return kept.length > 0 ? [...new Set(kept)].join(', ') : undefined;
}

// ---------------------------------------------------------------------------
// Feed formats to one shape

/** Content as the feed gives it: HTML, or text that is text. */
interface Content {
  kind: 'html' | 'text';
  value: string;
}

/** What each format gives for an item, before it becomes an article. */
interface RawItem {
  id?: string;
  url?: string;
  title: string;
  dates: (string | undefined)[];
  content?: Content;
  author?: string;
  /** Where relative addresses in the content are meant from, when the feed says (`xml:base`). */
  contentBase?: string;
  /** The files it carries (a podcast's episode), their addresses made absolute. */
  enclosures?: Enclosure[];
}

const html = (value: string | undefined): Content | undefined => (nonEmpty(value) !== undefined ? { kind: 'html', value: value as string } : undefined);
const text = (value: string | undefined): Content | undefined => (nonEmpty(value) !== undefined ? { kind: 'text', value: value as string } : undefined);

/** Atom's typed text: `text` (the default), `html`, `xhtml`, or a media type; base64 media content has no text to show. */
function atomContent(value: { value?: string; type?: string; src?: string } | undefined): Content | undefined {
  const type = (value?.type ?? 'text').trim().toLowerCase();
  if (type === 'html' || type === 'xhtml' || type === 'text/html' || type === 'application/xhtml+xml') return html(value?.value);
  if (type === 'text' || type.startsWith('text/')) return text(value?.value);
  return undefined;
}

function atomText(value: { value?: string; type?: string } | undefined): string {
  const content = atomContent(value);
  if (content === undefined) return '';
  return content.kind === 'html' ? htmlToText(content.value) : collapse(content.value);
}

/** Atom's article link: rel="alternate", which a link without rel also is; a web page's (HTML) before others. */
function atomLink(links: AtomFeed.Link<string>[] | undefined, base: string | undefined): string | undefined {
  const alternates = (links ?? []).filter((link) => link.rel === undefined || link.rel.trim().toLowerCase() === 'alternate');
  const page = alternates.find((link) => link.type === undefined || /html/i.test(link.type)) ?? alternates[0];
  return webAddress(page?.href, base);
}

function rssItem(item: RssFeed.Item<string>, base: string | undefined): RawItem {
  const guid = nonEmpty(item.guid?.value)?.trim();
  const itemBase = withBase(base, item.xml?.base);
  // A guid is the item's address too unless the feed says it is not (isPermaLink="false"), and if it is one.
  const guidUrl = guid !== undefined && item.guid?.isPermaLink !== false && /^https?:\/\//i.test(guid) ? guid : undefined;
  return {
    ...(guid !== undefined ? { id: guid } : {}),
    url: webAddress(item.link, itemBase) ?? webAddress(guidUrl, itemBase),
    title: htmlToText(item.title ?? ''),
    dates: [item.pubDate, ...(item.dc?.dates ?? []), ...(item.dcterms?.created ?? []), item.atom?.published, item.atom?.updated, ...(item.dcterms?.modified ?? [])],
    content: html(item.content?.encoded) ?? html(item.description),
    author: names(item.authors?.map((person) => person.name)) ?? names(item.dc?.creators) ?? names(item.authors?.map((person) => person.email)),
    contentBase: item.xml?.base !== undefined ? itemBase : undefined,
    // The iTunes duration is the episode's, which is its first enclosure.
    enclosures: (item.enclosures ?? []).map((enclosure, index) => ({ url: webAddress(enclosure.url, itemBase), type: enclosure.type, length: enclosure.length, seconds: index === 0 ? item.itunes?.duration : undefined })),
  };
}

function rdfItem(item: RdfFeed.Item<string>, base: string | undefined): RawItem {
  const about = nonEmpty(item.rdf?.about)?.trim();
  return {
    ...(about !== undefined ? { id: about } : {}),
    url: webAddress(item.link, base) ?? webAddress(about, base),
    title: htmlToText(item.title ?? ''),
    dates: [...(item.dc?.dates ?? []), ...(item.dcterms?.created ?? []), ...(item.dcterms?.modified ?? [])],
    content: html(item.content?.encoded) ?? html(item.description),
    author: names(item.dc?.creators),
  };
}

function atomEntry(entry: AtomFeed.Entry<string>, feed: AtomFeed.Feed<string>, base: string | undefined): RawItem {
  const id = nonEmpty(entry.id)?.trim();
  const entryBase = withBase(base, entry.xml?.base);
  // A missing content is no content; content with src (out of line) has none to show here, so the summary stands in.
  return {
    ...(id !== undefined ? { id } : {}),
    url: atomLink(entry.links, entryBase),
    title: atomText(entry.title),
    dates: [entry.published, entry.updated],
    content: atomContent(entry.content) ?? atomContent(entry.summary),
    // An entry without an author has its feed's (RFC 4287 §4.2.1).
    author: names(entry.authors?.map((person) => person.name)) ?? names(entry.source?.authors?.map((person) => person.name)) ?? names(feed.authors?.map((person) => person.name)),
    contentBase: entry.xml?.base !== undefined || feed.xml?.base !== undefined ? entryBase : undefined,
    enclosures: (entry.links ?? [])
      .filter((link) => link.rel?.trim().toLowerCase() === 'enclosure')
      .map((link) => ({ url: webAddress(link.href, entryBase), type: link.type, length: link.length, title: link.title })),
  };
}

function jsonItem(item: JsonFeed.Item<string>, feed: JsonFeed.Feed<string>, base: string | undefined): RawItem {
  const id = nonEmpty(item.id === undefined ? undefined : String(item.id))?.trim();
  return {
    ...(id !== undefined ? { id } : {}),
    // A link post may have only external_url, the page it is about.
    url: webAddress(item.url, base) ?? webAddress(item.external_url, base),
    title: decodeEntities(item.title ?? ''),
    dates: [item.date_published, item.date_modified],
    content: html(item.content_html) ?? text(item.content_text) ?? text(item.summary),
    // Items without authors have the feed's (JSON Feed 1.1, "authors").
    author: names(item.authors?.map((person) => person.name)) ?? names(feed.authors?.map((person) => person.name)),
    enclosures: (item.attachments ?? []).map((file) => ({ url: webAddress(file.url, base), type: file.mime_type, length: file.size_in_bytes, title: file.title, seconds: file.duration_in_seconds })),
  };
}

interface RawFeed {
  title: string;
  siteUrl?: string;
  items: RawItem[];
}

function rawFeed(parsed: AnyFeed<string>, feedUrl: string | undefined): RawFeed {
  switch (parsed.format) {
    case 'rss': {
      const { feed } = parsed;
      const base = withBase(feedUrl, feed.xml?.base);
      return { title: htmlToText(feed.title ?? ''), siteUrl: webAddress(feed.link, base), items: (feed.items ?? []).map((item) => rssItem(item, base)) };
    }
    case 'rdf': {
      const { feed } = parsed;
      return { title: htmlToText(feed.title ?? ''), siteUrl: webAddress(feed.link, feedUrl), items: (feed.items ?? []).map((item) => rdfItem(item, feedUrl)) };
    }
    case 'atom': {
      const { feed } = parsed;
      const base = withBase(feedUrl, feed.xml?.base);
      return { title: atomText(feed.title), siteUrl: atomLink(feed.links, base), items: (feed.entries ?? []).map((entry) => atomEntry(entry, feed, base)) };
    }
    case 'json': {
      const { feed } = parsed;
      return { title: decodeEntities(feed.title ?? ''), siteUrl: webAddress(feed.home_page_url, feedUrl), items: (feed.items ?? []).map((item) => jsonItem(item, feed, feedUrl)) };
    }
  }
}

/**
 * The identity of an item that has neither id nor address: a hash of what
 * it shows, so the same item pulled again is recognised (an edited one comes
 * back as new, which is the best that can be known). Without a colon, so
 * that feeds.ts scopes it to its feed rather than taking it as a global id.
 */
function hashKey(item: RawItem): string {
  const hash = createHash('sha256').update([item.title, item.dates.find((date) => date !== undefined) ?? '', item.content?.value ?? ''].join('\n')).digest('hex');
  return `sha256-${hash}`;
}

function article(item: RawItem, feedUrl: string | undefined): FeedArticle | undefined {
  const content = item.content === undefined ? '' : item.content.kind === 'html' ? htmlToMarkdown(item.content.value, item.contentBase ?? item.url ?? feedUrl) : textToMarkdown(item.content.value);
  // The files first: an episode is what a podcast item is for, and a body too long for a note is cut at its end.
  const body = [enclosuresMarkdown(item.enclosures ?? []), content].filter((part) => part !== '').join('\n\n');
  if (item.title === '' && item.url === undefined && body === '') return undefined;
  let title = item.title;
  if (title === '') {
    const plain = item.content === undefined ? '' : item.content.kind === 'html' ? htmlToText(item.content.value) : collapse(item.content.value);
    title = plain === '' ? 'Untitled' : firstWords(plain);
  }
  const result: FeedArticle = { key: item.id ?? item.url ?? hashKey(item), title, body };
  if (item.url !== undefined) result.url = item.url;
  const date = parseDate(...item.dates);
  if (date !== undefined) result.date = date;
  if (item.author !== undefined) result.author = item.author;
  return result;
}

// ---------------------------------------------------------------------------
// The document

/** The document's first markup after any XML declaration, comments and whitespace. */
function firstMarkup(text: string): string {
  return text.replace(/^(?:\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->)*/, '').slice(0, 200);
}

/** A web page for certain: an HTML doctype or an `<html>` root, which no feed has. */
function isHtmlPage(text: string): boolean {
  return /^<(?:!doctype\s+html\b|html[\s>])/i.test(firstMarkup(text));
}

/** Probably a web page, for a document that is no feed: it starts like one, or has the parts of one. */
function looksLikeHtml(text: string): boolean {
  const start = firstMarkup(text);
  return /^<(?:!doctype\s+html\b|html|head|body|meta|title|div|p|script|link)[\s>/]/i.test(start) || /<(?:head|body)[\s>]/i.test(text.slice(0, 4096));
}

/** Why feedsmith could not read the document, in a sentence for a person. */
function unreadable(error: unknown, text: string): FeedError {
  if (error instanceof DetectError) {
    if (looksLikeHtml(text)) return new FeedError(HTML_PAGE, { cause: error });
    const start = text.trimStart()[0];
    if (start === '{' || start === '[') return new FeedError('The feed could not be read: it is JSON, but not a JSON Feed.', { cause: error });
    if (start === '<') return new FeedError('The feed could not be read: it is XML, but neither RSS nor Atom.', { cause: error });
    return new FeedError('The feed could not be read: it is neither RSS, Atom nor JSON Feed.', { cause: error });
  }
  if (error instanceof MalformedError) return new FeedError('The feed could not be read: its XML is broken (a tag is not closed, or a character is not allowed).', { cause: error });
  return new FeedError('The feed could not be read: it names itself RSS, Atom or JSON Feed, but has none of the parts of one (a channel, entries or items).', { cause: error });
}

function hostOf(feedUrl: string): string {
  try {
    return new URL(feedUrl).host || feedUrl;
  } catch {
    return feedUrl;
  }
}

/**
 * A feed document (RSS 2.0, RSS 1.0/RDF, Atom or JSON Feed) as articles. Throws
 * FeedError, with a sentence to show, when the text is not a feed. Items with
 * no title, no address and no content are left out: there is nothing to make
 * a note of.
 */
export function parseFeedDocument(text: string, feedUrl: string): ParsedFeed {
  const document = text.replace(/^\uFEFF/, '');
  if (document.trim() === '') throw new FeedError('The feed could not be read: the address returned an empty document.');
  if (isHtmlPage(document)) throw new FeedError(HTML_PAGE);
  let parsed: AnyFeed<string>;
  try {
    parsed = parseFeed(document);
  } catch (error) {
    throw unreadable(error, document);
  }
  const base = isUrl(feedUrl) ? feedUrl : undefined;
  const raw = rawFeed(parsed, base);
  const articles: FeedArticle[] = [];
  for (const item of raw.items) {
    const made = article(item, base);
    if (made) articles.push(made);
  }
  const result: ParsedFeed = { title: raw.title || hostOf(feedUrl), format: parsed.format, articles };
  if (raw.siteUrl !== undefined) result.siteUrl = raw.siteUrl;
  return result;
}
