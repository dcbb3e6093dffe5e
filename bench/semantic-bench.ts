/**
 * `npm run bench:semantic`: the semantic-search figures of issue 4 on the
 * generated 10,000-note vault — embedding throughput with one and two
 * workers, a full embedding through `dexi-vault index`, a restart that must
 * embed nothing, semantic_search and find_similar round trips through the
 * MCP client over stdio, peak RSS, what the vectors and the HNSW graph take
 * (computed, beside the RSS growth of loading them), and HNSW recall@10
 * against an exact scan.
 * Figures go to stdout and to .bench/semantic-results.json.
 *
 * `--similarity` measures instead what a similarity of 0.6 means
 * (similarity-precision.ts): on the generated labeled set, and with
 * `--vault DIR --labels FILE` beside it on a real vault labeled by hand
 * (`--openings` when only the notes' openings are embedded yet);
 * `--vault DIR --questions FILE [--seeds FILE]` (JSON lists of questions
 * and of note paths) prints each question's top results and find_similar's
 * from each note, to label.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { embeddingText } from '../src/index/vectors/embedding-text.js';
import { SemanticIndexer } from '../src/index/vectors/semantic-indexer.js';
import { VectorIndex } from '../src/index/vectors/vector-index.js';
import { splitFrontmatter } from '../src/format/frontmatter.js';
import { generateQueries, generateVault } from './generate.js';
import { startStdioServer } from '../test/support/stdio-server.js';
import { BENCH_DIR, CLI, ROOT } from './paths.js';
import { generatedSetPrecision, labeledVaultPrecision, questionResults } from './similarity-precision.js';

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function noteFiles(dir: string, limit: number): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    for (const entry of await readdir(path.join(dir, rel), { withFileTypes: true })) {
      if (out.length >= limit) return;
      if (entry.name.startsWith('.')) continue;
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) await walk(child);
      else if (entry.name.endsWith('.md')) out.push(path.join(dir, child));
    }
  };
  await walk('');
  return out;
}

interface Throughput {
  /** Notes a second until every note's opening window is embedded (all searchable by meaning). */
  openingsNotesPerS: number;
  /** Notes a second until every window of every note is embedded. */
  completeNotesPerS: number;
  windows: number;
}

/**
 * Embeds `notes` from scratch through the indexer the server uses (both
 * passes, newest first), with a pool of `workers`, and times both passes.
 */
async function throughput(notes: { id: string; text: string }[], workers: number): Promise<Throughput> {
  const cacheDir = await mkdtemp(path.join(tmpdir(), 'dexi-throughput-'));
  let saved = '';
  const semantic = new SemanticIndexer({ cacheDir, embedder: { kind: 'use-lite' }, workers, log: (line) => (saved = line), autoSaveMs: 3_600_000 });
  try {
    await semantic.start();
    const started = performance.now();
    for (const note of notes) semantic.noteChanged(note.id, note.text);
    semantic.allNotesReported();
    let openings = 0;
    for (;;) {
      const progress = semantic.progress();
      if (progress.error) throw new Error(progress.error);
      if (openings === 0 && progress.embedded === notes.length) openings = performance.now() - started;
      if (progress.ready) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const complete = performance.now() - started;
    await semantic.flush();
    const windows = Number(/(\d+) chunks/.exec(saved)?.[1]);
    return {
      openingsNotesPerS: +(notes.length / (openings / 1000)).toFixed(2),
      completeNotesPerS: +(notes.length / (complete / 1000)).toFixed(2),
      windows,
    };
  } finally {
    await semantic.close();
    await rm(cacheDir, { recursive: true, force: true });
  }
}

function run(args: string[]): Promise<{ code: number | null; stderr: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stderr, ms: performance.now() - started }));
  });
}

