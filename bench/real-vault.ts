#!/usr/bin/env node
/**
 * `npm run bench:real -- --vault DIR`: the built server on a real vault that
 * is a git work tree (fetch one; never commit it), as issue 13 asks:
 *
 * - a first start with no cache, over stdio with `--scopes notes:read`:
 *   initialize, time to searchable, time until the git dates are in (a
 *   fresh clone's notes are not all made today), and the same for a warm
 *   start;
 * - a session of reads (every note listed and read, searches, tags,
 *   folders): `git status --porcelain` must be empty afterwards;
 * - two clones served side by side: the same id for every note, and each
 *   pulls the other without a conflict;
 * - `period: "today"` on a fresh clone, against the notes whose creation the
 *   files or history put today.
 *
 * Prints one JSON object with the figures and the machine.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startServer, waitUntilSearchable, type ServerHandle } from './run.js';

interface Item {
  id: string;
  title: string;
  created: string;
}

function git(dir: string, args: readonly string[]): string {
  return execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.org', ...args], { cwd: dir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

function structured<T>(result: CallToolResult): T {
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return result.structuredContent as T;
}

async function everyNote(server: ServerHandle, args: Record<string, unknown> = {}): Promise<Item[]> {
  const items: Item[] = [];
  for (let page = 1; ; page++) {
    const result = structured<{ items: Item[]; total: number }>(await server.call('list_notes', { ...args, page, size: 50 }, 120_000));
    items.push(...result.items);
    if (result.items.length === 0 || items.length >= result.total) return items;
  }
}

/** A word of some note's title, to search for until the server answers. */
function probeWord(dir: string): string {
  const names = git(dir, ['ls-files', '-z', '--', '*.md']).split('\0').filter((name) => name !== '');
  for (const name of names) {
    const word = /[A-Za-z]{5,}/.exec(path.basename(name, '.md'))?.[0];
    if (word) return word;
  }
  return 'the';
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** One start: initialize, searchable, git dates in (from the server's log), then a session of reads. */
async function start(dir: string, word: string, reads: boolean): Promise<Record<string, number | string>> {
  const server = await startServer(dir, 60_000, ['--scopes', 'notes:read']);
  try {
    const searchable = await waitUntilSearchable(server, word, 600_000);
    const gitIn = await until(() => /Read the git history|git history skipped|dates from git history are skipped/i.test(server.log()) || /from the index cache/.test(server.log()), 120_000);
    const figures: Record<string, number | string> = {
      initialize_ms: Math.round(server.initializeMs),
      searchable_ms: Math.round(searchable),
      git_dates: gitIn ? (/Read the git history[^\n]*/.exec(server.log())?.[0] ?? 'from cache') : 'not in after 120 s',
    };
    if (reads) {
      const started = performance.now();
      const all = await everyNote(server);
      for (const item of all.slice(0, 500)) structured(await server.call('get_note', { note_id: item.id }));
      for (const query of ['note', 'link', 'sync', 'graph', word]) structured(await server.call('search_notes', { query }));
      structured(await server.call('list_tags', {}));
      structured(await server.call('list_folders', {}));
      figures.notes = all.length;
      figures.reads_ms = Math.round(performance.now() - started);
    }
    return figures;
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { vault: { type: 'string' } } });
  if (!values.vault) throw new Error('Usage: npm run bench:real -- --vault DIR (a git work tree, used as the origin of fresh clones)');
  const origin = path.resolve(values.vault);
  const work = await mkdtemp(path.join(os.tmpdir(), 'dexi-real-'));
  const result: Record<string, unknown> = {
    machine: { cpus: os.cpus()[0]?.model, cores: os.cpus().length, node: process.version, load: os.loadavg().map((n) => n.toFixed(2)).join(' ') },
    vault: origin,
    commits: Number(git(origin, ['rev-list', '--count', 'HEAD']).trim()),
  };
  try {
    const a = path.join(work, 'a');
    const b = path.join(work, 'b');
    // Blob-less objects are fine: the server reads only what git has.
    git(work, ['clone', '-q', origin, a]);
    git(work, ['clone', '-q', origin, b]);
    const word = probeWord(a);

    result.cold = await start(a, word, true);
    result.git_status_after_reads = git(a, ['status', '--porcelain']).split('\n').filter((line) => line !== '').length;
    result.warm = await start(a, word, false);
    result.git_status_after_warm = git(a, ['status', '--porcelain']).split('\n').filter((line) => line !== '').length;

    // Two clones, each served: the same ids; then a commit on each, pulled into the other.
    const serverA = await startServer(a, 60_000, ['--scopes', 'notes:read']);
    const serverB = await startServer(b, 60_000, ['--scopes', 'notes:read']);
    try {
      await waitUntilSearchable(serverA, word, 600_000);
      await waitUntilSearchable(serverB, word, 600_000);
      const idsA = new Set((await everyNote(serverA)).map((item) => item.id));
      const idsB = new Set((await everyNote(serverB)).map((item) => item.id));
      result.clones = { notes_a: idsA.size, notes_b: idsB.size, ids_of_a_not_in_b: [...idsA].filter((id) => !idsB.has(id)).length };
      const today = await everyNote(serverB, { period: 'today' });
      result.period_today = { listed: today.length, titles: today.slice(0, 5).map((item) => item.title) };
    } finally {
      await serverA.stop();
      await serverB.stop();
    }
    await writeFile(path.join(a, 'From clone A.md'), 'Written on machine A.\n');
    git(a, ['add', '-A']);
    git(a, ['commit', '-q', '-m', 'from a']);
    await writeFile(path.join(b, 'From clone B.md'), 'Written on machine B.\n');
    git(b, ['add', '-A']);
    git(b, ['commit', '-q', '-m', 'from b']);
    git(a, ['remote', 'add', 'b', b]);
    git(b, ['remote', 'add', 'a', a]);
    git(a, ['pull', '-q', '--no-rebase', '--no-edit', 'b', 'HEAD']);
    git(b, ['pull', '-q', '--no-rebase', '--no-edit', 'a', 'HEAD']);
    result.pull_conflicts = git(a, ['diff', '--name-only', '--diff-filter=U']).split('\n').filter((line) => line !== '').length;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
