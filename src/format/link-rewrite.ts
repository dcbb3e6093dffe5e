/**
 * Rewriting a note's links after a move, keeping every other byte: the
 * rules of what to write in place of a link that no longer names the note it
 * named. Pure: what a link path resolves to after the move is asked of
 * `resolve`.
 *
 * Only the link path inside a link changes: `[[Old/Name#Part|shown]]` keeps
 * its heading, alias and brackets, `[t](Old/Name.md#x "title")` its label,
 * fragment and title. Occurrences are found in the raw text and then checked
 * to be links as the Markdown pass reads them (a link in a code span or a
 * comment is text, and stays as it is): each candidate's path is swapped
 * for a probe name, and only the probes the pass reports as links are links.
 * Frontmatter is never touched.
 */
import { splitFrontmatter } from './frontmatter.js';
import { foldName } from '../storage/names.js';
import { destinationSpan, folderPart, linkPathOfDestination, linkPathOfWikilink } from './links.js';
import { extractLinks } from './markdown.js';

/** Where a link's path lies in the text, and what it is. */
interface Occurrence {
  from: number;
  to: number;
  linkPath: string;
  kind: 'wiki' | 'markdown';
  /** A Markdown destination in `<...>`: written as it is, not URL-encoded. */
  angle: boolean;
}

/** As the Markdown pass reads one: `[[x]](text)` is a wikilink followed by text. */
const WIKILINK = /\[\[([^[\]\n]+)\]\]/g;