async function peakRssMb(pid: number | null | undefined): Promise<number> {
  if (!pid) return NaN;
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
  return Math.round((kb * 1024) / 1e6);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      notes: { type: 'string' },
      sample: { type: 'string' },
      // Re-measure worker scaling alone (a minute) without the full embedding (tens of minutes).
      'throughput-only': { type: 'boolean' },
      // Re-measure the round trips, memory and recall on the vectors of an earlier run, without embedding again.
      'serve-only': { type: 'boolean' },
      similarity: { type: 'boolean' },
      vault: { type: 'string' },
      labels: { type: 'string' },
      questions: { type: 'string' },
      seeds: { type: 'string' },
      openings: { type: 'boolean' },
    },
  });
  if (values.similarity) return similarity(values);
  const size = Number(values.notes ?? 10_000);
  const sample = Number(values.sample ?? 120);
  const dir = path.join(BENCH_DIR, `vault-${size}-s42`);
  try {
    await readFile(path.join(dir, '..', `vault-${size}-s42.json`));
  } catch {
    await generateVault(dir, { notes: size, seed: 42 });
    await writeFile(path.join(dir, '..', `vault-${size}-s42.json`), JSON.stringify({ notes: size, seed: 42 }));
  }
  const results: Record<string, unknown> = {
    machine: { cpu: cpus()[0]?.model, cores: cpus().length, memoryGB: Math.round(totalmem() / 1e9), node: process.version },
    notes: size,
  };
  const log = (key: string, value: unknown): void => {
    results[key] = value;
    console.log(`${key}: ${JSON.stringify(value)}`);
  };

  if (!values['serve-only']) {
    // 1. Throughput, same notes, one worker then two.
    log('loadAverageBefore', loadavg()[0]?.toFixed(2));
    const files = await noteFiles(dir, sample);
    const notes = await Promise.all(
      files.map(async (file) => ({ id: file, text: embeddingText(path.basename(file, '.md'), splitFrontmatter(await readFile(file, 'utf8')).body) })),
    );
    const one = await throughput(notes, 1);
    const two = await throughput(notes, 2);
    log('throughput', {
      sampleNotes: notes.length,
      windows: two.windows,
      oneWorker: one,
      twoWorkers: two,
      speedupComplete: +(two.completeNotesPerS / one.completeNotesPerS).toFixed(2),
    });
    log('loadAverage', loadavg()[0]?.toFixed(2));
    if (values['throughput-only']) return;

    // 2. A full embedding from scratch (full-text cache kept), then a restart that must embed nothing.
    await rm(path.join(dir, '.dexi', 'cache', 'vectors'), { recursive: true, force: true });
    const full = await run(['index', '--vault', dir]);
    log('fullEmbedding', { exit: full.code, seconds: Math.round(full.ms / 1000), notesPerS: +(size / (full.ms / 1000)).toFixed(2), log: full.stderr.split('\n').filter((line) => /semantic index up to date|have vectors|searchable by meaning after/.test(line)) });
    const again = await run(['index', '--vault', dir]);
    log('restartUnchanged', { exit: again.code, seconds: +(again.ms / 1000).toFixed(1), log: again.stderr.split('\n').filter((line) => /semantic index up to date|have vectors/.test(line)) });
  }

  // 3. Round trips through the MCP client over stdio.
  const server = await startStdioServer({ args: [CLI, 'serve', '--vault', dir], cwd: ROOT, clientName: 'semantic-bench' });
  const { client, call } = server;
  for (;;) {
    const probe = await call('semantic_search', { query: 'warm up', size: 1 });
    if (!probe.isError && !(probe.structuredContent as { indexing?: unknown }).indexing) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const queries = generateQueries(11, 110);
  const searchTimes: number[] = [];
  const ids: string[] = [];
  for (const [i, query] of queries.entries()) {
    const started = performance.now();
    const result = await call('semantic_search', { query, size: 10 });
    if (i >= 10) searchTimes.push(performance.now() - started);
    const first = (result.structuredContent as { items: { id: string }[] }).items[0];
    if (first) ids.push(first.id);
  }
  const similarTimes: number[] = [];
  for (const id of ids.slice(0, 50)) {
    const started = performance.now();
    await call('find_similar', { note_id: id, size: 10 });
    similarTimes.push(performance.now() - started);
  }
  log('semanticSearchMs', { n: searchTimes.length, median: +percentile(searchTimes, 50).toFixed(1), p95: +percentile(searchTimes, 95).toFixed(1) });
  log('findSimilarMs', { n: similarTimes.length, median: +percentile(similarTimes, 50).toFixed(1), p95: +percentile(similarTimes, 95).toFixed(1) });
  log('servePeakRssMB', await peakRssMb(server.pid));
  await client.close();

  // 4. HNSW against an exact scan over the same saved vectors.
  const cache = path.join(dir, '.dexi', 'cache', 'vectors');
  const rssBefore = process.memoryUsage().rss;
  const graph = (await VectorIndex.load(cache, 'use-lite-512', 512)).index;
  await graph.whenGraphIdle();
  // What the vectors and the graph take, computed from their counts (memory.ts), beside what this process's RSS grew by to load them.
  const memory = graph.memory();
  const mb = (bytes: number): number => +(bytes / 1e6).toFixed(1);
  log('vectorMemoryMB', {
    chunks: graph.chunkCount,
    vectors: mb(memory.vectors),
    graph: memory.graph ? mb(memory.graph.total) : null,
    graphOwnVectorCopy: memory.graph ? mb(memory.graph.vectors) : null,
    graphLinks: memory.graph ? mb(memory.graph.links) : null,
    graphBookkeeping: memory.graph ? mb(memory.graph.bookkeeping) : null,
    loadRssGrowth: mb(process.memoryUsage().rss - rssBefore),
  });
  const exact = (await VectorIndex.load(cache, 'use-lite-512', 512, { exactThreshold: Number.MAX_SAFE_INTEGER })).index;
  const noteIds = [...graph.noteIds()];
  let overlap = 0;
  let total = 0;
  const probes = 200;
  for (let i = 0; i < probes; i++) {
    const id = noteIds[Math.floor((i * noteIds.length) / probes)] as string;
    const vector = graph.chunksOf(id)[0];
    if (!vector) continue;
    const fromGraph = new Set(graph.searchVector(vector, 10).map((hit) => hit.id));
    const fromExact = exact.searchVector(vector, 10).map((hit) => hit.id);
    overlap += fromExact.filter((hit) => fromGraph.has(hit)).length;
    total += fromExact.length;
  }
  log('hnswRecallAt10', { probes, usingGraph: graph.usingGraph, chunks: graph.chunkCount, recall: +(overlap / total).toFixed(4) });
  graph.dispose();
  exact.dispose();

  await writeFile(path.join(BENCH_DIR, 'semantic-results.json'), `${JSON.stringify(results, null, 2)}\n`);
}

