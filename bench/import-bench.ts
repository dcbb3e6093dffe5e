/**
 * `npm run bench:import`: the importers at the scale a person brings in,
 * into a copy of the generated 10,000-note vault (or `--vault DIR`, copied):
 * an mbox of 10,000 generated messages, a bookmarks export of 5,000
 * bookmarks in nested folders, and 20 feeds of 50 articles each served on
 * loopback; each imported by the built command line, then imported again
 * (which must add nothing), and the feeds pulled again (every one a 304).
 * Wall time and items per second of each run go to stdout and to
 * .bench/import-results.json.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateVault, getTags, getVocabulary } from './generate.js';
import { copyVault } from './vault-copy.js';
import { BENCH_DIR, CLI } from './paths.js';

function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function words(random: () => number, count: number): string {
  const vocabulary = getVocabulary();
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(vocabulary[Math.floor(random() ** 2 * vocabulary.length)] ?? 'note');
  return out.join(' ');
}

function mbox(count: number): Buffer {
  const random = rng(7);
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const date = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toUTCString();
    const body = words(random, 80 + Math.floor(random() * 300)).replace(/(.{1,72})(\s|$)/g, '$1\n');
    const html = i % 3 === 0;
    parts.push(
      `From sender${i % 50}@example.org ${date}\n` +
        `From: Sender ${i % 50} <sender${i % 50}@example.org>\nTo: you@example.com\nSubject: ${words(random, 5)}\nDate: ${date}\nMessage-ID: <m${i}@bench.example>\n` +
        (html ? `Content-Type: text/html; charset=utf-8\n\n<p>${body.replace(/\n/g, ' ')}</p>\n\n` : `Content-Type: text/plain; charset=utf-8\n\n${body}\n`),
    );
  }
  return Buffer.from(parts.join(''));
}

function bookmarks(count: number): string {
  const random = rng(11);
  const tags = getTags();
  const lines = ['<!DOCTYPE NETSCAPE-Bookmark-file-1>', '<DL><p>', '<DT><H3 PERSONAL_TOOLBAR_FOLDER="true">Bookmarks bar</H3>', '<DL><p>'];
  for (let folder = 0; folder < count / 50; folder++) {
    lines.push(`<DT><H3>${tags[folder % tags.length] ?? 'misc'}</H3>`, '<DL><p>', `<DT><H3>Part ${folder}</H3>`, '<DL><p>');
    for (let i = 0; i < 50; i++) {
      const n = folder * 50 + i;
      lines.push(`<DT><A HREF="https://site${n % 300}.example/page/${n}" ADD_DATE="${1_500_000_000 + n * 600}">${words(random, 6)}</A>`);
      if (i % 5 === 0) lines.push(`<DD>${words(random, 20)}`);
    }
    lines.push('</DL><p>', '</DL><p>');
  }
  lines.push('</DL><p>', '</DL><p>');
  return lines.join('\n');
}

function feed(index: number, items: number): string {
  const random = rng(100 + index);
  const entries: string[] = [];
  for (let i = 0; i < items; i++) {
    entries.push(
      `<item><title>${words(random, 6)}</title><link>https://feed${index}.example/${i}</link><guid>https://feed${index}.example/${i}</guid>` +
        `<pubDate>${new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toUTCString()}</pubDate><description><![CDATA[<p>${words(random, 250)}</p>]]></description></item>`,
    );
  }
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Bench feed ${index}</title>${entries.join('')}</channel></rss>`;
}

interface Timed {
  ms: number;
  stderr: string;
}

/** Run the built CLI, as a person would, and time it from spawn to exit. */
function runCli(args: string[]): Promise<Timed> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) reject(new Error(`dexi-vault ${args.join(' ')} exited ${code}:\n${stderr}`));
      resolve({ ms, stderr });
    });
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { vault: { type: 'string' }, messages: { type: 'string' }, bookmarks: { type: 'string' } } });
  const messages = Number(values.messages ?? 10_000);
  const bookmarkCount = Number(values.bookmarks ?? 5_000);
  await mkdir(BENCH_DIR, { recursive: true });
  const source = values.vault ?? path.join(BENCH_DIR, 'vault-10000-s42');
  if (values.vault === undefined) {
    const exists = await readdir(source).then(() => true, () => false);
    if (!exists) await generateVault(source, { notes: 10_000, seed: 42 });
  }
  const work = await mkdtemp(path.join(BENCH_DIR, 'import-'));
  const vault = path.join(work, 'vault');
  const copied = await copyVault(source, vault);
  const inputs = path.join(work, 'inputs');
  await mkdir(inputs);
  const mboxFile = path.join(inputs, 'archive.mbox');
  await writeFile(mboxFile, mbox(messages));
  const bookmarksFile = path.join(inputs, 'bookmarks.html');
  await writeFile(bookmarksFile, bookmarks(bookmarkCount));
  const feeds = Array.from({ length: 20 }, (_, i) => feed(i, 50));
  let requests = 0;
  let notModified = 0;
  const server = createServer((request, response) => {
    requests++;
    const index = Number(/\/feed(\d+)\.xml$/.exec(request.url ?? '')?.[1]);
    const body = feeds[index];
    if (body === undefined) return void response.writeHead(404).end();
    const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
    if (request.headers['if-none-match'] === etag) {
      notModified++;
      return void response.writeHead(304, { ETag: etag }).end();
    }
    response.writeHead(200, { 'Content-Type': 'application/rss+xml', ETag: etag }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const results: Record<string, unknown> = {
    machine: { cpus: cpus().length, model: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version, loadavg: loadavg() },
    vault: { source, notes: copied.notes },
    inputs: { messages, bookmarks: bookmarkCount, feeds: feeds.length, articlesPerFeed: 50 },
  };
  const step = async (name: string, args: string[], items: number): Promise<void> => {
    const timed = await runCli([...args, '--vault', vault]);
    const summary = timed.stderr.trim().split('\n').pop() ?? '';
    results[name] = { seconds: Number((timed.ms / 1000).toFixed(2)), perSecond: Math.round(items / (timed.ms / 1000)), summary };
    console.log(`${name}: ${(timed.ms / 1000).toFixed(2)} s (${Math.round(items / (timed.ms / 1000))} items/s) — ${summary}`);
  };
  console.log(`Vault: ${copied.notes} notes (${source}); load average ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  await step('email_first', ['import', 'email', mboxFile], messages);
  await step('email_again', ['import', 'email', mboxFile], messages);
  await step('bookmarks_first', ['import', 'bookmarks', bookmarksFile], bookmarkCount);
  await step('bookmarks_again', ['import', 'bookmarks', bookmarksFile], bookmarkCount);
  const started = performance.now();
  for (let i = 0; i < feeds.length; i++) await runCli(['feeds', 'add', `${base}/feed${i}.xml`, '--vault', vault]);
  results.feeds_add = { seconds: Number(((performance.now() - started) / 1000).toFixed(2)), commands: feeds.length };
  console.log(`feeds_add: ${((performance.now() - started) / 1000).toFixed(2)} s for ${feeds.length} feeds (one command each)`);
  const before = { requests, notModified };
  await step('feeds_pull_unchanged', ['feeds', 'pull'], feeds.length);
  results.feeds_pull_requests = { requests: requests - before.requests, notModified: notModified - before.notModified };
  console.log(`feeds_pull_unchanged: ${requests - before.requests} requests, ${notModified - before.notModified} answered 304`);
  server.close();
  await writeFile(path.join(BENCH_DIR, 'import-results.json'), `${JSON.stringify(results, null, 2)}\n`);
  await rm(work, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
