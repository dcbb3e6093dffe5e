import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { access, readFile, readdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFeed, describePull, FeedsError, pullFeeds, readSubscriptions, removeFeed } from '../../src/import/feeds.js';
import { importBookmarks } from '../../src/import/import-bookmarks.js';
import { importEmail } from '../../src/import/import-email.js';
import { ImportRun } from '../../src/import/import-run.js';
import type { ImportReport } from '../../src/import/report.js';
import { connect, removeDir, tempDir, waitForEmbeddings, writeVault, type Harness } from '../support/helpers.js';

interface Collected extends ImportReport {
  problems: string[];
  summaries: string[];
}

function collect(): Collected {
  const problems: string[] = [];
  const summaries: string[] = [];
  return { problems, summaries, progress: () => undefined, problem: (line) => problems.push(line), finish: (line) => summaries.push(line) };
}

interface Item {
  id: string;
  title: string;
  source: string;
  source_url?: string;
  folder?: string;
  tags: string[];
  created: string;
}

async function listed(harness: Harness, source: string): Promise<Item[]> {
  const page = await harness.ok<{ items: Item[] }>('list_notes', { source, size: 50 });
  return page.items;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** Notes under a folder of the vault, as relative paths. */
async function notesIn(dir: string, folder: string): Promise<string[]> {
  const names = await readdir(path.join(dir, folder), { recursive: true }).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith('.md')).sort();
}

async function start(dir: string, semantic = false): Promise<{ harness: Harness; run: () => Promise<ImportRun> }> {
  const harness = await connect({ dir, ...(semantic ? { semantic: true } : {}) });
  return { harness, run: () => ImportRun.start(harness.runtime.own, { noteCap: null }) };
}

const BOOKMARKS = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
    <DT><H3 ADD_DATE="1700000000" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks bar</H3>
    <DL><p>
        <DT><A HREF="https://garden.example/tomatoes" ADD_DATE="1700000000">Growing tomatoes: a "how-to" &amp; more</A>
        <DT><H3>Dev &amp; Tools</H3>
        <DL><p>
            <DT><H3>Rust / C++</H3>
            <DL><p>
                <DT><A HREF="https://lang.example/borrow?x=1&amp;y=2#part" ADD_DATE="1700100000" TAGS="ownership">Borrowing — ünïcödé explained</A>
                <DD>Lifetimes, in plain words. See #borrowck and &lt;b&gt;this&lt;/b&gt;.
            </DL><p>
            <DT><A HREF="javascript:alert(1)">A bookmarklet</A>
        </DL><p>
    </DL><p>
    <DT><H3>Reading</H3>
    <DL><p>
        <DT><A HREF="https://lang.example/borrow?x=1&amp;y=2#part" ADD_DATE="1690000000">Borrowing, filed twice</A>
        <DT><A HREF="https://news.example/clipped" ADD_DATE="1700200000">Already clipped</A>
    </DL><p>
