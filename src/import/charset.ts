/** Fetched bytes as text: the charset rules the feed and page importers share, and the windows-1252 repair e-mail needs too. */

/**
 * What windows-1252 means by bytes 0x80–0x9F (the WHATWG table), by position.
 * Node's TextDecoder (since 20.18.3 and 22.13.0, nodejs/node#56542 and
 * #60888) decodes windows-1252, and so every `iso-8859-1`, `latin1` and
 * `ascii` label, as ISO-8859-1: curly quotes, dashes and € come out as C1
 * control characters. Old feeds, pages and mail are exactly where those
 * bytes are.
 */
const WINDOWS_1252_C1 = '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** Whether this runtime's TextDecoder has that bug. */
export const DECODER_LOSES_WINDOWS_1252 = new TextDecoder('windows-1252').decode(Uint8Array.of(0x80)) !== '\u20ac';

/** C1 control characters put back to what windows-1252 means by their bytes. */
export function windows1252C1(text: string): string {
  return text.replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_C1[c.charCodeAt(0) - 0x80] ?? c);
}

function decodeWindows1252(bytes: Uint8Array): string {
  return windows1252C1(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'));
}

/** The encoding a label names, in WHATWG terms ('windows-1252' for 'latin1'), or undefined when TextDecoder does not know it. */
function encodingOf(label: string | undefined): string | undefined {
  if (label === undefined || label.trim() === '') return undefined;
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
}

/** The `charset` parameter of a Content-Type header. */
function charsetOfContentType(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^;\s]+))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

function bomEncoding(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

/**
 * Bytes from the web as text. A byte order mark wins over everything (as in
 * the HTML standard and RFC 7303 §3.2: servers often send a default charset
 * that the file's own BOM contradicts); then the Content-Type header's
 * charset; then what the document declares about itself (`declared`, given
 * the first bytes read as Latin-1, which any ASCII-compatible declaration
 * survives); else UTF-8. A charset TextDecoder does not know is taken as
 * UTF-8, the likeliest truth on today's web. Undecodable bytes become U+FFFD
 * rather than failing the import.
 */
export function decodeBytes(bytes: Uint8Array, contentType: string | undefined, declared: (head: string) => string | undefined): string {
  let encoding = bomEncoding(bytes) ?? encodingOf(charsetOfContentType(contentType));
  if (encoding === undefined) {
    const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 2048)).toString('latin1');
    encoding = encodingOf(declared(head));
    // A declaration readable as ASCII cannot be in UTF-16, whatever it says (the HTML standard's rule too).
    if (encoding === 'utf-16le' || encoding === 'utf-16be') encoding = undefined;
  }
  encoding ??= 'utf-8';
  if (encoding === 'windows-1252') return decodeWindows1252(bytes);
  return new TextDecoder(encoding).decode(bytes);
}
