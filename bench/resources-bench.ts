/**
 * `npm run bench:resources`: what a client's resource picker and argument
 * completion cost on the generated vaults of 10,000 and 100,000 notes
 * (`--notes N` for one size), through the built server over stdio, once the
 * vault is read: `resources/list` (the first page, and one from the middle
 * of the list), `resources/read`, completion of the review-session deck and
 * of the note template's note_id, and `prompts/get` of weekly-digest. Then
 * what the record of writes costs a write: 600 appends (`update_note`) to a
 * temporary vault of 200 notes, each keeping the version it replaces in
 * .dexi/history/ first. The median and p95 of each go to stdout and to
 * .bench/resources-results.json.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_DIR } from './paths.js';
import { ensureVault, LARGE_TARGET_NOTES, startServer, TARGET_NOTES, type ServerHandle } from './run.js';
import { summarize, type Summary } from './stats.js';

const SAMPLES = 30;
const WARMUP = 3;

async function timed(samples: number, call: (i: number) => Promise<unknown>): Promise<Summary> {
  for (let i = 0; i < WARMUP; i++) await call(i);
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await call(i);
    times.push(performance.now() - started);
  }
  return summarize(times);
}

/** Resolves once the vault is read: resources/list answers instead of "still being read". */
async function whenRead(server: ServerHandle, timeoutMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    try {
      await server.client.listResources();
      return performance.now() - started;
    } catch (error) {
      if (performance.now() - started > timeoutMs) throw new Error(`the vault was not read within ${timeoutMs / 1000} s: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function measure(notes: number): Promise<Record<string, Summary | number>> {
  const vault = await ensureVault(notes, 42);
  const server = await startServer(vault.dir, 60_000);
  try {
    await whenRead(server, 600_000);
    const { client } = server;
    const first = await client.listResources();
    const ids = first.resources.map((resource) => resource.uri);
    const middle = String(Math.floor(notes / 200) * 100);
    const results: Record<string, Summary | number> = { notes };
    results['resources/list, first page'] = await timed(SAMPLES, () => client.listResources());
    results[`resources/list, page at ${middle}`] = await timed(SAMPLES, () => client.listResources({ cursor: middle }));
    results['resources/read'] = await timed(SAMPLES, (i) => client.readResource({ uri: ids[i % ids.length] as string }));
    results['complete review-session deck "fl"'] = await timed(SAMPLES, () => client.complete({ ref: { type: 'ref/prompt', name: 'review-session' }, argument: { name: 'deck', value: 'fl' } }));
    results['complete note_id "pro"'] = await timed(SAMPLES, () => client.complete({ ref: { type: 'ref/resource', uri: 'dexi-note://{note_id}' }, argument: { name: 'note_id', value: 'pro' } }));
    results['complete note_id "" (every note)'] = await timed(SAMPLES, () => client.complete({ ref: { type: 'ref/resource', uri: 'dexi-note://{note_id}' }, argument: { name: 'note_id', value: '' } }));
    results['prompts/get weekly-digest'] = await timed(SAMPLES, () => client.getPrompt({ name: 'weekly-digest', arguments: {} }));
    return results;
  } finally {
    await server.stop();
  }
}

/** `update_note` appends with the record of writes on: 3 rounds over 200 notes of 300 words, in a vault made here and removed after. */
async function measureAppends(): Promise<Summary> {
  const dir = await mkdtemp(path.join(tmpdir(), 'dexi-append-bench-'));
  try {
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      ids.push(id);
      await writeFile(path.join(dir, `Note ${i}.md`), `---\nid: ${id}\n---\n${'word '.repeat(300)}\n`);
    }
    const server = await startServer(dir, 60_000);
    try {
      await whenRead(server, 60_000);
      const calls = ids.flatMap((id, i) => [0, 1, 2].map((round) => ({ id, text: `line ${round} ${i}` })));
      return await timed(calls.length - WARMUP, async (i) => {
        const call = calls[i % calls.length] as { id: string; text: string };
        const result = await server.call('update_note', { note_id: call.id, text: call.text, mode: 'append' });
        if (result.isError) throw new Error(`update_note failed: ${JSON.stringify(result.content)}`);
      });
    } finally {
      await server.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { notes: { type: 'string' } } });
  const sizes = values.notes === undefined ? [TARGET_NOTES, LARGE_TARGET_NOTES] : [Number(values.notes)];
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  process.stdout.write(`Machine: ${cpu}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.versions.node}\n`);
  const all: Record<string, Summary | number>[] = [];
  for (const notes of sizes) {
    const results = await measure(notes);
    all.push(results);
    process.stdout.write(`\n${notes.toLocaleString('en')} notes (median / p95 ms, ${SAMPLES} calls each):\n`);
    for (const [name, value] of Object.entries(results)) {
      if (typeof value === 'number') continue;
      process.stdout.write(`  ${name.padEnd(38)} ${value.median.toFixed(1).padStart(7)} / ${value.p95.toFixed(1)}\n`);
    }
  }
  const appends = await measureAppends();
  process.stdout.write(`\nupdate_note append with the record of writes, ${appends.n} calls: ${appends.median.toFixed(2)} / ${appends.p95.toFixed(2)} ms (median / p95)\n`);
  await writeFile(path.join(BENCH_DIR, 'resources-results.json'), `${JSON.stringify({ machine: cpu, node: process.versions.node, runs: all, appends }, null, 2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`The benchmark stopped: ${(error as Error).message}\n`);
  process.exitCode = 1;
});
