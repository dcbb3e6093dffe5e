/**
 * Characters no common file system or sync tool accepts in a file name
 * (Windows is the strictest), plus those that break Obsidian's wiki links,
 * plus lone UTF-16 surrogates: the file system would store U+FFFD instead,
 * so the name on disk would differ from the one the note was created under.
 */
const FORBIDDEN = /[\\/:*?"<>|#^[\]\u0000-\u001f\u007f\uD800-\uDFFF]/gu;
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
/**
 * Characters that show nothing, or change how the text around them shows:
 * C1 controls, the soft hyphen, bidirectional controls (U+202E turns
 * `a\u202Eexe.md` into what reads as `adm.exe`), zero-width spaces, word
 * joiners and invisible operators, line and paragraph separators, the
 * byte-order mark, interlinear annotations. Left out on purpose: the
 * zero-width joiner and non-joiner (U+200C, U+200D), which emoji sequences
 * and Persian and Indic words need.
 */
const INVISIBLE = /[\u0080-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/gu;
/**
 * How deep a folder the server makes or files into may be. Sixteen levels is
 * far below what a person organises by (PARA, Johnny.Decimal and most vaults
 * use two to four) and keeps a path of ordinary names within the 260
 * characters older Windows tools and sync clients handle, while a request for
 * 200 nested folders is refused.
 */
export const MAX_FOLDER_DEPTH = 16;
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
  let base = normalised.replace(INVISIBLE, '').replace(FORBIDDEN, '-').replace(/\s+/gu, ' ').trim();
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

/**
 * Why a folder path given for a note (`move_note`, a create's folder) breaks
 * the rules a file name made from a title follows, or undefined when it
 * does not: no invisible or bidirectional characters, no name Windows
 * reserves (`con`, `nul`, `com1`, … with any extension), no name ending in
 * a dot or a space (Windows drops them), at most `MAX_FOLDER_DEPTH` levels.
 * Where a title is made safe, a folder name is refused: it may name a folder
 * that exists. Pure; `folderPathProblem` (paths.ts) checks the path itself.
 */
export function folderNameProblem(folder: string): string | undefined {
  const segments = folder.split('/');
  if (segments.length > MAX_FOLDER_DEPTH) return `it is ${segments.length} folders deep, and folders may be at most ${MAX_FOLDER_DEPTH} deep`;
  if (new RegExp(INVISIBLE.source, 'u').test(folder)) return 'it contains invisible or text-direction characters';
  for (const segment of segments) {
    if (RESERVED.test(segment)) return `"${segment}" is a name Windows reserves for a device`;
    if (/[.\s]$/u.test(segment)) return 'a folder name in it ends with a dot or a space, which Windows drops';
  }
  return undefined;
}

/**
 * Why `name`, asked for as a note's new file name (`move_note`'s `name`,
 * without `.md`), breaks the rules a file name made from a title follows,
 * or undefined when it does not: what `fileNameForTitle` would change is
 * refused instead, since a rename should give the note the name asked for
 * or none. Pure.
 */
export function fileNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'it is empty';
  const forbidden = [...new Set(name.match(new RegExp(FORBIDDEN.source, 'gu')) ?? [])];
  const shown = forbidden.filter((c) => /[\\/:*?"<>|#^[\]]/u.test(c));
  if (shown.length > 0) return `it contains ${shown.map((c) => `"${c}"`).join(', ')}, which file names or links cannot hold`;
  if (forbidden.length > 0 || new RegExp(INVISIBLE.source, 'u').test(name)) return 'it contains control, invisible or text-direction characters';
  if (/^[.\s]/u.test(name)) return 'it starts with a dot or a space (a leading dot hides the file from the vault)';
  if (/[.\s]$/u.test(name)) return 'it ends with a dot or a space, which Windows drops';
  if (/\s\s|[^\S ]/u.test(name)) return 'it contains line breaks, tabs, doubled spaces or other spacing than single spaces';
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) return `it is ${Buffer.byteLength(name)} bytes long, and a file name may be at most ${MAX_NAME_BYTES}`;
  if (RESERVED.test(name)) return `"${name}" is a name Windows reserves for a device`;
  return undefined;
}

/**
 * `text` as it may be shown on one line: control, invisible and
 * text-direction characters written as `\u202E`, so that a name cannot
 * reorder or hide what is printed around it. Pure.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/gu, escape).replace(INVISIBLE, escape);
}

function escape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}
