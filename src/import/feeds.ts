import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { replaceFileAtomic } from '../storage/atomic.js';
import { dexiDir } from '../storage/dexi-dir.js';
import { withFileLock } from '../storage/file-lock.js';
import { fileNameForTitle, folderNameProblem, printable } from '../storage/filenames.js';
import { folderPathProblem } from '../storage/paths.js';
import { convertFeed, ConversionError } from './convert-pool.js';
import type { FeedArticle, ParsedFeed } from './feed.js';
import { decodeFeedBytes, FeedError } from './feed-bytes.js';
import { fetchLimited, FetchError, type FetchResult } from './fetch.js';
import type { ImportRun } from './import-run.js';
import type { ImportReport } from './report.js';
import { DexiError } from '../vault/errors.js';

/** A feed the person subscribed to, as kept in `.dexi/feeds.json`. */
export interface Subscription {
  url: string;
  /** The feed's own title when it was added. */
  name: string;
  /** Where its articles go, vault-relative. */
  folder: string;
  added: string;
  /** The validators of the last answer, sent back so that an unchanged feed costs one 304. */
  etag?: string;
  lastModified?: string;
  lastPulled?: string;
  /** Why the last pull failed, until one succeeds. */
  lastError?: string;
}

export class FeedsError extends DexiError {}

/** Limits on fetching a feed: large enough for any real feed's full-text archive, small enough that none can exhaust memory. */
export const FEED_LIMITS = { maxBytes: 10 * 1024 * 1024, timeoutMs: 30_000, maxRedirects: 5 };
const FEED_ACCEPT = 'application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, application/json;q=0.8, */*;q=0.5';

export function feedsFile(vaultRoot: string): string {
  return path.join(dexiDir(vaultRoot), 'feeds.json');
}

/** The default folder of a feed's articles: `Feeds/<its name>`, the name made a folder name. */
export function defaultFeedFolder(name: string): string {
  return `Feeds/${fileNameForTitle(name).base}`;
}

function parseSubscriptions(text: string, file: string): Subscription[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new FeedsError(`${file} is not valid JSON; fix or remove it (it lists the feeds you subscribed to).`);
  }
  const feeds = (data as { feeds?: unknown } | null)?.feeds;
  if (!Array.isArray(feeds) || !feeds.every((feed) => typeof (feed as Subscription | null)?.url === 'string' && typeof (feed as Subscription).folder === 'string')) {
    throw new FeedsError(`${file} does not hold a list of feeds ({"feeds": [{"url": …, "folder": …}]}); fix or remove it.`);
  }
  return feeds as Subscription[];
}

