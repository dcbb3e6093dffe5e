/**
 * Characters no common file system or sync tool accepts in a file name
 * (Windows is the strictest), plus those that break Obsidian's wiki links,
 * plus lone UTF-16 surrogates: the file system would store U+FFFD instead,
 * so the name on disk would differ from the one the note was created under.
 */
const FORBIDDEN = /[\\/:*?"<>|#^[\]\u0000-\u001f\u007f\uD800-\uDFFF]/gu;
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
/** Bytes, leaving room for a ` 999` suffix and `.md` under the usual 255. */
const MAX_NAME_BYTES = 200;

export interface FileName {
  /** The name without `.md`. */
  base: string;
  /** True when the name holds the title exactly, so no `title` key is needed. */
  exact: boolean;
}

function truncateUtf8(text: string, maxBytes: number): string {
  let bytes = 0;
  let out = '';
  for (const char of text) {
    bytes += Buffer.byteLength(char);
    if (bytes > maxBytes) break;
    out += char;
  }
  return out;
}

/** Turn a note title into a safe file name (without extension). */
export function fileNameForTitle(title: string): FileName {
  const normalised = title.normalize('NFC');
  let base = normalised.replace(FORBIDDEN, '-').replace(/\s+/gu, ' ').trim();
  // A leading dot would make the note a hidden file that is not part of the
  // vault; trailing dots and spaces are dropped by Windows.
  base = base.replace(/^[.\s]+/u, '').replace(/[.\s]+$/u, '');
  base = truncateUtf8(base, MAX_NAME_BYTES).trim();
  if (RESERVED.test(base)) base = `${base}_`;
  if (base === '') base = 'Untitled';
  return { base, exact: base === title };
}

/** The candidate names for a title when the first is taken: `Name`, `Name 2`, `Name 3`, … */
export function numberedName(base: string, attempt: number): string {
  return attempt <= 1 ? base : `${base} ${attempt}`;
}