</DL><p>
`;

describe('import bookmarks', () => {
  let dir: string;
  let harness: Harness;
  let run: () => Promise<ImportRun>;

  beforeAll(async () => {
    dir = await writeVault({
      'bookmarks.html': BOOKMARKS,
      // Saved by Obsidian Web Clipper: already a bookmark of that page.
      'Clippings/Clipped.md': '---\nsource: "https://news.example/clipped"\n---\nClipped text.\n',
    });
    ({ harness, run } = await start(dir));
  });
  afterAll(async () => {
    await harness.close();
    await removeDir(dir);
  });

  it('makes a note per page, with its address, its browser folders as tags and its add date', async () => {
    const report = collect();
    await importBookmarks(await run(), { file: path.join(dir, 'bookmarks.html'), folder: 'Bookmarks', fetchPages: false }, report);
    expect(report.problems).toEqual([expect.stringMatching(/^1 of the links are not web pages/)]);
    expect(report.summaries).toEqual(['Imported 3 bookmarks into Bookmarks/: 2 new notes, 1 already in the vault.']);
    const items = (await listed(harness, 'bookmark')).filter((item) => item.folder === 'Bookmarks');
    const byUrl = new Map(items.map((item) => [item.source_url, item]));
    expect([...byUrl.keys()].sort()).toEqual(['https://garden.example/tomatoes', 'https://lang.example/borrow?x=1&y=2#part']);
    const tomatoes = byUrl.get('https://garden.example/tomatoes');
    expect(tomatoes).toMatchObject({ title: 'Growing tomatoes: a "how-to" & more', source: 'bookmark', tags: [] });
    expect(Date.parse(tomatoes?.created ?? '')).toBe(1_700_000_000_000);
    const borrow = byUrl.get('https://lang.example/borrow?x=1&y=2#part');
    // Filed in two folders: one note, both folders as tags, the earliest date, the description as its
    // body: text, so its #word is no tag and its <b> no markup.
    expect(borrow?.tags).toEqual(['#dev-tools/rust-c', '#reading', '#ownership']);
    expect(Date.parse(borrow?.created ?? '')).toBe(1_690_000_000_000);
    const note = await harness.ok<{ text: string }>('get_note', { note_id: borrow?.id });
    expect(note.text).toBe('Lifetimes, in plain words. See \\#borrowck and \\<b>this\\</b>.\n');
    const file = await readFile(path.join(dir, 'Bookmarks', 'Borrowing — ünïcödé explained.md'), 'utf8');
    expect(file).toMatch(/^---\nid: [0-9a-f-]{36}\nsource: bookmark\nsource_url: https:\/\/lang\.example\/borrow\?x=1&y=2#part\ntags:\n {2}- dev-tools\/rust-c\n {2}- reading\n {2}- ownership\ncreated: 2023-07-22T04:26:40\+00:00\nupdated: /);
  });

  it('adds nothing the second time, leaves an edited note alone and a deleted one deleted', async () => {
    const edited = path.join(dir, 'Bookmarks', 'Borrowing — ünïcödé explained.md');
    const mine = `${await readFile(edited, 'utf8')}My own notes on it.\n`;
    await writeFile(edited, mine);
    const deleted = (await listed(harness, 'bookmark')).find((item) => item.source_url === 'https://garden.example/tomatoes');
    await harness.ok('delete_note', { note_id: deleted?.id });
    const report = collect();
    await importBookmarks(await run(), { file: path.join(dir, 'bookmarks.html'), folder: 'Bookmarks', fetchPages: false }, report);
    expect(report.summaries).toEqual(['Imported 3 bookmarks into Bookmarks/: 0 new notes, 2 already in the vault, 1 deleted since an earlier import and left deleted.']);
    expect(await readFile(edited, 'utf8')).toBe(mine);
    expect(await notesIn(dir, 'Bookmarks')).toEqual(['Borrowing — ünïcödé explained.md']);
  });

  it('refuses a file that is not a bookmarks export, in a sentence', async () => {
    await writeFile(path.join(dir, 'not-bookmarks.html'), '<html><body><p>Just a page.</p></body></html>');
    await expect(importBookmarks(await run(), { file: path.join(dir, 'not-bookmarks.html'), folder: 'Bookmarks', fetchPages: false }, collect())).rejects.toThrow(
      /^This is not a browser bookmarks export/,
    );
    await expect(importBookmarks(await run(), { file: path.join(dir, 'missing.html'), folder: 'Bookmarks', fetchPages: false }, collect())).rejects.toThrow(/^There is no file at /);
  });
});

/** A loopback web server whose routes a test sets; it counts each answer's status. */
class Site {
  readonly routes = new Map<string, (request: IncomingMessage, response: ServerResponse) => void>();
  readonly statuses: { path: string; status: number }[] = [];
  private server: Server | undefined;
  base = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const route = this.routes.get(request.url ?? '');
      response.on('finish', () => this.statuses.push({ path: request.url ?? '', status: response.statusCode }));
      if (route) route(request, response);
      else response.writeHead(404).end('not here');
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A document with validators, answering conditional requests with 304. */
  serve(route: string, type: string, body: () => string, validator: 'etag' | 'last-modified' = 'etag'): void {
    this.routes.set(route, (request, response) => {
      const text = body();
      const etag = `"${Buffer.from(text).toString('base64').slice(-12)}${text.length}"`;
      const modified = new Date(Date.UTC(2026, 0, 1) + text.length * 1000).toUTCString();
      const fresh = validator === 'etag' ? request.headers['if-none-match'] === etag : request.headers['if-modified-since'] === modified;
      const headers = validator === 'etag' ? { ETag: etag } : { 'Last-Modified': modified };
      if (fresh) response.writeHead(304, headers).end();
      else response.writeHead(200, { 'Content-Type': type, ...headers }).end(text);
    });
  }

  async close(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

const CLUTTERED_PAGE = `<!doctype html><html><head><title>Watering tomatoes | Garden Site</title><script>window.SECRET_TRACKER = 1;</script><style>.x{color:red}</style></head>
<body><nav><a href="/">Home</a> <a href="/shop">Shop our NAVSTRING range</a></nav>
<div class="cookie-banner">We use COOKIESTRING cookies.</div>
<article><h1>Watering tomatoes</h1>
<p>Tomatoes want deep, regular watering at the base of the plant. Irregular watering is the main cause of blossom end rot, because calcium only travels with a steady flow of water.</p>
<p>In a hot spell, water every morning, and mulch to keep the soil evenly moist. Read <a href="/blight">our blight guide</a> too.</p>
<p>Containers dry out fastest: check them twice a day in July and August, and feed weekly once the first truss has set.</p>
</article><aside>Related: FOOTERSTRING buy seeds</aside><footer>© Garden Site FOOTERSTRING</footer></body></html>`;

describe('import bookmarks --fetch', () => {
  let dir: string;
  let harness: Harness;
  let run: () => Promise<ImportRun>;
  const site = new Site();

  beforeAll(async () => {
    await site.start();
    site.routes.set('/watering', (_request, response) => response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(CLUTTERED_PAGE));
    site.routes.set('/paper.pdf', (_request, response) => response.writeHead(200, { 'Content-Type': 'application/pdf' }).end('%PDF-1.4'));
    const bookmarks = ['watering', 'gone', 'paper.pdf'].map((name) => `<DT><A HREF="${site.base}/${name}" ADD_DATE="1700000000">${name}</A>`).join('\n');
    dir = await writeVault({ 'export.html': `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n${bookmarks}\n</DL><p>\n` });
    ({ harness, run } = await start(dir));
  });
  afterAll(async () => {
    await harness.close();
    await site.close();
    await removeDir(dir);
  });

  it("saves a page's readable text as the body and the page as its attachment; a page that does not load keeps its bookmark", async () => {
    const report = collect();
    await importBookmarks(await run(), { file: path.join(dir, 'export.html'), folder: 'Web', fetchPages: true }, report);
    expect(report.problems).toEqual([
      expect.stringMatching(new RegExp(`^Could not load ${site.base}/gone: .*404.* The bookmark was kept without its page\\.$`)),
      `${site.base}/paper.pdf is not a web page (application/pdf), so its text was not saved; the bookmark was kept.`,
    ]);
    expect(report.summaries).toEqual(['Imported 3 bookmarks into Web/: 3 new notes.']);
    const file = await readFile(path.join(dir, 'Web', 'watering.md'), 'utf8');
    expect(file).toContain('attachment: Web/watering.html\n');
    expect(file).toContain('Tomatoes want deep, regular watering at the base of the plant.');
    expect(file).toContain(`[our blight guide](${site.base}/blight)`);
    for (const clutter of ['NAVSTRING', 'COOKIESTRING', 'FOOTERSTRING', 'SECRET_TRACKER', 'color:red']) expect(file).not.toContain(clutter);
    expect(await readFile(path.join(dir, 'Web', 'watering.html'), 'utf8')).toBe(CLUTTERED_PAGE);
    expect(await readFile(path.join(dir, 'Web', 'gone.md'), 'utf8')).not.toContain('attachment:');
  });

  it('fetches nothing for bookmarks already imported, and delete_note removes the saved page', async () => {
    const before = site.statuses.length;
    const report = collect();
    await importBookmarks(await run(), { file: path.join(dir, 'export.html'), folder: 'Web', fetchPages: true }, report);
    expect(report.summaries).toEqual(['Imported 3 bookmarks into Web/: 0 new notes, 3 already in the vault.']);
    expect(site.statuses.length).toBe(before);
    const note = (await listed(harness, 'bookmark')).find((item) => item.title === 'watering');
    await harness.ok('delete_note', { note_id: note?.id });
    expect(await exists(path.join(dir, 'Web', 'watering.html'))).toBe(false);
  });
});

const mail = (id: string, subject: string, body: string, extra = ''): string =>
  `From: Ana Lima <ana@example.org>\r\nTo: you@example.com, Bo <bo@example.com>\r\nSubject: ${subject}\r\nDate: Tue, 03 Mar 2026 09:30:00 +0000\r\nMessage-ID: <${id}@example.org>\r\n${extra}\r\n${body}\r\n`;

describe('import email', () => {
  let dir: string;
  let harness: Harness;
  let run: () => Promise<ImportRun>;

  beforeAll(async () => {
    dir = await tempDir();
    const inbox = [
      mail('one', 'Plain hello', 'Plain text, with a tomato.'),
      mail('two', 'HTML only', '<p>An <b>HTML</b> message about <a href="https://ex.org/x">sauerkraut</a>.</p>', 'Content-Type: text/html; charset=utf-8\r\n'),
      mail('three', '=?ISO-8859-1?Q?Caf=E9_plans?=', 'Meet at the caf\xe9.', 'Content-Type: text/plain; charset=iso-8859-1\r\n'),
    ];
    await writeVault(
      {
        'Saved mail/one.eml': inbox[0] ?? '',
        'Saved mail/nested/two.eml': inbox[1] ?? '',
        'Saved mail/broken.eml': '%PDF-1.4 not a message at all\n',
        'Saved mail/.hidden/skip.eml': mail('hidden', 'Hidden', 'Never imported.'),
      },
      path.join(dir, 'inputs'),
    );
    await writeFile(path.join(dir, 'inputs', 'Saved mail', 'three.eml'), Buffer.from(inbox[2] ?? '', 'latin1'));
    // The same messages, and one more, in an mbox: Message-IDs make them one note each.
    const mbox = [...inbox, mail('four', 'Only in the mbox', 'The archive.\r\n>From here on, escaped.')]
      .map((message) => `From ana@example.org Tue Mar  3 09:30:00 2026\r\n${message}\r\n`)
      .join('');
    await writeFile(path.join(dir, 'inputs', 'archive'), Buffer.from(mbox, 'latin1'));
    await writeVault({ 'Welcome.md': 'Hello.\n' }, path.join(dir, 'vault'));
    ({ harness, run } = await start(path.join(dir, 'vault')));
  });
  afterAll(async () => {
    await harness.close();
    await removeDir(dir);
  });

  it('makes a note per message with its sender, recipients and date, keeping the message as its attachment', async () => {
    const report = collect();
    await importEmail(await run(), { path: path.join(dir, 'inputs', 'Saved mail'), folder: 'Mail' }, report);
    expect(report.problems).toEqual([expect.stringMatching(/^broken\.eml was not imported: This is not an e-mail message/)]);
    expect(report.summaries).toEqual([`Read 4 messages from ${path.join(dir, 'inputs', 'Saved mail')} into Mail/: 3 new notes, 1 could not be imported.`]);
    const items = await listed(harness, 'email');
    expect(items.map((item) => item.title).sort()).toEqual(['Café plans', 'HTML only', 'Plain hello']);
    const vault = path.join(dir, 'vault');
    const plain = await readFile(path.join(vault, 'Mail', 'Plain hello.md'), 'utf8');
    expect(plain).toMatch(/^---\nid: [0-9a-f-]{36}\nsource: email\nfrom: Ana Lima <ana@example\.org>\nto:\n {2}- you@example\.com\n {2}- Bo <bo@example\.com>\nmessage_id: one@example\.org\ncreated: 2026-03-03T09:30:00\+00:00\nupdated: .*\nattachment: Mail\/Plain hello\.eml\n---\nPlain text, with a tomato\.\n$/);
    expect(await readFile(path.join(vault, 'Mail', 'Plain hello.eml'), 'utf8')).toBe(mail('one', 'Plain hello', 'Plain text, with a tomato.'));
    expect(await readFile(path.join(vault, 'Mail', 'HTML only.md'), 'utf8')).toContain('An **HTML** message about [sauerkraut](https://ex.org/x).');
    expect(await readFile(path.join(vault, 'Mail', 'Café plans.md'), 'utf8')).toContain('Meet at the café.');
  });

  it('takes an mbox, adding only the message it has not seen, and nothing on a second run', async () => {
    const report = collect();
    await importEmail(await run(), { path: path.join(dir, 'inputs', 'archive'), folder: 'Mail' }, report);
    expect(report.summaries).toEqual([`Read 4 messages from ${path.join(dir, 'inputs', 'archive')} into Mail/: 1 new note, 3 already in the vault.`]);
    expect(await readFile(path.join(dir, 'vault', 'Mail', 'Only in the mbox.md'), 'utf8')).toContain('The archive.\nFrom here on, escaped.\n');
    const again = collect();
    await importEmail(await run(), { path: path.join(dir, 'inputs', 'archive'), folder: 'Mail' }, again);
    expect(again.summaries).toEqual([`Read 4 messages from ${path.join(dir, 'inputs', 'archive')} into Mail/: 0 new notes, 4 already in the vault.`]);
    expect(await notesIn(path.join(dir, 'vault'), 'Mail')).toHaveLength(4);
  });

  it('cuts a body over 256 KiB with a line saying so, keeping the whole message as its attachment', async () => {
    const line = 'The log goes on and on, line after line of it.\r\n';
    const raw = mail('long', 'A very long log', line.repeat(8000));
    await writeFile(path.join(dir, 'inputs', 'long.eml'), raw);
    const report = collect();
    await importEmail(await run(), { path: path.join(dir, 'inputs', 'long.eml'), folder: 'Mail' }, report);
    expect(report.summaries).toEqual([`Read 1 message from ${path.join(dir, 'inputs', 'long.eml')} into Mail/: 1 new note.`]);
    const note = await readFile(path.join(dir, 'vault', 'Mail', 'A very long log.md'), 'utf8');
    const body = note.slice(note.indexOf('\n---\n') + 5);
    expect(Buffer.byteLength(body)).toBeLessThan(256 * 1024 + 200);
    expect(body).toMatch(/line after line of it\.\n\n\(Cut here: this note holds the first 25\d KiB of 368 KiB of text; it is kept whole in the attached \.eml file\.\)\n$/);
    expect(await readFile(path.join(dir, 'vault', 'Mail', 'A very long log.eml'), 'utf8')).toBe(raw);
  });

  it('delete_note removes the saved message with its note', async () => {
    const note = (await listed(harness, 'email')).find((item) => item.title === 'Plain hello');
    await harness.ok('delete_note', { note_id: note?.id });
    expect(await exists(path.join(dir, 'vault', 'Mail', 'Plain hello.eml'))).toBe(false);
  });
});

const rss = (items: string[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>Garden &amp; Kitchen</title><link>https://garden.example/</link>${items.join('')}</channel></rss>`;
const rssItem = (n: number): string =>
  `<item><title>Garden post ${n}</title><link>https://garden.example/posts/${n}</link><guid>https://garden.example/posts/${n}</guid><pubDate>Mon, 0${n} Jun 2026 10:00:00 GMT</pubDate><content:encoded><![CDATA[<p>Post number ${n} about <em>compost</em> heaps.</p>]]></content:encoded></item>`;