function occurrencesIn(body: string): Occurrence[] {
  const found: Occurrence[] = [];
  for (const match of body.matchAll(WIKILINK)) {
    const inner = match[1] as string;
    const linkPath = linkPathOfWikilink(inner);
    if (linkPath === undefined) continue;
    const innerFrom = (match.index ?? 0) + 2;
    const bar = inner.indexOf('|');
    let end = bar >= 0 ? inner.slice(0, bar).replace(/\\$/, '').length : inner.length;
    const hash = inner.slice(0, end).search(/[#^]/);
    if (hash >= 0) end = hash;
    let start = 0;
    while (start < end && /\s/.test(inner.charAt(start))) start++;
    while (end > start && /\s/.test(inner.charAt(end - 1))) end--;
    found.push({ from: innerFrom + start, to: innerFrom + end, linkPath, kind: 'wiki', angle: false });
  }
  for (let at = body.indexOf('](', 0); at >= 0; at = body.indexOf('](', at + 2)) {
    const span = destinationSpan(body, at + 1);
    if (!span) continue;
    const written = body.slice(span[0], span[1]);
    const linkPath = linkPathOfDestination(written);
    if (linkPath === undefined) continue;
    const angle = written.startsWith('<');
    const inner = angle ? written.slice(1, -1) : written;
    const cut = inner.search(/[#?]/);
    const from = span[0] + (angle ? 1 : 0);
    found.push({ from, to: from + (cut >= 0 ? cut : inner.length), linkPath, kind: 'markdown', angle });
  }
  return found.sort((a, b) => a.from - b.from);
}

/** Which of `candidates` the Markdown pass reads as links: each is swapped for a probe name, and the probes that come out as links are. */
function realLinks(body: string, candidates: readonly Occurrence[]): Occurrence[] {
  let probe = '';
  let at = 0;
  candidates.forEach((occurrence, n) => {
    probe += body.slice(at, occurrence.from) + (occurrence.kind === 'wiki' ? `dexiprobe${n}` : `dexiprobe${n}.md`);
    at = occurrence.to;
  });
  probe += body.slice(at);
  const links = new Set(extractLinks(probe));
  return candidates.filter((occurrence, n) => links.has(occurrence.kind === 'wiki' ? `dexiprobe${n}` : `dexiprobe${n}.md`));
}

/** The path from folder `from` to the note at `to`: `Name.md`, `Sub/Name.md`, `../Other/Name.md`. */
function relativePath(from: string, to: string): string {
  const a = from === '' ? [] : from.split('/');
  const b = to.split('/');
  let common = 0;
  while (common < a.length && common < b.length - 1 && a[common] === b[common]) common++;
  return [...Array<string>(a.length - common).fill('..'), ...b.slice(common)].join('/');
}

/** A path as a Markdown destination: what CommonMark or Obsidian would read otherwise is percent-encoded, other characters kept. */
function encodeDestination(linkPath: string): string {
  // encodeURIComponent leaves `(` and `)` as they are, and an unmatched one would end the destination.
  return linkPath.replace(/[\s%()<>#?[\]\\^`{|}]/gu, (c) => (c === '(' ? '%28' : c === ')' ? '%29' : encodeURIComponent(c)));
}

/**
 * Which wikilink path may be written for a note: `'full'`, its whole vault
 * path (`Folder/Sub/Name`), or a test that no note but the one at `target`
 * has `form` as the end of its path, so that the shortest such end is
 * written (`uniqueForm`).
 *
 * Security: a link rewritten in a note a bounded connection sees is text it
 * reads, and an outside note must not show, not even in the form of a link.
 * The shortest unique form depends on every note in the vault (a same-name
 * note outside the boundary makes `Name` into `Folder/Name`), so such a
 * link gets `'full'`, which depends on its target alone.
 */
export type FormRule = 'full' | ((form: string, target: string) => boolean);

/**
 * Whether no note but the one at `target` has `form` (a link path without
 * `./`, `../` or a leading `/`) as the end of its path, compared as links
 * are (case-insensitively, `.md` left off): then `form` names it
 * unambiguously in the vault, whatever the linking note's place.
 * `sameName` holds the paths of the notes whose file name folds like the
 * form's last segment (the only ones that can end with it). Pure.
 */
export function uniqueForm(form: string, target: string, sameName: readonly string[]): boolean {
  const wanted = foldName(form.replace(/\.md$/i, ''));
  const tail = `/${wanted}`;
  for (const other of sameName) {
    if (other === target) continue;
    const key = foldName(other.replace(/\.md$/i, ''));
    if (key === wanted || key.endsWith(tail)) return false;
  }
  return true;
}

/**
 * What to write for a link path that should name the note at `target`, in
 * the form of the link it replaces: a wikilink gets, by `rule`, its whole
 * vault path or the shortest end of it that no other note's path ends with
 * (`Name`, `Folder/Name`), as Obsidian writes the shortest unique path; the
 * vault-absolute `/Folder/Name` when that does not name it from
 * `sourcePath`. A relative wikilink (`./`, `../`) stays relative, an
 * absolute one absolute; a Markdown link keeps its form (vault-absolute
 * when it was, else relative to the linking note). `.md` stays on where it
 * was written. Undefined when no form names it, or its name cannot be
 * written in a wikilink.
 */
export function replacementLinkPath(
  old: Pick<Occurrence, 'linkPath' | 'kind'>,
  sourcePath: string,
  target: string,
  resolve: (linkPath: string, sourcePath: string) => string | undefined,
  rule: FormRule,
): string | undefined {
  const withMd = /\.md$/i.test(old.linkPath);
  const bare = target.replace(/\.md$/i, '');
  const shaped = (linkPath: string): string => (withMd || old.kind === 'markdown' ? `${linkPath}${target.slice(bare.length)}` : linkPath);
  const names = (linkPath: string): boolean => resolve(linkPath, sourcePath) === target;
  if (old.kind === 'markdown') {
    const written = old.linkPath.startsWith('/') ? `/${target}` : relativePath(folderPart(sourcePath), target);
    const form = old.linkPath.startsWith('./') && !written.startsWith('../') ? `./${written}` : written;
    return names(form) ? form : names(`/${target}`) ? `/${target}` : undefined;
  }
  if (/[|#^[\]]/.test(bare)) return undefined;
  if (old.linkPath.startsWith('./') || old.linkPath.startsWith('../')) {
    const relative = shaped(relativePath(folderPart(sourcePath), bare));
    const form = relative.startsWith('../') ? relative : `./${relative}`;
    if (names(form)) return form;
  } else if (!old.linkPath.startsWith('/')) {
    const segments = bare.split('/');
    for (let k = rule === 'full' ? 0 : segments.length - 1; k >= 0; k--) {
      const form = shaped(segments.slice(k).join('/'));
      if (names(form) && (rule === 'full' || rule(form, target))) return form;
    }
  }
  const absolute = shaped(`/${bare}`);
  return names(absolute) ? absolute : undefined;
}

/**
 * `content` with each link whose link path is a key of `targets` rewritten to
 * name the note at that key's value (a vault path), as `replacementLinkPath`
 * writes it by `rule`; every other byte as it was. Undefined when nothing changes.
 */
export function rewriteLinks(
  content: string,
  sourcePath: string,
  targets: ReadonlyMap<string, string>,
  resolve: (linkPath: string, sourcePath: string) => string | undefined,
  rule: FormRule,
): string | undefined {
  const split = splitFrontmatter(content);
  const body = split.body;
  const candidates = occurrencesIn(body).filter((occurrence) => targets.has(occurrence.linkPath));
  if (candidates.length === 0) return undefined;
  let out = '';
  let at = 0;
  for (const occurrence of realLinks(body, candidates)) {
    const target = targets.get(occurrence.linkPath) as string;
    const next = replacementLinkPath(occurrence, sourcePath, target, resolve, rule);
    if (next === undefined) continue;
    const written = occurrence.kind === 'markdown' && !occurrence.angle ? encodeDestination(next) : next;
    out += body.slice(at, occurrence.from) + written;
    at = occurrence.to;
  }
  if (at === 0) return undefined;
  return content.slice(0, split.bodyStart) + out + body.slice(at);
}
