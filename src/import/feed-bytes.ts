import { decodeBytes } from './charset.js';
import { DexiError } from '../vault/errors.js';

/*
 * What the main thread needs of a feed: its bytes as text, and the error
 * that says why a document is not a feed. Apart from feed.ts, which parses
 * feeds with feedsmith and linkedom on the conversion worker
 * (convert-worker.ts): a module the server imports is loaded, with all it
 * imports, when the server starts, and those two took some 100–200 ms of
 * every start of `serve` while they sat behind feeds.ts.
 */

/** Why a document is not a feed, as one plain sentence to show a person. */
export class FeedError extends DexiError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'FeedError';
  }
}

/** The `encoding` of an XML declaration at the very start of a document. */
function xmlDeclaredEncoding(head: string): string | undefined {
  return /^\s*<\?xml\s[^>]*?\bencoding\s*=\s*["']([^"']+)["']/.exec(head)?.[1];
}

/** A fetched feed's bytes as text: by its BOM, the Content-Type charset, the XML declaration's encoding, else UTF-8. */
export function decodeFeedBytes(bytes: Buffer, contentType?: string): string {
  return decodeBytes(bytes, contentType, xmlDeclaredEncoding);
}
