/**
 * The rules of a note's links, as Obsidian reads them: what a wikilink, an
 * embed or a Markdown link points at (`linkPathOf*`), and which note that
 * is (`resolveLink`). Pure: the notes to choose from are handed in.
 *
 * A link is kept as its link path: the target as written, without what
 * follows it (`#Heading`, `^block`, `|shown`, a Markdown link's title), in
 * NFC, with `/` separators, URL-decoded for a Markdown link. Resolving it
 * needs the path of the note it is written in, because a relative link and
 * "the closest note by that name" both depend on where that note lies.
 *
 * Choices made where Obsidian's documentation is silent:
 * - A target that names an attachment by its extension (`.png`, `.pdf`,
 *   `.canvas`, … the formats Obsidian opens itself) is not a note link: it is
 *   neither a link nor an unresolved one. Any other target without `.md`
 *   names the note `target.md`: `[[Version 1.2]]` is `Version 1.2.md`.
 * - `[[Name]]` (a target without a folder) and `[[Sub/Name]]` are looked up
 *   first beside the linking note (`Sub/Name.md` in its folder), then among
 *   every note whose path ends with the target, the closest by folder:
 *   fewest steps from the linking note's folder up to a common folder and
 *   down to the note's, then the shorter path, then the path in code-unit
 *   order (a fixed rule, so every run and machine agree).
 * - `/Folder/Name` is the vault-absolute path, `./Name` and `../Name` are
 *   relative to the linking note's folder, and those are looked up at that
 *   one path only.
 * - Names compare case-insensitively (full case folding, as folder names do),
 *   a name spelt exactly so winning over one that differs only in case.
 * - A Markdown link counts when its destination, decoded, ends in `.md`; a
 *   destination with a scheme (`https:`, `obsidian:`, `mailto:`) or only an
 *   anchor (`#part`) is not a note link. Reference-style links
 *   (`[text][ref]` with `[ref]: Note.md`) are not followed.
 */
import { foldName } from '../storage/names.js';

/** Extensions of the attachments Obsidian opens itself: links to them are not note links. */
const ATTACHMENT_EXTENSIONS = new Set([
  'png', 'jpg', 'jpeg', 'gif', 'bmp', 'svg', 'webp', 'avif',
  'mp3', 'wav', 'm4a', 'ogg', '3gp', 'flac', 'webm', 'mp4', 'ogv', 'mov', 'mkv',
  'pdf', 'canvas', 'base',
]);

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** The link path of a wikilink's or embed's inner text (between the brackets), or undefined when it is no note link. */
export function linkPathOfWikilink(inner: string): string | undefined {
  const bar = inner.indexOf('|');
  let target = bar >= 0 ? inner.slice(0, bar) : inner;
  // In a table the alias bar is escaped (`[[Note\|alias]]`).
  if (bar >= 0 && target.endsWith('\\')) target = target.slice(0, -1);
  return cleanLinkPath(cutSubpath(target));
}

/**
 * The link path of a Markdown link or image destination (as written: `<...>`
 * or bare, backslash escapes in it), or undefined when it is no note link.
 */
