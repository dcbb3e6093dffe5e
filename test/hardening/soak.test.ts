import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFrontmatter, splitFrontmatter } from '../../src/format/frontmatter.js';
import { removeDir, tempDir, waitFor, writeVault } from '../support/helpers.js';
import { allFiles, createRandom, differenceFromRebuild, noteFiles, notPlain, openShared, textOf, type Connection, type Shared } from '../support/harness.js';

/**
 * Several MCP clients on one server create, append, replace and delete
 * notes while, in other processes, an editor appends, moves, creates and
 * deletes files and a sync tool rewrites them (temporary file + rename, and
 * truncate + write). Every line any of them writes into a note is a unique
 * token, and every write is journaled with the time it started and ended.
 *
 * At the end, every token that was written (acknowledged by the server, or
 * done by the other programs) must be on disk, unless the journal shows an
 * operation that removed it: a delete of its note or a replace of its body
 * that ended after the token's write began, or a sync rewrite of its note
 * that ended after that and whose read did not contain it (a sync tool
 * that overwrites with what it read earlier). Anything else is a loss, and
 * fails the test. Also: no half-written or unparsable file, no temporary file
 * left, no note twice, no token twice, and the index equal to a rebuild.
 */

const RUN_MS = 32_000;
const CLIENTS = 4;
const LOOPS_PER_CLIENT = 2;
const SEED = 20_260_808;
const FOLDERS = ['', 'A', 'B', 'A/Deep'];
const TOKEN = /^[ACEIRS]-[0-9a-z-]+$/;
/** Clocks of two processes may differ by a little; a removal counts if it ended up to this long before a write began. */
const CLOCK_SLACK_MS = 2;
const ACTOR = fileURLToPath(new URL('../support/outside-actor.mjs', import.meta.url));

interface Write {
  origin: 'client' | 'editor' | 'sync';
  kind: string;
  token: string;
  id: string | null;
  t0: number;
  t1: number;
}

interface Removal {
  origin: 'client' | 'editor' | 'sync';
  kind: 'delete' | 'replace' | 'rewrite';
  id: string | null;
  t1: number;
  /** A replace's or rewrite's own token, which it does not remove. */
  token?: string;
  /** A rewrite's: the tokens in what it read. */
  readTokens?: string[];
}

interface ActorReport {
  role: string;
  counts: { ops: number; skipped: number };
  journal: ({ kind: string; token?: string; id?: string | null; t0: number; t1?: number; tokens?: string[]; readTokens?: string[]; via?: string })[];
}

const now = (): number => performance.timeOrigin + performance.now();
const dirs: string[] = [];
let shared: Shared | undefined;

afterAll(async () => {
  await shared?.close();
  for (const dir of dirs) await removeDir(dir);
});

function runActor(role: 'editor' | 'sync', dir: string, ms: number, seed: number): Promise<ActorReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ACTOR, role, dir, String(ms), String(seed)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`the ${role} exited with ${code}: ${err}`));
      else resolve(JSON.parse(out) as ActorReport);
    });
  });
}

function bodyTokens(body: string): string[] {
  return body.split('\n').filter((line) => TOKEN.test(line));
}

