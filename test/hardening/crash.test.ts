import { existsSync } from 'node:fs';
import { readFile, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFrontmatter, splitFrontmatter } from '../../src/format/frontmatter.js';
import { cacheFile } from '../../src/index/cache.js';
import { cacheDir } from '../../src/storage/dexi-dir.js';
import { ActivityLog, type ActivityRecord } from '../../src/vault/record/activity.js';
import { settledEntries } from '../../src/vault/record/activity-settle.js';
import { hashContent } from '../../src/vault/parse.js';
import { CLI } from '../support/process.js';
import { removeDir, writeVault } from '../support/helpers.js';
import { gitStatus, initRepo } from '../support/git.js';
import { allFiles, createRandom, noteFiles } from '../support/harness.js';
import { startRaw, type RawServer } from '../support/rpc.js';

/**
 * The built server (`node dist/app/dexi-vault.js serve --vault DIR` over stdio) is
 * killed with SIGKILL in the middle of a burst of writes, again and again.
 * After each kill, every note file must parse and hold its old content or one
 * of the new ones sent (an acknowledged write always landed); after each
 * restart the server must answer from the files, with no repair by hand,
 * though its index cache is stale, cut short or garbage, and though the kill
 * left temporary files behind, which must never be taken for notes.
 */

const ROUNDS = 15;
const SEED = 4242;

interface Note {
  id: string;
  path: string;
  content: string;
  body: string;
}

type Op =
  | { kind: 'append'; id: string; token: string; index: number }
  | { kind: 'replace'; id: string; token: string; index: number }
  | { kind: 'create'; token: string; title: string }
  | { kind: 'delete'; id: string };

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await removeDir(dir);
});

async function readNotes(dir: string): Promise<{ notes: Map<string, Note>; problems: string[] }> {
  const notes = new Map<string, Note>();
  const problems: string[] = [];
  for (const rel of await noteFiles(dir)) {
    const content = await readFile(path.join(dir, rel), 'utf8');
    const split = splitFrontmatter(content);
    const parsed = parseFrontmatter(split.yaml);
    if (!parsed.ok || typeof parsed.data.id !== 'string') {
      problems.push(`${rel} does not parse or has no id: ${JSON.stringify(content.slice(0, 120))}`);
      continue;
    }
    if (notes.has(parsed.data.id)) problems.push(`${rel} repeats the id of ${notes.get(parsed.data.id)?.path}`);
    notes.set(parsed.data.id, { id: parsed.data.id, path: rel, content, body: split.body });
  }
  return { notes, problems };
}

