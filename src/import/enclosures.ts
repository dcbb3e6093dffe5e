/**
 * A file a feed item carries: a podcast's episode (RSS `<enclosure>`, Atom
 * `<link rel="enclosure">`, JSON Feed `attachments`). The file itself is not
 * fetched: it is often hundreds of megabytes, and the note keeps its address.
 */
export interface Enclosure {
  /** Absolute, http or https only: the feed reader has made it so (or left it undefined). */
  url: string | undefined;
  /** Its media type, as the feed says (`audio/mpeg`). */
  type?: string | undefined;
  /** Its size in bytes, as the feed says. */
  length?: number | string | undefined;
  title?: string | undefined;
  /** Its playing time, as the feed says. */
  seconds?: number | string | undefined;
}

/** More would be a feed listing files, not an article carrying a few. */
const MOST_SHOWN = 10;

function positive(value: number | string | undefined): number | undefined {
  const number = typeof value === 'string' ? Number(value.trim()) : value;
  return number !== undefined && Number.isFinite(number) && number > 0 ? number : undefined;
}

/** Bytes as a person reads a download's size: `850 KB`, `3.4 MB`, `120 MB` (decimal units, as players and stores show). */
export function sizeText(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const shown = unit === 0 || value >= 10 ? Math.round(value).toString() : value.toFixed(1).replace(/\.0$/, '');
  return `${shown} ${units[unit] ?? ''}`;
}

/** A playing time as `42 min`, `1 h 5 min`, `50 s`. */
export function durationText(seconds: number): string {
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole} s`;
  const minutes = Math.round(whole / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h${minutes % 60 > 0 ? ` ${minutes % 60} min` : ''}`;
}

/** Text in a link's brackets, shown as it is: nothing in it opens markup, a tag or a comment. */
function linkText(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/[\\[\]*_`<>#@|~%!&$()]/g, '\\$&');
}

/** What a link to the file says: the feed's title for it, else the file's name, else the address's host. */
function nameOf(enclosure: Enclosure, url: URL): string {
  const title = enclosure.title?.trim();
  if (title) return title;
  const last = url.pathname.split('/').filter(Boolean).pop();
  if (last !== undefined) {
    try {
      return decodeURIComponent(last);
    } catch {
      return last;
    }
  }
  return url.host;
}

/** The address as a link destination: parentheses, which could end it early, percent-encoded. */
function destination(url: URL): string {
  return url.href.replace(/\(/g, '%28').replace(/\)/g, '%29');
}

/**
 * The enclosures as Markdown, a paragraph each: `Enclosure: [episode-12.mp3](https://…)
 * (audio/mpeg, 12 MB, 42 min)`; '' when there is none with a web address. Each address once.
 */
export function enclosuresMarkdown(enclosures: readonly Enclosure[]): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const enclosure of enclosures) {
    if (enclosure.url === undefined || lines.length >= MOST_SHOWN) continue;
    let url: URL;
    try {
      url = new URL(enclosure.url);
    } catch {
      continue;
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || seen.has(url.href)) continue;
    seen.add(url.href);
    const facts: string[] = [];
    const type = enclosure.type?.trim();
    if (type && /^[\w.+-]+\/[\w.+-]+$/.test(type)) facts.push(type.toLowerCase());
    const bytes = positive(enclosure.length);
    if (bytes !== undefined) facts.push(sizeText(bytes));
    const seconds = positive(enclosure.seconds);
    if (seconds !== undefined) facts.push(durationText(seconds));
    lines.push(`Enclosure: [${linkText(nameOf(enclosure, url)) || 'file'}](${destination(url)})${facts.length > 0 ? ` (${facts.join(', ')})` : ''}`);
  }
  return lines.join('\n\n');
}