describe('soak: several clients, an editor and a sync tool on one vault', () => {
  it('loses no write, leaves no half-written file, duplicates no note, and keeps the index equal to a rebuild', async () => {
    const initial: Record<string, string> = {};
    for (let i = 1; i <= 40; i++) {
      const folder = FOLDERS[i % FOLDERS.length] as string;
      const name = `${i <= 12 ? 'hot' : 'cold'}-${i}.md`;
      // A few without an id, known by their paths.
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      initial[folder ? `${folder}/${name}` : name] = i % 8 === 0 ? `I-${i}\n` : `---\nid: ${id}\n---\nI-${i}\n`;
    }
    const dir = await writeVault(initial);
    const scratch = await tempDir();
    dirs.push(dir, scratch);
    shared = await openShared(dir);
    const s = shared;

    // Which notes the server saw each token in: a token written into a file
    // without an id (or moved into a copy) is traced to its note this way.
    const seenIn = new Map<string, Set<string>>();
    const observe = (id: string, body: string): void => {
      for (const token of bodyTokens(body)) {
        let ids = seenIn.get(token);
        if (!ids) seenIn.set(token, (ids = new Set()));
        ids.add(id);
      }
    };
    for (const record of s.runtime.own.all()) observe(record.id, (await s.runtime.own.read(record.id)).body);
    s.runtime.own.on('note', (record, body) => observe(record.id, body));

    // The notes' first lines count as writes too, made before anything started.
    const started = now();
    const writes: Write[] = Object.values(initial).map((content) => {
      const id = /^id: (\S+)$/m.exec(content)?.[1] ?? null;
      return { origin: 'editor', kind: 'initial', token: bodyTokens(content)[0] as string, id, t0: started, t1: started };
    });
    const removals: Removal[] = [];
    const attempted = new Set<string>(Object.values(initial).flatMap((content) => bodyTokens(content)));
    const errors = new Map<string, number>();
    const unexpected: string[] = [];
    const ops = new Map<string, number>();
    const count = (map: Map<string, number>, key: string): void => void map.set(key, (map.get(key) ?? 0) + 1);

    // The notes the clients know of: from their creates and from list_notes.
    let known: { id: string; title: string }[] = [];
    const deadline = Date.now() + RUN_MS;
    const rng = createRandom(SEED);

    const pickId = (): string | undefined => {
      if (known.length === 0) return undefined;
      const hot = known.filter((note) => note.title.startsWith('hot'));
      return (hot.length > 0 && rng.chance(0.5) ? rng.pick(hot) : rng.pick(known)).id;
    };

    const refresh = async (connection: Connection): Promise<void> => {
      const all: { id: string; title: string }[] = [];
      for (let page = 1; page < 20; page++) {
        const result = await connection.call('list_notes', { size: 50, page });
        if (result.isError) return;
        const items = (result.structuredContent as { items: { id: string; title: string }[] }).items;
        all.push(...items);
        if (items.length < 50) break;
      }
      known = all;
    };

    const failed = (name: string, text: string): void => {
      const why = notPlain(text);
      if (why) unexpected.push(`${name}: ${why}: ${text}`);
      // Refusals that change nothing, each the right answer here: a note deleted meanwhile, and a note the
      // editor or the sync tool kept writing (the busy one: no 300 ms of quiet in 2.5 s; one in 1,358 calls
      // of a fresh clone's run with three test files at once).
      else if (/Note not found|kept changing on disk|being written by another program/.test(text)) count(errors, text.split(';')[0] ?? text);
      else unexpected.push(`${name}: ${text}`);
    };

    let serial = 0;
    const clientLoop = async (connection: Connection, name: string): Promise<void> => {
      while (Date.now() < deadline) {
        const roll = rng.next();
        const t0 = now();
        const n = ++serial;
        if (roll < 0.12) {
          const token = `C-${name}-${n}`;
          attempted.add(token);
          const title = `${rng.chance(0.3) ? 'hot' : 'cold'} ${name} ${n}`;
          const result = await connection.call('create_note', { title, text: `${token}\n` });
          count(ops, 'create');
          if (result.isError) failed('create_note', textOf(result));
          else {
            const id = (result.structuredContent as { id: string }).id;
            writes.push({ origin: 'client', kind: 'create', token, id, t0, t1: now() });
            known.push({ id, title });
          }
        } else if (roll < 0.62) {
          const id = pickId();
          if (!id) continue;
          const append = roll < 0.57;
          const token = `${append ? 'A' : 'R'}-${name}-${n}`;
          attempted.add(token);
          const result = await connection.call('update_note', { note_id: id, text: `${token}\n`, mode: append ? 'append' : 'replace' });
          count(ops, append ? 'append' : 'replace');
          if (result.isError) failed('update_note', textOf(result));
          else {
            writes.push({ origin: 'client', kind: append ? 'append' : 'replace', token, id, t0, t1: now() });
            if (!append) removals.push({ origin: 'client', kind: 'replace', id, t1: now(), token });
          }
        } else if (roll < 0.64) {
          const id = pickId();
          if (!id) continue;
          const result = await connection.call('delete_note', { note_id: id });
          count(ops, 'delete');
          if (result.isError) failed('delete_note', textOf(result));
          else {
            removals.push({ origin: 'client', kind: 'delete', id, t1: now() });
            known = known.filter((note) => note.id !== id);
          }
        } else if (roll < 0.84) {
          const id = pickId();
          if (!id) continue;
          const result = await connection.call('get_note', { note_id: id });
          count(ops, 'get_note');
          if (result.isError) failed('get_note', textOf(result));
          else expect((result.structuredContent as { id: string }).id).toBe(id);
        } else if (roll < 0.93) {
          await refresh(connection);
          count(ops, 'list_notes');
        } else {
          const result = await connection.call('search_notes', { query: rng.pick(['hot', 'cold', 'tok', `A ${name}`, 'I']) });
          count(ops, 'search_notes');
          if (result.isError) failed('search_notes', textOf(result));
        }
      }
    };

    const connections = await Promise.all(Array.from({ length: CLIENTS }, () => s.connect()));
    await refresh(connections[0] as Connection);
    const actors = Promise.all([runActor('editor', dir, RUN_MS, SEED + 1), runActor('sync', dir, RUN_MS, SEED + 2)]);
    await Promise.all(connections.flatMap((connection, k) => Array.from({ length: LOOPS_PER_CLIENT }, (_, j) => clientLoop(connection, `c${k}${j}`))));
    const reports = await actors;

    for (const report of reports) {
      const origin = report.role === 'editor' ? 'editor' : 'sync';
      for (const entry of report.journal) {
        if (entry.token) attempted.add(entry.token);
        if (entry.kind === 'create' || entry.kind === 'append') {
          writes.push({ origin, kind: entry.kind, token: entry.token as string, id: entry.id ?? null, t0: entry.t0, t1: entry.t1 as number });
        } else if (entry.kind === 'rewrite') {
          writes.push({ origin, kind: `rewrite ${entry.via}`, token: entry.token as string, id: entry.id ?? null, t0: entry.t0, t1: entry.t1 as number });
          removals.push({ origin, kind: 'rewrite', id: entry.id ?? null, t1: entry.t1 as number, token: entry.token as string, readTokens: entry.readTokens ?? [] });
        } else if (entry.kind === 'delete') {
          removals.push({ origin, kind: 'delete', id: entry.id ?? null, t1: entry.t1 as number });
        }
      }
    }

    // Let the watcher take in the last outside changes: the index then has to equal a rebuild.
    let lastDifference: string | undefined;
    const difference = await waitFor(
      async () => {
        lastDifference = await differenceFromRebuild(s.runtime, dir, scratch);
        return lastDifference === undefined ? 'same' : undefined;
      },
      30_000,
      'the live index to equal one rebuilt from the files',
    ).catch((error: Error) => `${error.message}; last difference: ${lastDifference}`);
    expect(difference).toBe('same');

    // Files: none half-written, no temporary file, every note parses, ids unique.
    const everything = await allFiles(dir);
    expect(everything.filter((rel) => rel.includes('.dexi-tmp-') || rel.includes('.sync-'))).toEqual([]);
    const files = await noteFiles(dir);
    const ids = new Map<string, string>();
    const tokenFiles = new Map<string, string[]>();
    const problems: string[] = [];
    for (const rel of files) {
      const content = await readFile(path.join(dir, rel), 'utf8');
      const split = splitFrontmatter(content);
      const parsed = parseFrontmatter(split.yaml);
      // The server writes no ids into files it only reads: each note's id is the one the server gives it.
      const id = s.runtime.own.atPath(rel)?.id;
      if (!parsed.ok || id === undefined) {
        problems.push(`${rel} does not parse or is not a note of the server`);
        continue;
      }
      const other = ids.get(id);
      if (other) problems.push(`${rel} and ${other} are one note (id ${id})`);
      ids.set(id, rel);
      for (const line of split.body.split('\n')) {
        if (line === '') continue;
        if (!TOKEN.test(line) || !attempted.has(line)) problems.push(`${rel} holds a line nobody wrote: ${JSON.stringify(line.slice(0, 80))}`);
      }
      // A conflict copy keeps a version of a note beside it: its tokens may be in the note too.
      if (rel.includes('(conflict')) continue;
      for (const token of bodyTokens(split.body)) tokenFiles.set(token, [...(tokenFiles.get(token) ?? []), rel]);
    }
    const onDisk = new Set(tokenFiles.keys());
    for (const rel of files.filter((file) => file.includes('(conflict'))) {
      for (const token of bodyTokens(splitFrontmatter(await readFile(path.join(dir, rel), 'utf8')).body)) onDisk.add(token);
    }
    for (const [token, where] of tokenFiles) if (where.length > 1) problems.push(`${token} is written ${where.length} times: ${where.join(', ')}`);

    // Every write on disk, or removed by a journaled operation.
    const explained = new Map<string, number>();
    const lost: string[] = [];
    for (const write of writes) {
      if (onDisk.has(write.token)) continue;
      const notes = new Set([...(write.id ? [write.id] : []), ...(seenIn.get(write.token) ?? [])]);
      const after = (removal: Removal): boolean => removal.id !== null && notes.has(removal.id) && removal.t1 > write.t0 - CLOCK_SLACK_MS && removal.token !== write.token;
      const why = removals.find(
        (removal) => after(removal) && (removal.kind !== 'rewrite' || !(removal.readTokens ?? []).includes(write.token)),
      );
      if (why) count(explained, `${why.kind} by ${why.origin}`);
      else lost.push(`${write.origin} ${write.kind} ${write.token} (note ${[...notes].join('/') || '?'})`);
    }

    // The server's own answer agrees with the files.
    const listed = await (connections[0] as Connection).call('list_notes', { size: 1 });
    const total = (listed.structuredContent as { total: number }).total;

    const vaultStats = s.runtime.own.stats;
    const outside = reports.map((report) => `${report.role} ${report.journal.length} writes`).join(', ');
    const clientOps = [...ops.values()].reduce((a, b) => a + b, 0);
    const byOrigin = (origin: Write['origin']): number => writes.filter((write) => write.origin === origin).length;
    console.log(
      `[hardening] soak: ${RUN_MS / 1000} s, ${CLIENTS} clients x ${LOOPS_PER_CLIENT} loops on one server: ${clientOps} tool calls ` +
        `(${[...ops].map(([k, v]) => `${v} ${k}`).join(', ')}); outside: ${outside}; ` +
        `${byOrigin('client')} acknowledged client writes, ${byOrigin('editor') + byOrigin('sync')} outside writes tracked; ` +
        `server met outside writes: ${vaultStats.writesRedone} redone, ${vaultStats.writesPutBack} put back, ${vaultStats.conflictCopies} conflict copies; ` +
        `removed by journaled operations: ${[...explained].map(([k, v]) => `${v} ${k}`).join(', ') || 'none'}; ` +
        `refused: ${[...errors].map(([k, v]) => `${v} "${k}"`).join(', ') || 'none'}; ` +
        `${files.length} notes at the end; lost ${lost.length}${lost.length > 0 ? `: ${lost.slice(0, 5).join('; ')}` : ''}`,
    );

    if (unexpected.length > 0 || lost.length > 0 || problems.length > 0) {
      const failures = s.logs.filter((line) => /failed|Watcher/.test(line));
      console.log(`[hardening] soak: first server log lines of failures:\n${failures.slice(0, 6).join('\n')}`);
    }
    expect(unexpected).toEqual([]);
    expect(problems).toEqual([]);
    expect(lost).toEqual([]);
    expect(total).toBe(files.length);
    // The soak must have done real work; how much depends on the machine's
    // load (789 acknowledged on an idle 2-core machine, 101 with both cores
    // busy with other work), so the floor is set well below either.
    expect(byOrigin('client')).toBeGreaterThan(50);
    expect(byOrigin('editor') + byOrigin('sync')).toBeGreaterThan(500);
  }, 150_000);
});
