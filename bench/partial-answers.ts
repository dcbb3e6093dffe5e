#!/usr/bin/env node
/**
 * `npm run bench:partial -- --vault DIR`: are semantic answers honest while
 * a vault is being embedded? The built server is started over stdio on a
 * copy of the vault without its caches (so every note is embedded from
 * scratch), and the same queries (titles of the vault's own notes) are asked
 * of `semantic_search` every few seconds until an answer carries no
 * `indexing` object, then once more. An answer without `indexing` must be
 * the final one; answers with it may differ. `find_similar` is asked about
 * one note all along, to see what it says before that note is embedded.
 *
 * Prints one JSON object; the vault is only read (it is copied first).
 */
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startStdioServer } from '../test/support/stdio-server.js';
import { CLI, ROOT } from './paths.js';
import { createRng } from '../test/support/random.js';

interface Answer {
  ids: string[];
  indexing?: { embedded: number; searchable: number; total: number };
  error?: string;
}

async function noteTitles(dir: string): Promise<string[]> {
  const titles: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    for (const entry of await readdir(path.join(dir, rel), { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) await walk(child);
      else if (entry.name.endsWith('.md')) titles.push(path.basename(entry.name, '.md'));
    }
  };
  await walk('');
  return titles.sort();
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { vault: { type: 'string' }, queries: { type: 'string' }, 'interval-ms': { type: 'string' } } });
  if (!values.vault) throw new Error('Give the vault to read: npm run bench:partial -- --vault DIR');
  const source = path.resolve(values.vault);
  const queryCount = Number(values.queries ?? 8);
  const intervalMs = Number(values['interval-ms'] ?? 3000);
  const copy = await mkdtemp(path.join(os.tmpdir(), 'dexi-partial-'));
  await cp(source, copy, { recursive: true, filter: (src) => !/[\\/](\.dexi|\.git)$/.test(src) });
  const titles = await noteTitles(copy);
  const random = createRng(7);
  const queries = Array.from({ length: queryCount }, () => titles[Math.floor(random() * titles.length)] as string);

  const started = performance.now();
  const server = await startStdioServer({ args: [CLI, 'serve', '--vault', copy], cwd: ROOT, clientName: 'partial-answers' });
  const rounds: { seconds: number; answers: Answer[]; similar: string }[] = [];
  let similarTo: string | undefined;
  try {
    for (let final = 0; final < 2; ) {
      const answers: Answer[] = [];
      for (const query of queries) {
        const result = await server.call('semantic_search', { query, size: 5 }, 120_000);
        if (result.isError) {
          answers.push({ ids: [], error: JSON.stringify(result.content) });
          continue;
        }
        const content = result.structuredContent as { items: { id: string }[]; indexing?: Answer['indexing'] };
        answers.push({ ids: content.items.map((item) => item.id), ...(content.indexing ? { indexing: content.indexing } : {}) });
      }
      similarTo ??= answers.find((answer) => answer.ids.length > 0)?.ids.at(-1);
      let similar = '';
      if (similarTo) {
        const result = await server.call('find_similar', { note_id: similarTo, size: 5 });
        similar = result.isError ? JSON.stringify(result.content) : 'answered';
      }
      rounds.push({ seconds: +((performance.now() - started) / 1000).toFixed(1), answers, similar });
      if (answers.every((answer) => !answer.indexing && !answer.error)) final++;
      else await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  } finally {
    await server.client.close();
    await rm(copy, { recursive: true, force: true });
  }
  const last = rounds.at(-1)?.answers ?? [];
  const same = (answer: Answer, i: number): boolean => JSON.stringify(answer.ids) === JSON.stringify(last[i]?.ids);
  const all = rounds.flatMap((round) => round.answers.map((answer, i) => ({ answer, i, seconds: round.seconds })));
  const errors = all.filter(({ answer }) => answer.error);
  const withIndexing = all.filter(({ answer }) => answer.indexing);
  const without = all.filter(({ answer }) => !answer.indexing && !answer.error);
  const firstComplete = rounds.find((round) => round.answers.every((answer) => !answer.indexing));
  const firstSearchable = rounds.find((round) => round.answers.every((answer) => !answer.indexing || answer.indexing.searchable === answer.indexing.total));
  console.log(
    JSON.stringify(
      {
        vault: path.basename(source),
        notes: titles.length,
        queries,
        rounds: rounds.length,
        answers: all.length,
        withIndexing: withIndexing.length,
        withIndexingThatDifferFromFinal: withIndexing.filter(({ answer, i }) => !same(answer, i)).length,
        withoutIndexing: without.length,
        withoutIndexingThatDifferFromFinal: without
          .filter(({ answer, i }) => !same(answer, i))
          .map(({ answer, i, seconds }) => ({ seconds, query: queries[i], ids: answer.ids, final: last[i]?.ids })),
        errors: errors.map(({ answer, seconds }) => ({ seconds, error: answer.error })),
        secondsUntilEverySearchable: firstSearchable?.seconds,
        secondsUntilComplete: firstComplete?.seconds,
        indexingSeen: rounds.map((round) => ({ s: round.seconds, indexing: round.answers[0]?.indexing ?? null, findSimilar: round.similar })),
        machine: { cpu: os.cpus()[0]?.model, cores: os.cpus().length, node: process.version, loadAverage: os.loadavg()[0]?.toFixed(2) },
      },
      null,
      2,
    ),
  );
}

main().catch((error: unknown) => {
  console.error(`partial answers: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
