import { decodeBytes } from './charset.js';

/*
 * A fetched page's bytes as text, apart from page.ts (Readability and
 * linkedom, which only the conversion worker needs): the bookmark importer
 * decodes pages on the main thread, and what it imports is loaded at every
 * start of the server (see feed-bytes.ts).
 */

/**
 * The charset a page declares in its first 2 KB: `<meta charset>`, or
 * `<meta http-equiv="Content-Type" content="…; charset=…">`. Comments are
 * skipped, so that a commented-out declaration does not count.
 */
function metaCharset(head: string): string | undefined {
  const markup = head.replace(/<!--[\s\S]*?(?:-->|$)/g, '');
  for (const [tag] of markup.matchAll(/<meta\b[^>]*>/gi)) {
    const attributes = tag.replace(/\bcontent\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi, '');
    const bare = /\scharset\s*=\s*["']?\s*([^"'\s;/>]+)/i.exec(attributes);
    if (bare) return bare[1];
    if (!/\bhttp-equiv\s*=\s*["']?\s*content-type/i.test(attributes)) continue;
    const content = /\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
    const charset = /charset\s*=\s*["']?\s*([^"'\s;]+)/i.exec(content?.[1] ?? content?.[2] ?? content?.[3] ?? '');
    if (charset) return charset[1];
  }
  return undefined;
}

/** A fetched page's bytes as text: by its BOM, the Content-Type charset, a `<meta>` charset in its first 2 KB, else UTF-8. */
export function decodePageBytes(bytes: Buffer, contentType?: string): string {
  return decodeBytes(bytes, contentType, metaCharset);
}