/** Tool calls made after a restart, retried (bounded) while the server says it is still reading the vault. */
async function callReady(server: RawServer, name: string, args: Record<string, unknown>): Promise<Awaited<ReturnType<RawServer['callTool']>>> {
  for (let attempt = 0; ; attempt++) {
    const result = await server.callTool(name, args);
    const text = result.content[0]?.text ?? '';
    if (!(result.isError && /still being (read|built)/.test(text)) || attempt > 40) return result;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** After a restart: the server lists exactly the note files, reads them as they are, and finds their words. */
async function checkAnswers(server: RawServer, notes: Map<string, Note>, absentTokens: string[], rng: ReturnType<typeof createRandom>): Promise<string[]> {
  const problems: string[] = [];
  const listed = new Set<string>();
  for (let page = 1; page < 50; page++) {
    const result = await callReady(server, 'list_notes', { size: 50, page });
    if (result.isError) return [`list_notes failed: ${result.content[0]?.text}`];
    const items = (result.structuredContent as { items: { id: string }[] }).items;
    for (const item of items) listed.add(item.id);
    if (items.length < 50) break;
  }
  const expected = [...notes.keys()].sort();
  if (JSON.stringify([...listed].sort()) !== JSON.stringify(expected)) {
    problems.push(`list_notes shows ${listed.size} notes, the files hold ${expected.length}: extra ${[...listed].filter((id) => !notes.has(id)).join(', ') || 'none'}`);
  }
  const sample = [...notes.values()].sort(() => rng.next() - 0.5).slice(0, 4);
  for (const note of sample) {
    const result = await callReady(server, 'get_note', { note_id: note.id });
    const text = (result.structuredContent as { text?: string } | undefined)?.text;
    if (text !== note.body) problems.push(`get_note ${note.id} gives ${JSON.stringify(text?.slice(0, 60))}, the file says ${JSON.stringify(note.body.slice(0, 60))}`);
    const token = note.body.trim().split('\n').at(-1) as string;
    const found = await callReady(server, 'search_notes', { query: token, size: 50 });
    const ids = (found.structuredContent as { items: { id: string }[] } | undefined)?.items.map((item) => item.id) ?? [];
    if (!ids.includes(note.id)) problems.push(`search_notes "${token}" does not find ${note.id}`);
  }
  // Words only a leftover temporary file holds must not be found: it is not a note.
  for (const token of absentTokens.slice(0, 3)) {
    const found = await callReady(server, 'search_notes', { query: token, size: 50 });
    const items = (found.structuredContent as { items: unknown[] } | undefined)?.items ?? [];
    if (items.length > 0) problems.push(`search_notes "${token}" finds a note, but that word is only in a temporary file`);
  }
  return problems;
}

/**
 * Every change a kill left on disk is on record, as the next start will read
 * it (pending lines settled from the disk): each note changed or made has an
 * entry whose `after` is its content, each note gone an entry deleting it.
 */
function unrecorded(entries: readonly ActivityRecord[], before: Map<string, Note>, after: Map<string, Note>): string[] {
  const hash = (note: Note): string => hashContent(Buffer.from(note.content));
  const missing: string[] = [];
  for (const [id, note] of after) {
    if (before.get(id)?.content === note.content) continue;
    const action = before.has(id) ? 'changed' : 'created';
    if (!entries.some((entry) => entry.action === action && entry.path === note.path && entry.after === hash(note))) missing.push(`${action} ${note.path}`);
  }
  for (const [id, note] of before) {
    if (after.has(id)) continue;
    if (!entries.some((entry) => entry.action === 'deleted' && entry.path === note.path && entry.before === hash(note))) missing.push(`deleted ${note.path}`);
  }
  return missing;
}

describe('crash safety: SIGKILL in the middle of a burst of writes', () => {
  it(`${ROUNDS} rounds: every file old or new, acknowledged writes kept, restarts need no repair`, async () => {
    expect(existsSync(CLI), 'build first: npm run build').toBe(true);
    const rng = createRandom(SEED);
    const word = (): string => `q${Array.from({ length: 7 }, () => String.fromCharCode(97 + rng.int(26))).join('')}`;
    const initial: Record<string, string> = {};
    for (let i = 0; i < 16; i++) initial[`${i % 3 === 0 ? 'Work/' : ''}note ${i}.md`] = `---\nid: 00000000-0000-4000-8000-${String(i).padStart(12, '0')}\ntags: [crash]\n---\n${word()}\n`;
    const dir = await writeVault(initial);
    dirs.push(dir);
    // A git work tree, so that what a kill leaves behind is seen as `git add -A` would see it.
    initRepo(dir);

    const totals = { changesOnRecord: 0, sent: 0, acked: 0, unanswered: 0, tempLeft: 0, roundsWithTemp: 0, cacheTorn: 0, cacheGarbage: 0, restarts: 0 };
    let baseline = (await readNotes(dir)).notes;
    let absentTokens: string[] = [];
    let leftBehind: string[] = [];

    for (let round = 1; round <= ROUNDS + 1; round++) {
      const server = await startRaw(dir);
      totals.restarts++;
      expect(await checkAnswers(server, baseline, absentTokens, rng), `answers after restart ${round}`).toEqual([]);
      expect(leftBehind.filter((rel) => existsSync(path.join(dir, rel))), `temporary files still there after restart ${round}`).toEqual([]);
      if (round > ROUNDS) {
        server.child.stdin.end();
        expect((await server.exited).code, server.stderr()).toBe(0);
        break;
      }

      // The burst: appends, replaces, creates and deletes, all sent at once.
      const ids = [...baseline.keys()].sort(() => rng.next() - 0.5);
      const ops: Op[] = [];
      for (const id of ids.slice(0, 4)) for (let index = 0; index < 4; index++) ops.push({ kind: 'append', id, token: word(), index });
      for (const id of ids.slice(4, 7)) for (let index = 0; index < 3; index++) ops.push({ kind: 'replace', id, token: word(), index });
      for (let i = 0; i < 5; i++) ops.push({ kind: 'create', token: word(), title: `made ${round}-${i}` });
      if (baseline.size > 12) for (const id of ids.slice(7, 9)) ops.push({ kind: 'delete', id });
      const acked = new Set<Op>();
      const killAfter = rng.int(ops.length - 4);
      let killed = false;
      const kill = (): void => {
        if (killed) return;
        killed = true;
        server.kill('SIGKILL');
      };
      const created = new Map<string, Op>();
      const sent = ops.map((op) => {
        const args =
          op.kind === 'append' || op.kind === 'replace'
            ? { note_id: op.id, text: `${op.token}\n`, mode: op.kind }
            : op.kind === 'create'
              ? { title: op.title, text: `${op.token}\n` }
              : { note_id: op.id };
        const tool = op.kind === 'create' ? 'create_note' : op.kind === 'delete' ? 'delete_note' : 'update_note';
        return server.callTool(tool, args).then(
          (result) => {
            if (result.isError) throw new Error(`${tool} was refused: ${result.content[0]?.text}`);
            acked.add(op);
            if (op.kind === 'create') created.set((result.structuredContent as { id: string }).id, op);
            if (acked.size >= killAfter) kill();
          },
          () => undefined,
        );
      });
      totals.sent += ops.length;
      if (killAfter === 0) setTimeout(kill, rng.int(30));
      const deadline = setTimeout(kill, 5000);
      await Promise.all(sent);
      kill();
      clearTimeout(deadline);
      const exit = await server.exited;
      expect(exit.signal).toBe('SIGKILL');
      totals.acked += acked.size;
      totals.unanswered += ops.length - acked.size;

      // On disk: every file parses; each note is its old version or one that was sent.
      const { notes, problems } = await readNotes(dir);
      for (const [id, before] of baseline) {
        const now = notes.get(id);
        const mine = ops.filter((op): op is Exclude<Op, { kind: 'create' }> => op.kind !== 'create' && op.id === id);
        const ackedHere = mine.filter((op) => acked.has(op));
        if (!now) {
          if (!mine.some((op) => op.kind === 'delete')) problems.push(`${before.path} vanished`);
          continue;
        }
        if (mine.length === 0 || mine.every((op) => op.kind === 'delete')) {
          if (ackedHere.length > 0) problems.push(`${before.path} was deleted (acknowledged) but is still there`);
          else if (now.content !== before.content) problems.push(`${before.path} changed though nothing was sent to it`);
          continue;
        }
        const lastAcked = Math.max(-1, ...ackedHere.map((op) => ('index' in op ? op.index : -1)));
        const tokens = mine.map((op) => ('token' in op ? op.token : ''));
        if (mine[0]?.kind === 'append') {
          // The old body, then the appends in the order sent, up to where the kill stopped them.
          const landed = now.body.slice(before.body.length).split('\n').filter(Boolean);
          const isPrefix = now.body.startsWith(before.body) && landed.every((token, i) => token === tokens[i]);
          if (!isPrefix || landed.length - 1 < lastAcked) problems.push(`${before.path}: body ${JSON.stringify(now.body)} is not the old one plus the appends sent (acknowledged up to ${lastAcked})`);
        } else {
          const allowed = [...(lastAcked < 0 ? [before.body] : []), ...tokens.slice(Math.max(0, lastAcked)).map((token) => `${token}\n`)];
          if (!allowed.includes(now.body)) problems.push(`${before.path}: body ${JSON.stringify(now.body)} is neither the old one nor one sent after the last acknowledged`);
        }
      }
      const creates = ops.filter((op): op is Extract<Op, { kind: 'create' }> => op.kind === 'create');
      for (const [id, note] of notes) {
        if (baseline.has(id)) continue;
        const op = creates.find((candidate) => note.body === `${candidate.token}\n`);
        if (!op) problems.push(`${note.path} is a new note nobody asked for: ${JSON.stringify(note.body)}`);
      }
      for (const [id, op] of created) if (!notes.has(id)) problems.push(`created note ${id} (${(op as { title: string }).title}) was acknowledged but is gone`);
      expect(problems, `round ${round}`).toEqual([]);
      const record = await settledEntries(new ActivityLog(dir, { now: () => new Date() }, () => undefined), { persist: false });
      expect(unrecorded(record, baseline, notes), `changes not on record after kill ${round}`).toEqual([]);
      totals.changesOnRecord += [...notes].filter(([id, note]) => baseline.get(id)?.content !== note.content).length + [...baseline.keys()].filter((id) => !notes.has(id)).length;

      // Temporary files the kill left behind: never notes; their words must not be found after the restart.
      // They are all under .dexi/cache/ (ignored by git), never beside a note: a note's in tmp/, the
      // index cache's beside the cache (a kill during a save). The restart removes them.
      const temps = (await allFiles(dir)).filter((rel) => path.basename(rel).startsWith('.dexi-tmp-'));
      expect(temps.filter((rel) => !rel.startsWith('.dexi/cache/')), `round ${round}`).toEqual([]);
      // git sees only notes: changed, added or deleted ones, never the server's own files.
      expect(gitStatus(dir).split('\n').filter((line) => line !== '' && !/\.md"?$/.test(line)), `round ${round}`).toEqual([]);
      expect(gitStatus(dir), `round ${round}`).not.toMatch(/\.dexi/);
      leftBehind = temps;
      if (temps.length > 0) totals.roundsWithTemp++;
      totals.tempLeft += temps.length;
      const onDisk = new Set([...notes.values()].flatMap((note) => note.body.split('\n')));
      absentTokens = [];
      for (const rel of temps.filter((file) => file.endsWith('.md'))) {
        const text = await readFile(path.join(dir, rel), 'utf8').catch(() => '');
        absentTokens.push(...text.split('\n').filter((line) => /^q[a-z]{7}$/.test(line) && !onDisk.has(line)));
      }

      // The index cache: left stale (killed before saving), or cut short, or garbage.
      const cache = cacheFile(cacheDir(dir));
      if (existsSync(cache) && round % 3 === 1) {
        await truncate(cache, Math.floor((await readFile(cache)).length / 2));
        totals.cacheTorn++;
      } else if (existsSync(cache) && round % 5 === 2) {
        await writeFile(cache, 'dexi-idx but garbage after the magic');
        totals.cacheGarbage++;
      }
      baseline = notes;
    }

    console.log(
      `[hardening] crash: ${ROUNDS} SIGKILLs of the built server mid-burst, ${totals.restarts} restarts checked; ${totals.sent} writes sent, ` +
        `${totals.acked} acknowledged before the kill, ${totals.unanswered} unanswered when killed; ` +
        `${totals.tempLeft} temporary files left by ${totals.roundsWithTemp} kills (never taken for notes); ` +
        `index cache cut short ${totals.cacheTorn} times, garbage ${totals.cacheGarbage} times; every file old or new, 0 acknowledged writes lost; ` +
        `${totals.changesOnRecord} changes on disk after the kills, every one on record`,
    );
  }, 150_000);
});
