import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, removeDir, writeVault } from '../support/helpers.js';
import { copyEmbeddedSampleVault, EMBEDDED_SAMPLE_HOOK_MS } from '../support/shared-fixtures.js';
import { git, initRepo } from '../support/git.js';
import { startStdioServer } from '../support/stdio-server.js';
import { CLI, eventually, ROOT, runCli, STACK_FRAME } from '../support/process.js';

/**
 * The README's walk through the importers, as a new user runs it: the
 * sample vault's bookmarks export, its saved e-mails and its two feeds,
 * served on loopback by the script the README names; then what an assistant
 * sees of them, and a second run of each that adds nothing.
 */

/**
 * The time limit of every test here. Each starts the built command line up to ten times
 * (about a second a start on an idle machine), or embeds the sample vault: under the 20 s
 * default, two of them ran out of time at a load of 10 on two cores (measured, one worker).
 * The runs inside keep their own 60 s limits.
 */
const CLI_TESTS = { timeout: 120_000 };

function env(): NodeJS.ProcessEnv {
  const copy = { ...process.env };
  delete copy.DEXI_VAULT;
  return copy;
}

interface Item {
  title: string;
  source: string;
  source_url?: string;
  folder?: string;
}

describe('importing from the command line (README, "Bringing in bookmarks, e-mail and feeds")', CLI_TESTS, () => {
  let vault: string;
  let feeds: ChildProcess | undefined;
  let base: string;

  beforeAll(async () => {
    vault = await copyEmbeddedSampleVault();
    initRepo(vault);
    feeds = spawn(process.execPath, [path.join(ROOT, 'scripts', 'serve-sample-feeds.mjs'), path.join(vault, 'Imports'), '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let printed = '';
    feeds.stdout?.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    base = await eventually(async () => /at (http:\/\/127\.0\.0\.1:\d+)\//.exec(printed)?.[1], 10_000, 'the sample feed server');
  }, EMBEDDED_SAMPLE_HOOK_MS);
  afterAll(async () => {
    feeds?.kill();
    if (vault) await removeDir(vault);
  });

  const imports = (): string[][] => [
    ['import', 'bookmarks', path.join(vault, 'Imports', 'bookmarks.html'), '--vault', vault],
    ['import', 'email', path.join(vault, 'Imports'), '--vault', vault],
  ];

  it('imports the bookmarks, the e-mails and two feeds, each with a summary line and no stack trace', async () => {
    const outputs: string[] = [];
    for (const args of imports()) {
      const result = await runCli(args, { env: env(), timeoutMs: 60_000 });
      expect(result.code, result.stderr).toBe(0);
      outputs.push(result.stderr);
    }
    for (const feed of ['garden-club.xml', 'kitchen-notes.json']) {
      const result = await runCli(['feeds', 'add', `${base}/${feed}`, '--vault', vault], { env: env(), timeoutMs: 60_000 });
      expect(result.code, result.stderr).toBe(0);
      outputs.push(result.stderr);
    }
    const all = outputs.join('');
    expect(all).not.toMatch(STACK_FRAME);
    // The LoRA paper is a bookmark of the sample vault already (Reading/Papers): it is not imported twice.
    expect(outputs[0]).toContain('Imported 6 bookmarks into Bookmarks/: 5 new notes, 1 already in the vault.');
    expect(outputs[0]).toContain('1 of the links are not web pages');
    expect(outputs[1]).toContain(`Read 3 messages from ${path.join(vault, 'Imports')} into Mail/: 3 new notes.`);
    expect(outputs[2]).toContain(`Subscribed to "Riverside Garden Club" (${base}/garden-club.xml); its articles go to Feeds/Riverside Garden Club/: 2 of 2 imported`);
    expect(outputs[3]).toContain(`Subscribed to "Kitchen Notes" (${base}/kitchen-notes.json); its articles go to Feeds/Kitchen Notes/: 2 of 2 imported`);
    const list = await runCli(['feeds', 'list', '--vault', vault], { env: env() });
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/^NAME\s+FOLDER\s+LAST PULLED\s+URL$/);
    expect(list.stdout).toContain(`Feeds/Riverside Garden Club`);
    // Only the new notes, their attachments and .dexi/ changed: nothing the person had.
    const changed = git(vault, ['status', '--porcelain', '-z', '--untracked-files=all'])
      .split('\0')
      .filter(Boolean)
      .map((line) => line.slice(3));
    expect(changed.filter((file) => !/^(Bookmarks|Mail|Feeds)\//.test(file)).sort()).toEqual(['.dexi/feeds.json', '.dexi/imported.txt']);
    expect(changed.filter((file) => file.startsWith('Mail/')).sort()).toEqual([
      'Mail/Compost delivery next week.eml',
      'Mail/Compost delivery next week.md',
      'Mail/Re- Alpha retrospective notes.eml',
      'Mail/Re- Alpha retrospective notes.md',
      'Mail/Your tour of Belém is booked.eml',
      'Mail/Your tour of Belém is booked.md',
    ]);
  });

  it('shows them to an assistant with their source and address, by words and by meaning', async () => {
    const harness = await connect({ dir: vault, semantic: true });
    try {
      const count = async (source: string): Promise<Item[]> => (await harness.ok<{ items: Item[] }>('list_notes', { source, size: 50 })).items;
      const bookmarks = (await count('bookmark')).filter((item) => item.folder === 'Bookmarks');
      expect(bookmarks.map((item) => item.source_url)).toContain('https://jalammar.github.io/illustrated-transformer/');
      expect(bookmarks).toHaveLength(5);
      const mail = (await count('email')).filter((item) => item.folder === 'Mail');
      expect(mail.map((item) => item.title).sort()).toEqual(['Compost delivery next week', 'Re: Alpha retrospective notes', 'Your tour of Belém is booked']);
      const articles = await count('feed');
      expect(articles.map((item) => [item.title, item.source_url])).toEqual(
        expect.arrayContaining([
          ['Blight watch: keep tomato leaves dry', 'http://127.0.0.1:8765/posts/blight-watch.html'],
          ['Quick pickled cucumbers', 'http://127.0.0.1:8765/kitchen/quick-pickles.html'],
        ]),
      );
      const byWords = await harness.ok<{ items: Item[] }>('search_notes', { query: 'wheelbarrow compost' });
      expect(byWords.items[0]).toMatchObject({ title: 'Compost delivery next week', source: 'email' });
      const byMeaning = await harness.ok<{ items: Item[] }>('semantic_search', { query: 'reviving a sourdough starter that was neglected', size: 3 });
      expect(byMeaning.items[0]).toMatchObject({ title: 'Reviving a neglected sourdough starter', source: 'feed' });
    } finally {
      await harness.close();
    }
  });

  it('adds nothing on a second run of each, and pulling unchanged feeds costs one 304 each', async () => {
    const before = await readdir(vault, { recursive: true });
    for (const args of imports()) {
      const result = await runCli(args, { env: env(), timeoutMs: 60_000 });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/: 0 new notes, \d+ already in the vault\./);
    }
    const pull = await runCli(['feeds', 'pull', '--vault', vault], { env: env(), timeoutMs: 60_000 });
    expect(pull.code, pull.stderr).toBe(0);
    expect(pull.stderr).toContain('Pulled 2 feeds: 0 new articles, 2 unchanged.');
    const after = await readdir(vault, { recursive: true });
    expect(after.filter((file) => !file.startsWith('.dexi') && !file.startsWith('.git')).sort()).toEqual(before.filter((file) => !file.startsWith('.dexi') && !file.startsWith('.git')).sort());
    const subscriptions = JSON.parse(await readFile(path.join(vault, '.dexi', 'feeds.json'), 'utf8')) as { feeds: { etag?: string }[] };
    expect(subscriptions.feeds.every((feed) => typeof feed.etag === 'string')).toBe(true);
  });

  it('serve --pull-feeds pulls while serving: a new article reaches the assistant without a restart', async () => {
    const feedFile = path.join(vault, 'Imports', 'garden-club.xml');
    const original = await readFile(feedFile, 'utf8');
    const item = '<item><title>Frost is coming: fleece the beans</title><link>http://127.0.0.1:8765/posts/frost.html</link><guid isPermaLink="false">riverside-frost</guid><pubDate>Mon, 02 Nov 2026 07:00:00 GMT</pubDate><description>Cover them tonight.</description></item>';
    await writeFile(feedFile, original.replace('</channel>', `${item}</channel>`));
    const server = await startStdioServer({ args: [CLI, 'serve', '--vault', vault, '--pull-feeds', '60', '--model', 'none'], cwd: ROOT, clientName: 'pull-test' });
    try {
      await server.stderrMatching(/Pulled 2 feeds: 1 new article, 1 unchanged\./, 20_000);
      const result = await server.call('search_notes', { query: 'fleece beans frost' });
      const items = (result.structuredContent as { items: Item[] }).items;
      expect(items[0]).toMatchObject({ title: 'Frost is coming: fleece the beans', source: 'feed', source_url: 'http://127.0.0.1:8765/posts/frost.html' });
    } finally {
      await server.client.close();
      await writeFile(feedFile, original);
    }
  });

  it('says in one plain line what is wrong with a command, and exits non-zero', async () => {
    const cases: [string[], number, RegExp][] = [
      [['import', 'bookmarks', path.join(vault, 'nowhere.html'), '--vault', vault], 1, /There is no file at .*nowhere\.html\./],
      [['import', 'bookmarks', path.join(vault, 'Welcome.md'), '--vault', vault], 1, /This is not a browser bookmarks export/],
      [['import', 'email', path.join(vault, 'no such folder'), '--vault', vault], 1, /There is no file or folder at /],
      [['import', 'photos', 'x'], 2, /Cannot import "photos"; use bookmarks FILE or email PATH\./],
      [['import', 'bookmarks'], 2, /import bookmarks needs the export file/],
      [['feeds', 'add', 'not a url', '--vault', vault], 1, /"not a url" is not a web address/],
      [['feeds', 'add', `${base}/nothing.xml`, '--vault', vault], 1, /Did not subscribe to .*nothing\.xml: Could not load .*404/],
      [['feeds', 'remove', 'https://example.com/feed', '--vault', vault], 1, /You do not follow https:\/\/example\.com\/feed\. You follow: /],
      [['feeds', 'fetch'], 2, /Unknown feeds action "fetch"/],
      [['serve', '--pull-feeds', 'often'], 2, /--pull-feeds takes a whole number of minutes/],
    ];
    for (const [args, code, message] of cases) {
      const result = await runCli(args, { env: env(), timeoutMs: 60_000 });
      expect(result.code, args.join(' ')).toBe(code);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stderr, args.join(' ')).not.toMatch(STACK_FRAME);
    }
  });
});

describe('importing mail as mail programs keep it, and a Firefox export, from the command line', CLI_TESTS, () => {
  const message = (n: number, body: string): string => `From: Ana <ana@example.org>\nSubject: Message ${n}\nDate: Tue, 03 Mar 2026 09:3${n}:00 +0000\nMessage-ID: <m${n}@example.org>\n\n${body}\n`;
  const FIREFOX = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks Menu</H1>
<DL><p>
    <DT><H3 ADD_DATE="1700000000" LAST_MODIFIED="1700000100">Mozilla Firefox</H3>
    <DL><p>
        <DT><A HREF="https://www.mozilla.org/about/" ADD_DATE="1700000000">About Us</A>
    </DL><p>
    <HR>    <DT><H3 ADD_DATE="1700000000" LAST_MODIFIED="1700000200" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks Toolbar</H3>
    <DD>Add bookmarks to this folder to see them displayed on the Bookmarks Toolbar
    <DL><p>
        <DT><A HREF="https://news.example/" ADD_DATE="1700000300">News</A>
    </DL><p>
</DL>`;

  it('reads an mbox that starts with blank lines and a Maildir, escapes plain text, and gives the toolbar description to no bookmark', async () => {
    const inputs = await writeVault({
      'patches.mbox': `\t \n\n\t\n   \nFrom nobody Mon Sep 17 00:00:00 2001\n${message(1, 'Thanks for #launch.\n-- \nAna')}\nFrom nobody Mon Sep 17 00:00:00 2001\n${message(2, 'Two.')}`,
      'Maildir/cur/1700000000.M1P1.host:2,S': message(3, 'Read.'),
      'Maildir/new/1700000100.M2P1.host': message(4, 'Unread.'),
      'Maildir/tmp/1700000200.M3P1.host': message(5, 'Still being delivered.'),
      'bookmarks.html': FIREFOX,
    });
    const vault = await writeVault({ 'Welcome.md': 'Hello.\n' });
    try {
      const cases: [string[], string][] = [
        [['import', 'email', path.join(inputs, 'patches.mbox')], `Read 2 messages from ${path.join(inputs, 'patches.mbox')} into Mail/: 2 new notes.`],
        [['import', 'email', path.join(inputs, 'Maildir')], `Read 2 messages from ${path.join(inputs, 'Maildir')} into Mail/: 2 new notes.`],
        [['import', 'bookmarks', path.join(inputs, 'bookmarks.html')], 'Imported 2 bookmarks into Bookmarks/: 2 new notes.'],
      ];
      for (const [args, summary] of cases) {
        const result = await runCli([...args, '--vault', vault], { env: env(), timeoutMs: 60_000 });
        expect(result.code, result.stderr).toBe(0);
        expect(result.stderr).toContain(summary);
        expect(result.stderr).not.toMatch(STACK_FRAME);
      }
      expect((await readdir(path.join(vault, 'Mail'))).filter((name) => name.endsWith('.md')).sort()).toEqual(['Message 1.md', 'Message 2.md', 'Message 3.md', 'Message 4.md']);
      expect(await readFile(path.join(vault, 'Mail', 'Message 1.md'), 'utf8')).toMatch(/\n---\nThanks for \\#launch\.\n\\--\nAna\n$/);
      expect(await readFile(path.join(vault, 'Bookmarks', 'About Us.md'), 'utf8')).toMatch(/\n---\n$/);
    } finally {
      await removeDir(inputs);
      await removeDir(vault);
    }
  });
});
