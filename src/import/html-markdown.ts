import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { capNesting } from './html-nesting.js';
import { tidyMarkdown } from './tidy-markdown.js';

/**
 * Elements whose content is never text a person wrote: scripts, styles,
 * embedded programs and forms. They are dropped with everything inside, so
 * nothing fetched or mailed can reach a note as something that runs.
 */
const DROPPED = ['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'applet', 'form', 'button', 'input', 'select', 'textarea', 'svg', 'canvas', 'head', 'meta', 'link'] as const;

/** The little of a DOM element this module touches (the project has no DOM types: linkedom provides the DOM). */
interface DomElement {
  readonly nodeName: string;
  readonly parentNode: DomElement | null;
  readonly nextSibling: unknown;
  readonly children: ArrayLike<DomElement>;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  remove(): void;
}

let service: TurndownService | undefined;

function turndown(): TurndownService {
  if (service) return service;
  service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*', hr: '---' });
  service.remove([...DROPPED]);
  // Turndown pads list markers to four columns (`-   item`); people and Obsidian write `- item` and `1. item`.
  service.addRule('listItem', {
    filter: 'li',
    replacement(content, turndownNode) {
      const node = turndownNode as unknown as DomElement;
      const parent = node.parentNode;
      let marker = '-';
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? '1');
        marker = `${(Number.isFinite(start) ? start : 1) + Array.prototype.indexOf.call(parent.children, node)}.`;
      }
      const text = content.replace(/^\n+/, '').replace(/\n+$/, '\n').replace(/\n/gm, `\n${' '.repeat(marker.length + 1)}`);
      return `${marker} ${text}${node.nextSibling && !text.endsWith('\n') ? '\n' : ''}`;
    },
  });
  return service;
}

/** Attributes that hold an address, made absolute against the document's own so that links in a note still lead somewhere. */
const ADDRESS_ATTRIBUTES = [
  ['a', 'href'],
  ['img', 'src'],
] as const;

/**
 * Every address made absolute against `base` when there is one, so that links
 * in a note still lead somewhere; only web and mail addresses are kept as
 * links (`javascript:`, `data:` and the like lose the address, keep the text).
 * Without a base, a relative address stays as written.
 */
function cleanAddresses(root: DomElement, base: string | undefined): void {
  for (const [tag, attribute] of ADDRESS_ATTRIBUTES) {
    for (const element of Array.from(root.querySelectorAll(`${tag}[${attribute}]`))) {
      const value = (element.getAttribute(attribute) ?? '').trim();
      let url: URL | undefined;
      try {
        url = new URL(value, base);
      } catch {
        url = undefined;
      }
      if (url === undefined) {
        // Not absolute, and no base to resolve it against: a relative address, harmless as it is.
        if (base === undefined && value !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(value)) continue;
        element.removeAttribute(attribute);
      } else if (url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:') element.setAttribute(attribute, url.href);
      else element.removeAttribute(attribute);
    }
  }
}

/**
 * HTML (a mail's HTML part, a feed article, a page's readable part) as
 * Markdown a person can read and edit: addresses cleaned (see
 * `cleanAddresses`), scripts and the like dropped, blank-line runs collapsed.
 * Nesting past MAX_HTML_DEPTH is flattened first (html-nesting.ts): turndown
 * recurses once per level.
 */
export function htmlToMarkdown(html: string, base?: string): string {
  const { document } = parseHTML(`<!doctype html><html><body>${capNesting(html)}</body></html>`);
  const body = document.body as unknown as DomElement;
  for (const name of DROPPED) for (const element of Array.from(body.querySelectorAll(name))) element.remove();
  cleanAddresses(body, base);
  const markdown = turndown().turndown(body as unknown as TurndownService.Node);
  return tidyMarkdown(markdown);
}