/** `--similarity`: precision at 0.6 on the generated set and, when given, on a real vault (see the module's comment). */
async function similarity(values: { vault?: string; labels?: string; questions?: string; seeds?: string; openings?: boolean }): Promise<void> {
  const complete = values.openings !== true;
  if (values.vault && values.questions) {
    const queries = JSON.parse(await readFile(values.questions, 'utf8')) as string[];
    const seeds = values.seeds ? (JSON.parse(await readFile(values.seeds, 'utf8')) as string[]) : [];
    console.log(JSON.stringify(await questionResults(values.vault, queries, complete, seeds), null, 1));
    return;
  }
  const results: Record<string, unknown> = { loadAverageBefore: loadavg()[0]?.toFixed(2), generatedSet: await generatedSetPrecision() };
  if (values.vault && values.labels) results.labeledVault = { vault: path.basename(values.vault), openingsOnly: !complete, ...(await labeledVaultPrecision(values.vault, values.labels, complete)) };
  results.loadAverageAfter = loadavg()[0]?.toFixed(2);
  console.log(JSON.stringify(results, null, 1));
  await mkdir(BENCH_DIR, { recursive: true });
  await writeFile(path.join(BENCH_DIR, 'similarity-results.json'), `${JSON.stringify(results, null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(`semantic bench: ${error instanceof Error ? error.stack : String(error)}`);
  process.exitCode = 1;
});
