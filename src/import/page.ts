import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { htmlToMarkdown } from './html-markdown.js';
import { capNesting } from './html-nesting.js';

// Where it was: the page tests import it from here.
export { decodePageBytes } from './page-bytes.js';

/** A web page's readable part, as Markdown. */
export interface ReadablePage {
  title?: string;
  markdown: string;
  byline?: string;
  excerpt?: string;
}

/** The little of linkedom's DOM this module touches (the project has no DOM types). */
interface PageNode {
  readonly nodeType: number;
  readonly nodeName: string;
  toString(): string;
}

interface PageElement extends PageNode {
  readonly textContent: string | null;
  readonly innerHTML: string;
  readonly outerHTML: string;
  getAttribute(name: string): string | null;
  closest(selector: string): PageElement | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
  remove(): void;
}

interface PageDocument {
  readonly childNodes: ArrayLike<PageNode>;
  readonly body: PageElement;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
}

const ELEMENT_NODE = 1;
const DOCUMENT_TYPE_NODE = 10;

function parse(html: string): PageDocument {
  return parseHTML(html).document as unknown as PageDocument;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function collapse(text: string | null | undefined): string | undefined {
  const collapsed = (text ?? '').replace(/\s+/g, ' ').trim();
  return collapsed === '' ? undefined : collapsed;
}

/** What of a page's head is worth keeping: its title and the metadata Readability reads (author, description, JSON-LD). */
interface PageParts {
  title?: string;
  head: string;
  body: string;
  /** The page's `<base href>`, when it has one. */
  base?: string;
}

/**
 * The parts of a page, from however it is written. linkedom builds the tree
 * as written, without the HTML standard's repairs: a page without
 * `<body>` (allowed), or with anything between `</head>` and `<body>`, has
 * its content outside `document.body`, and merely reading `document.body`
 * then inserts an empty one. So the page is taken apart here and put back
 * together as `<html><head>…</head><body>…</body></html>`, which linkedom and
 * Readability both read as a browser would.
 */
function pageParts(html: string): PageParts {
  const document = parse(html);
  const titleElement = Array.from(document.querySelectorAll('title')).find((element) => element.closest('svg') === null);
  const title = collapse(titleElement?.textContent);
  const base = document.querySelector('base[href]')?.getAttribute('href') ?? undefined;
  const head = Array.from(document.querySelectorAll('meta, script[type="application/ld+json"]'))
    .filter((element) => element.closest('svg') === null)
    .map((element) => element.outerHTML)
    .join('');
  const bodyElement = document.querySelector('body');
  let body: string;
  if (bodyElement) body = bodyElement.innerHTML;
  else {
    for (const element of Array.from(document.querySelectorAll('head, title, base, meta, link'))) element.remove();
    body = Array.from(document.childNodes)
      .filter((node) => node.nodeType !== DOCUMENT_TYPE_NODE)
      .map((node) => (node.nodeType === ELEMENT_NODE && node.nodeName.toUpperCase() === 'HTML' ? (node as PageElement).innerHTML : node.toString()))
      .join('');
  }
  return { ...(title !== undefined ? { title } : {}), head, body, ...(base !== undefined ? { base } : {}) };
}

function rebuilt(parts: PageParts): PageDocument {
  const title = parts.title === undefined ? '' : `<title>${escapeHtml(parts.title)}</title>`;
  return parse(`<!doctype html><html><head>${title}${parts.head}</head><body>${parts.body}</body></html>`);
}

/**
 * Readability returns its best attempt even when no part of the page reaches
 * its own threshold (500 characters, its `charThreshold`); below that the
 * attempt is the whole body, menus and all, and the page's text without its
 * chrome reads better.
 */
const ARTICLE_MIN_CHARS = 500;

/** Parts of a page around its text: navigation, banners, sidebars, cookie notices, things hidden from view. */
const CHROME = [
  'nav', 'header', 'footer', 'aside', 'dialog', 'menu',
  '[role="navigation"]', '[role="banner"]', '[role="contentinfo"]', '[role="complementary"]', '[role="dialog"]', '[role="alertdialog"]', '[role="search"]',
  '[hidden]', '[aria-hidden="true"]', '[aria-modal="true"]',
].join(', ');
const CHROME_NAME = /(?:^|[\s_-])(?:cookies?|consent|gdpr|sidebar|navbar|menu|breadcrumbs?|share|social|newsletter|popup|modal|banner|advert|ads)(?:$|[\s_-])/i;

/** The page's text when it has no article: the body without its chrome, scripts and styles. */
function pageText(parts: PageParts, base: string): string {
  const document = rebuilt(parts);
  const body = document.body;
  for (const element of Array.from(body.querySelectorAll(CHROME))) element.remove();
  for (const element of Array.from(body.querySelectorAll('[id], [class]'))) {
    if (CHROME_NAME.test(element.getAttribute('id') ?? '') || CHROME_NAME.test(element.getAttribute('class') ?? '')) element.remove();
  }
  return htmlToMarkdown(body.innerHTML, base);
}

function meta(document: PageDocument, ...names: string[]): string | undefined {
  for (const name of names) {
    const element = document.querySelector(`meta[name="${name}"], meta[property="${name}"]`);
    const content = collapse(element?.getAttribute('content'));
    if (content !== undefined) return content;
  }
  return undefined;
}

/**
 * A web page's readable text: the article Readability finds in it, else the
 * page's text without its navigation, header, footer and sidebars. Nothing
 * in the page runs (linkedom has no script engine and fetches nothing), and
 * no script or style text reaches the Markdown (htmlToMarkdown drops them).
 * Relative links are made absolute against `url`, or the page's `<base>`.
 * Nesting past MAX_HTML_DEPTH is flattened first (html-nesting.ts):
 * Readability's time grows with the cube of the depth.
 */
export function readablePage(html: string, url: string): ReadablePage {
  const parts = pageParts(capNesting(html));
  const base = baseOf(parts.base, url);
  // Readability changes the document it reads, so it gets a copy of its own.
  const article = new Readability(rebuilt(parts) as unknown as ConstructorParameters<typeof Readability>[0]).parse();
  const found = article !== null && typeof article.content === 'string' && (article.textContent ?? '').trim().length >= ARTICLE_MIN_CHARS;
  const markdown = found ? htmlToMarkdown(article.content as string, base) : pageText(parts, base);
  const page: ReadablePage = { markdown };
  const head = rebuilt({ ...parts, body: '' });
  const title = (found ? collapse(article.title) : undefined) ?? parts.title ?? collapse(rebuilt(parts).querySelector('h1')?.textContent);
  const byline = (found ? collapse(article.byline) : undefined) ?? meta(head, 'author', 'article:author');
  const excerpt = (found ? collapse(article.excerpt) : undefined) ?? meta(head, 'description', 'og:description', 'twitter:description');
  if (title !== undefined) page.title = title;
  if (byline !== undefined) page.byline = byline;
  if (excerpt !== undefined) page.excerpt = excerpt;
  return page;
}

/** A `<base href>` counts only as a web address; a page cannot send its links to `file:` or `javascript:`. */
function baseOf(href: string | undefined, url: string): string {
  if (href === undefined || href.trim() === '') return url;
  try {
    const base = new URL(href.trim(), url);
    return base.protocol === 'http:' || base.protocol === 'https:' ? base.href : url;
  } catch {
    return url;
  }
}