export function linkPathOfDestination(destination: string): string | undefined {
  let dest = destination.trim();
  if (dest.startsWith('<') && dest.endsWith('>')) dest = dest.slice(1, -1);
  dest = dest.replace(/\\([!-/:-@[-`{-~])/g, '$1');
  if (dest === '' || dest.startsWith('#') || SCHEME.test(dest)) return undefined;
  const hash = dest.indexOf('#');
  if (hash >= 0) dest = dest.slice(0, hash);
  const query = dest.indexOf('?');
  if (query >= 0) dest = dest.slice(0, query);
  let decoded: string;
  try {
    decoded = decodeURIComponent(dest);
  } catch {
    decoded = dest; // a lone `%` is a character of the name
  }
  if (!/\.md$/i.test(decoded)) return undefined;
  return cleanLinkPath(decoded);
}

/**
 * Where the destination of the inline link tail `(dest "title")` whose `(`
 * is at `open` lies in `s`, `<...>` included; undefined when there is none
 * (a reference `[ref]`).
 */
export function destinationSpan(s: string, open: number): [number, number] | undefined {
  if (s.charAt(open) !== '(') return undefined;
  let k = open + 1;
  while (k < s.length && /\s/.test(s.charAt(k))) k++;
  if (s.charAt(k) === '<') {
    const close = s.indexOf('>', k);
    return close < 0 || s.slice(k, close).includes('\n') ? undefined : [k, close + 1];
  }
  const from = k;
  let depth = 0;
  for (; k < s.length; k++) {
    const c = s.charAt(k);
    if (c === '\\') k++;
    else if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) break;
      depth--;
    } else if (c <= ' ') break;
  }
  return k > from ? [from, k] : undefined;
}

/** The target without its `#heading` or `^block` part. */
function cutSubpath(target: string): string {
  let end = target.length;
  const hash = target.indexOf('#');
  if (hash >= 0) end = hash;
  const caret = target.indexOf('^');
  if (caret >= 0 && caret < end) end = caret;
  return target.slice(0, end);
}

function cleanLinkPath(raw: string): string | undefined {
  const linkPath = raw.trim().replace(/\\/g, '/').normalize('NFC');
  if (linkPath === '' || linkPath === '/' || linkPath.endsWith('/')) return undefined;
  const name = linkPath.slice(linkPath.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot > 0 && ATTACHMENT_EXTENSIONS.has(name.slice(dot + 1).toLowerCase())) return undefined;
  return linkPath;
}

/** The note file a link path names: with `.md` added unless it has it. */
function wantedFile(linkPath: string): string {
  return /\.md$/i.test(linkPath) ? linkPath : `${linkPath}.md`;
}

/**
 * The key notes and links are matched by: the folded file name without
 * `.md`. A note's key is that of its path; a link's, that of its last
 * segment. Only notes with a link's key can be what it names.
 */
export function linkKey(pathOrLink: string): string {
  const name = pathOrLink.slice(pathOrLink.lastIndexOf('/') + 1);
  return foldName(/\.md$/i.test(name) ? name.slice(0, -3) : name);
}

/** `a/b/../c` → `a/c`; undefined when `..` climbs above the vault root. */
function normalizeSegments(joined: string): string | undefined {
  const out: string[] = [];
  for (const segment of joined.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(segment);
  }
  return out.join('/');
}

/** The folder part of a vault path: `''` at the root. */
export function folderPart(notePath: string): string {
  const slash = notePath.lastIndexOf('/');
  return slash < 0 ? '' : notePath.slice(0, slash);
}

/** Steps from folder `from` up to the folder both lie in and down to `to`. */
function folderDistance(from: string, to: string): number {
  const a = from === '' ? [] : from.split('/');
  const b = to === '' ? [] : to.split('/');
  let common = 0;
  while (common < a.length && common < b.length && foldName(a[common] as string) === foldName(b[common] as string)) common++;
  return a.length - common + (b.length - common);
}

/** The one of `paths` that is `wanted`: spelt exactly so, else the first that folds alike. */
function exactly(wanted: string, paths: readonly string[]): string | undefined {
  if (paths.includes(wanted)) return wanted;
  const key = foldName(wanted);
  return paths.find((candidate) => foldName(candidate) === key);
}

/**
 * The note a link path written in the note at `sourcePath` stands for,
 * among `candidates` (the paths of the notes with the link's `linkKey`; more
 * may be passed, they are never chosen wrongly), or undefined when none.
 */
export function resolveLink(linkPath: string, sourcePath: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0) return undefined;
  const wanted = wantedFile(linkPath);
  const folder = folderPart(sourcePath);
  if (wanted.startsWith('/')) {
    const absolute = normalizeSegments(wanted);
    return absolute === undefined ? undefined : exactly(absolute, candidates);
  }
  if (wanted.startsWith('./') || wanted.startsWith('../')) {
    const relative = normalizeSegments(`${folder}/${wanted}`);
    return relative === undefined ? undefined : exactly(relative, candidates);
  }
  const clean = normalizeSegments(wanted);
  if (clean === undefined || clean === '') return undefined;
  const beside = exactly(folder === '' ? clean : `${folder}/${clean}`, candidates);
  if (beside !== undefined) return beside;
  const suffix = foldName(clean);
  const tail = `/${suffix}`;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const key = foldName(candidate);
    if (key !== suffix && !key.endsWith(tail)) continue;
    const distance = folderDistance(folder, folderPart(candidate));
    if (best === undefined || distance < bestDistance || (distance === bestDistance && closerTie(candidate, best))) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function closerTie(candidate: string, best: string): boolean {
  if (candidate.length !== best.length) return candidate.length < best.length;
  return candidate < best;
}