/** The subscriptions, in the order they were added; none before the first `feeds add`. */
export async function readSubscriptions(vaultRoot: string): Promise<Subscription[]> {
  const file = feedsFile(vaultRoot);
  try {
    return parseSubscriptions(await readFile(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Change the subscriptions, one process at a time (a pulling server and a `feeds add` may run together), atomically. */
async function updateSubscriptions<T>(vaultRoot: string, change: (feeds: Subscription[]) => T): Promise<T> {
  const file = feedsFile(vaultRoot);
  await mkdir(path.dirname(file), { recursive: true });
  return withFileLock(file, (message) => new FeedsError(message), async () => {
    const feeds = await readSubscriptions(vaultRoot);
    const result = change(feeds);
    await replaceFileAtomic(file, `${JSON.stringify({ feeds }, null, 2)}\n`);
    return result;
  });
}

/** A feed address as given: a web address, compared in the form URL gives it. */
export function feedUrl(given: string): string {
  let url: URL;
  try {
    url = new URL(given.trim());
  } catch {
    throw new FeedsError(`"${given}" is not a web address; give the feed's full address, such as https://example.com/feed.xml.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FeedsError(`Only http and https feeds can be followed, not "${given}".`);
  return url.href;
}

/**
 * An article's identity across pulls. A global id (a URL, a `tag:` or
 * `urn:` URI) names the article wherever it appears; a bare one ("42") only
 * within its feed.
 */
export function articleKey(feed: string, article: FeedArticle): string {
  return article.key.includes(':') ? article.key : `${feed}\n${article.key}`;
}

/** Fetch a feed, conditionally when validators are known. A 304 gives undefined. */
async function fetchFeed(subscription: Pick<Subscription, 'url' | 'etag' | 'lastModified'>): Promise<{ feed: ParsedFeed; response: FetchResult } | undefined> {
  const headers: Record<string, string> = {};
  if (subscription.etag !== undefined) headers['If-None-Match'] = subscription.etag;
  if (subscription.lastModified !== undefined) headers['If-Modified-Since'] = subscription.lastModified;
  const response = await fetchLimited(subscription.url, { ...FEED_LIMITS, accept: FEED_ACCEPT, headers });
  if (response.status === 304) return undefined;
  const text = decodeFeedBytes(response.body, response.headers['content-type']);
  return { feed: await convertFeed(text, response.url), response };
}

/** Import a feed's articles that are new; returns how many notes were made. */
async function importArticles(run: ImportRun, subscription: Subscription, feed: ParsedFeed, report: ImportReport): Promise<number> {
  const before = run.counts.added;
  for (const article of feed.articles) {
    const fields: Record<string, unknown> = { source: 'feed' };
    if (article.url !== undefined) fields.source_url = article.url;
    fields.feed = subscription.name;
    if (article.author !== undefined) fields.author = article.author;
    const outcome = await run.add({
      kind: 'feed',
      key: articleKey(subscription.url, article),
      title: article.title,
      body: article.body === '' ? '' : `${article.body}\n`,
      folder: subscription.folder,
      fields,
      ...(article.date ? { created: article.date } : {}),
    });
    if (outcome.problem !== undefined) report.problem(`The article "${article.title}" of ${subscription.name} was not imported: ${outcome.problem}`);
  }
  return run.counts.added - before;
}

function validators(response: FetchResult): Pick<Subscription, 'etag' | 'lastModified'> {
  const kept: Pick<Subscription, 'etag' | 'lastModified'> = {};
  if (response.headers.etag !== undefined) kept.etag = response.headers.etag;
  if (response.headers['last-modified'] !== undefined) kept.lastModified = response.headers['last-modified'];
  return kept;
}

/**
 * Why fetching or reading a feed failed, as the sentence to show. Anything
 * that goes wrong there is that feed's problem, never the end of a pull.
 */
function failure(error: unknown): string {
  if (error instanceof FetchError || error instanceof FeedError || error instanceof ConversionError) return error.message;
  return `The feed could not be read: ${error instanceof Error ? error.message : String(error)}.`;
}

/**
 * `feeds add URL [--folder F]`: check that the address serves a feed,
 * subscribe, and import its current articles at once, as a feed reader
 * shows a feed's articles as soon as it is added.
 */
export async function addFeed(run: ImportRun, given: string, folder: string | undefined, report: ImportReport, now: Date): Promise<Subscription> {
  const url = feedUrl(given);
  if (folder !== undefined) {
    const problem = folderPathProblem(folder) ?? folderNameProblem(folder);
    if (problem) throw new FeedsError(`Cannot put the feed's articles in "${printable(folder)}": ${problem}.`);
  }
  const known = (await readSubscriptions(run.root)).find((feed) => feed.url === url);
  if (known) throw new FeedsError(`You already follow ${url} ("${known.name}", into ${known.folder}/); "dexi-vault feeds pull" brings its new articles.`);
  let fetched;
  try {
    fetched = await fetchFeed({ url });
  } catch (error) {
    throw new FeedsError(`Did not subscribe to ${url}: ${failure(error)}`);
  }
  if (!fetched) throw new FeedsError(`Did not subscribe to ${url}: the server answered "not modified" to a first request.`);
  const { feed, response } = fetched;
  const subscription: Subscription = { url, name: feed.title, folder: folder ?? defaultFeedFolder(feed.title), added: now.toISOString() };
  await updateSubscriptions(run.root, (feeds) => {
    if (feeds.some((other) => other.url === url)) throw new FeedsError(`You already follow ${url}.`);
    feeds.push(subscription);
  });
  report.progress(0, feed.articles.length);
  const added = await importArticles(run, subscription, feed, report);
  // The validators only once every article is in: an add stopped halfway must not make the next pull a 304.
  await updateSubscriptions(run.root, (feeds) => {
    const stored = feeds.find((other) => other.url === url);
    if (stored) Object.assign(stored, validators(response), { lastPulled: now.toISOString() });
  });
  report.finish(`Subscribed to "${feed.title}" (${url}); its articles go to ${subscription.folder}/: ${added.toLocaleString('en')} of ${feed.articles.length.toLocaleString('en')} imported (${run.describeCounts()}).`);
  return subscription;
}

/** `feeds remove URL`: stop following a feed; the notes already made stay. */
export async function removeFeed(vaultRoot: string, given: string): Promise<Subscription> {
  const url = feedUrl(given);
  return updateSubscriptions(vaultRoot, (feeds) => {
    const index = feeds.findIndex((feed) => feed.url === url);
    const gone = feeds[index];
    if (index < 0 || gone === undefined) {
      const list = feeds.length === 0 ? 'You follow no feeds yet.' : `You follow: ${feeds.map((feed) => feed.url).join(', ')}.`;
      throw new FeedsError(`You do not follow ${url}. ${list}`);
    }
    feeds.splice(index, 1);
    return gone;
  });
}

export interface PullSummary {
  feeds: number;
  unchanged: number;
  failed: number;
  added: number;
}

/**
 * `feeds pull`: every subscription, with conditional requests, so a feed
 * that has not changed costs one 304. A feed that fails is reported in a
 * sentence and the rest are pulled.
 */
export async function pullFeeds(run: ImportRun, report: ImportReport, now: () => Date): Promise<PullSummary> {
  const subscriptions = await readSubscriptions(run.root);
  const summary: PullSummary = { feeds: subscriptions.length, unchanged: 0, failed: 0, added: 0 };
  let done = 0;
  report.progress(0, subscriptions.length);
  for (const subscription of subscriptions) {
    let outcome: Partial<Subscription>;
    let fetched: Awaited<ReturnType<typeof fetchFeed>> | { reason: string };
    try {
      fetched = await fetchFeed(subscription);
    } catch (error) {
      fetched = { reason: failure(error) };
    }
    if (fetched === undefined) {
      summary.unchanged++;
      outcome = { lastPulled: now().toISOString() };
    } else if ('reason' in fetched) {
      summary.failed++;
      report.problem(`Could not pull "${subscription.name}": ${fetched.reason}`);
      outcome = { lastError: fetched.reason };
    } else {
      // Errors while adding notes (the note cap, another import) stop the whole pull, as they would any import.
      summary.added += await importArticles(run, subscription, fetched.feed, report);
      outcome = { ...validators(fetched.response), lastPulled: now().toISOString() };
    }
    await updateSubscriptions(run.root, (feeds) => {
      const stored = feeds.find((feed) => feed.url === subscription.url);
      if (!stored) return; // removed while it was pulled
      if (outcome.lastError === undefined) delete stored.lastError;
      Object.assign(stored, outcome);
    });
    report.progress(++done, subscriptions.length);
  }
  return summary;
}

/** "Pulled 2 feeds: 5 new articles, 1 unchanged, 1 failed." */
export function describePull(summary: PullSummary): string {
  if (summary.feeds === 0) return 'You follow no feeds yet; add one with: dexi-vault feeds add URL';
  const parts = [`${summary.added.toLocaleString('en')} new ${summary.added === 1 ? 'article' : 'articles'}`];
  if (summary.unchanged > 0) parts.push(`${summary.unchanged} unchanged`);
  if (summary.failed > 0) parts.push(`${summary.failed} failed`);
  return `Pulled ${summary.feeds} ${summary.feeds === 1 ? 'feed' : 'feeds'}: ${parts.join(', ')}.`;
}