const ATOM = `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Lisbon Diary</title><id>urn:uuid:60a76c80-d399-11d9-b93C-0003939e0af6</id><updated>2026-05-02T10:00:00Z</updated>
<entry><title>Belém at dawn</title><link rel="alternate" href="https://lisbon.example/belem"/><id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</id><published>2026-05-01T06:00:00Z</published><updated>2026-05-02T10:00:00Z</updated><content type="html">&lt;p&gt;The tower glows pink before the tourists arrive.&lt;/p&gt;</content></entry></feed>`;
const JSON_FEED = JSON.stringify({
  version: 'https://jsonfeed.org/version/1.1',
  title: 'Kitchen Notes',
  items: [{ id: '7', url: 'https://kitchen.example/pickles', title: 'Quick pickles', content_text: 'Vinegar, water, sugar and salt, poured hot.', date_published: '2026-04-04T12:00:00Z' }],
});

describe('feeds', () => {
  let dir: string;
  let harness: Harness;
  let run: () => Promise<ImportRun>;
  const site = new Site();
  const garden = [rssItem(1), rssItem(2)];

  beforeAll(async () => {
    await site.start();
    site.serve('/garden.xml', 'application/rss+xml', () => rss(garden));
    site.serve('/lisbon.atom', 'application/atom+xml', () => ATOM, 'last-modified');
    site.serve('/kitchen.json', 'application/feed+json', () => JSON_FEED);
    site.routes.set('/page.html', (_request, response) => response.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body><p>Not a feed.</p></body></html>'));
    dir = await writeVault({ 'Welcome.md': 'Hello.\n' });
    ({ harness, run } = await start(dir, true));
  });
  afterAll(async () => {
    await harness.close();
    await site.close();
    await removeDir(dir);
  });

  it("subscribes and imports each feed's articles at once, into Feeds/<name> or the folder asked", async () => {
    const report = collect();
    await addFeed(await run(), `${site.base}/garden.xml`, undefined, report, new Date());
    await addFeed(await run(), `${site.base}/lisbon.atom`, 'Travel/Lisbon', report, new Date());
    await addFeed(await run(), `${site.base}/kitchen.json`, undefined, report, new Date());
    expect(report.problems).toEqual([]);
    expect(report.summaries[0]).toBe(`Subscribed to "Garden & Kitchen" (${site.base}/garden.xml); its articles go to Feeds/Garden & Kitchen/: 2 of 2 imported (2 new notes).`);
    const items = await listed(harness, 'feed');
    expect(items.map((item) => [item.title, item.folder, item.source_url])).toEqual(
      expect.arrayContaining([
        ['Garden post 1', 'Feeds/Garden & Kitchen', 'https://garden.example/posts/1'],
        ['Garden post 2', 'Feeds/Garden & Kitchen', 'https://garden.example/posts/2'],
        ['Belém at dawn', 'Travel/Lisbon', 'https://lisbon.example/belem'],
        ['Quick pickles', 'Feeds/Kitchen Notes', 'https://kitchen.example/pickles'],
      ]),
    );
    expect(items).toHaveLength(4);
    const belem = items.find((item) => item.title === 'Belém at dawn');
    expect(belem?.created).toBe('2026-05-01T06:00:00+00:00');
    const text = await readFile(path.join(dir, 'Travel', 'Lisbon', 'Belém at dawn.md'), 'utf8');
    expect(text).toMatch(/\nsource: feed\nsource_url: https:\/\/lisbon\.example\/belem\nfeed: Lisbon Diary\ncreated: 2026-05-01T06:00:00\+00:00\n/);
    expect(text).toMatch(/---\nThe tower glows pink before the tourists arrive\.\n$/);
    const subscriptions = await readSubscriptions(dir);
    expect(subscriptions.map((feed) => [feed.name, feed.folder])).toEqual([
      ['Garden & Kitchen', 'Feeds/Garden & Kitchen'],
      ['Lisbon Diary', 'Travel/Lisbon'],
      ['Kitchen Notes', 'Feeds/Kitchen Notes'],
    ]);
    await expect(addFeed(await run(), `${site.base}/garden.xml`, undefined, collect(), new Date())).rejects.toThrow(/^You already follow /);
  });

  it('finds the articles by words and by meaning', async () => {
    await waitForEmbeddings(harness.runtime);
    const found = await harness.ok<{ items: Item[] }>('search_notes', { query: 'compost heaps' });
    expect(found.items.map((item) => [item.title, item.source])).toEqual(expect.arrayContaining([['Garden post 1', 'feed'], ['Garden post 2', 'feed']]));
    const meaning = await harness.ok<{ items: Item[] }>('semantic_search', { query: 'pickling vegetables in vinegar', size: 3 });
    expect(meaning.items[0]).toMatchObject({ title: 'Quick pickles', source: 'feed', source_url: 'https://kitchen.example/pickles' });
  });

  it('pulls with conditional requests: an unchanged feed costs one 304, a new article becomes one note', async () => {
    const before = site.statuses.length;
    const first = collect();
    expect(describePull(await pullFeeds(await run(), first, () => new Date()))).toBe('Pulled 3 feeds: 0 new articles, 3 unchanged.');
    expect(site.statuses.slice(before).map((entry) => entry.status)).toEqual([304, 304, 304]);
    garden.push(rssItem(3));
    const second = collect();
    expect(describePull(await pullFeeds(await run(), second, () => new Date()))).toBe('Pulled 3 feeds: 1 new article, 2 unchanged.');
    expect(await notesIn(dir, 'Feeds/Garden & Kitchen')).toEqual(['Garden post 1.md', 'Garden post 2.md', 'Garden post 3.md']);
  });

  it('keeps an article the person deleted deleted, and an edited one as they left it', async () => {
    const items = await listed(harness, 'feed');
    await harness.ok('delete_note', { note_id: items.find((item) => item.title === 'Garden post 1')?.id });
    const edited = path.join(dir, 'Feeds', 'Garden & Kitchen', 'Garden post 2.md');
    const mine = (await readFile(edited, 'utf8')).replace('compost', 'my own words');
    await writeFile(edited, mine);
    // A changed feed, so that it is read again rather than answered 304.
    garden.push(rssItem(4));
    await pullFeeds(await run(), collect(), () => new Date());
    expect(await notesIn(dir, 'Feeds/Garden & Kitchen')).toEqual(['Garden post 2.md', 'Garden post 3.md', 'Garden post 4.md']);
    expect(await readFile(edited, 'utf8')).toBe(mine);
  });

  it('says in a sentence why a feed cannot be added or pulled, and pulls the rest', async () => {
    await expect(addFeed(await run(), `${site.base}/page.html`, undefined, collect(), new Date())).rejects.toThrow(
      new FeedsError(`Did not subscribe to ${site.base}/page.html: The address does not serve a feed: it returned an HTML page, not RSS, Atom or JSON Feed.`),
    );
    await expect(addFeed(await run(), 'ftp://example.com/feed', undefined, collect(), new Date())).rejects.toThrow('Only http and https feeds can be followed, not "ftp://example.com/feed".');
    site.routes.delete('/kitchen.json');
    garden.push(rssItem(5));
    const report = collect();
    const summary = await pullFeeds(await run(), report, () => new Date());
    expect(report.problems).toEqual([expect.stringMatching(new RegExp(`^Could not pull "Kitchen Notes": Could not load ${site.base}/kitchen\\.json: .*404`))]);
    expect(describePull(summary)).toBe('Pulled 3 feeds: 1 new article, 1 unchanged, 1 failed.');
    expect((await readSubscriptions(dir)).find((feed) => feed.name === 'Kitchen Notes')?.lastError).toMatch(/404/);
  });

  it('stops following a feed and keeps its notes', async () => {
    const gone = await removeFeed(dir, `${site.base}/kitchen.json`);
    expect(gone.name).toBe('Kitchen Notes');
    expect((await readSubscriptions(dir)).map((feed) => feed.name)).toEqual(['Garden & Kitchen', 'Lisbon Diary']);
    expect(await notesIn(dir, 'Feeds/Kitchen Notes')).toEqual(['Quick pickles.md']);
    await expect(removeFeed(dir, `${site.base}/kitchen.json`)).rejects.toThrow(/^You do not follow /);
    await unlink(path.join(dir, '.dexi', 'feeds.json'));
    await expect(removeFeed(dir, `${site.base}/garden.xml`)).rejects.toThrow(/You follow no feeds yet\.$/);
  });
});

describe('a feed article too long for a note', () => {
  it('keeps its enclosure, cuts its text at 256 KiB and says where the whole article is', async () => {
    const site = new Site();
    await site.start();
    const showNotes = 'Minute by minute, what was said.\n\n'.repeat(9000);
    site.serve('/pod.json', 'application/feed+json', () =>
      JSON.stringify({
        version: 'https://jsonfeed.org/version/1.1',
        title: 'Long Pod',
        items: [{ id: 'ep1', url: 'https://pod.example/ep1', title: 'Episode one', content_text: showNotes, attachments: [{ url: 'https://cdn.example/ep1.mp3', mime_type: 'audio/mpeg', size_in_bytes: 52_000_000 }] }],
      }),
    );
    const dir = await writeVault({ 'Welcome.md': 'Hello.\n' });
    const { harness, run } = await start(dir);
    try {
      await addFeed(await run(), `${site.base}/pod.json`, undefined, collect(), new Date());
      const note = await readFile(path.join(dir, 'Feeds', 'Long Pod', 'Episode one.md'), 'utf8');
      const body = note.slice(note.indexOf('\n---\n') + 5);
      expect(body.startsWith('Enclosure: [ep1.mp3](https://cdn.example/ep1.mp3) (audio/mpeg, 52 MB)\n\nMinute by minute')).toBe(true);
      expect(Buffer.byteLength(body)).toBeLessThan(256 * 1024 + 200);
      expect(body).toMatch(/what was said\.\n\n\(Cut here: this note holds the first 25\d KiB of 299 KiB of text; the whole of it is at https:\/\/pod\.example\/ep1\.\)\n$/);
    } finally {
      await harness.close();
      await site.close();
      await removeDir(dir);
    }
  });
});

describe('the note cap', () => {
  it('stops an import at the cap with a sentence that says how far it got', async () => {
    const dir = await writeVault({ 'Welcome.md': 'Hello.\n', 'in/a.eml': mail('a', 'A', 'a'), 'in/b.eml': mail('b', 'B', 'b'), 'in/c.eml': mail('c', 'C', 'c') });
    const harness = await connect({ dir });
    try {
      const run = await ImportRun.start(harness.runtime.own, { noteCap: 2 });
      await expect(importEmail(run, { path: path.join(dir, 'in'), folder: 'Mail' }, collect())).rejects.toThrow(
        /^Stopped after 1 new note: Note limit reached: this vault's plan allows 2 notes\./,
      );
      expect(await notesIn(dir, 'Mail')).toEqual(['A.md']);
    } finally {
      await harness.close();
      await removeDir(dir);
    }
  });
});

describe('one import at a time', () => {
  it('refuses while another live process imports, takes over a crashed one, and lets the next run in once closed', async () => {
    const dir = await writeVault({ 'Welcome.md': 'Hello.\n' });
    const harness = await connect({ dir });
    const lock = path.join(dir, '.dexi', 'import.lock');
    try {
      // The test's parent process is alive and is not this one.
      await writeFile(lock, `${process.ppid}\n`);
      await expect(ImportRun.start(harness.runtime.own, { noteCap: null })).rejects.toThrow(
        `Another dexi-vault command (process ${process.ppid}) is importing into this vault; try again when it has finished.`,
      );
      // No process has this id: a run that crashed.
      await writeFile(lock, '2147483646\n');
      const run = await ImportRun.start(harness.runtime.own, { noteCap: null });
      expect((await readFile(lock, 'utf8')).trim()).toBe(String(process.pid));
      await run.close();
      expect(await exists(lock)).toBe(false);
    } finally {
      await harness.close();
      await removeDir(dir);
    }
  });
});
