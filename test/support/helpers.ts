import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { createPolicy } from '../../src/access/policy.js';
import { ServedVault } from '../../src/server/served-vault.js';
import { createMcpServer } from '../../src/server/server.js';
import { buildInstructions } from '../../src/server/instructions.js';
import { LiveInstructionsTransport } from '../../src/server/transports/live-instructions.js';
import { ALL_TOOLS } from '../../src/tools/index.js';
import { sharedSemantic } from './shared-pool.js';
import type { Clock } from '../../src/vault/clock.js';
import { DEFAULT_SETTINGS, readSettings, type VaultSettings } from '../../src/vault/settings.js';
import { testClient } from './test-client.js';

export const SAMPLE_VAULT = fileURLToPath(new URL('../../sample-vault', import.meta.url));

/** A fresh temporary folder, removed by the returned cleanup. */
export async function tempDir(prefix = 'dexi-test-'): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix));
}

/** A copy of the sample vault in a temporary folder. */
export async function copySampleVault(): Promise<string> {
  const dir = await tempDir();
  await cp(SAMPLE_VAULT, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}cache`) });
  return dir;
}

/** Write a vault from a map of relative paths to contents. */
export async function writeVault(files: Record<string, string>, dir?: string): Promise<string> {
  const root = dir ?? (await tempDir());
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, content);
  }
  return root;
}

export class TestClock implements Clock {
  constructor(public current: Date = new Date('2026-11-30T12:00:00Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface Harness {
  client: Client;
  runtime: ServedVault;
  dir: string;
  clock: TestClock;
  logs: string[];
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Call a tool that must succeed, returning its structured result. */
  ok<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
  /** Call a tool that must fail, returning its message. */
  fail(name: string, args?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  dir: string;
  scopes?: ('notes:read' | 'notes:write')[];
  folder?: string;
  tag?: string;
  settings?: Partial<VaultSettings>;
  shared?: { owner: string; dir: string }[];
  clock?: TestClock;
  /** Wait for the vault to be read before returning (default true). */
  waitLoaded?: boolean;
  /** Run semantic search with the default model on the test process's one pool (shared-pool.ts), and wait until every note is embedded (unless 'no-wait'). */
  semantic?: boolean | 'no-wait';
}

/** Open a runtime on `dir` and connect an in-process MCP client to it. */
export async function connect(options: HarnessOptions): Promise<Harness> {
  const logs: string[] = [];
  const clock = options.clock ?? new TestClock();
  const settings: VaultSettings = { ...DEFAULT_SETTINGS, ...(await readSettings(options.dir)), ...options.settings };
  const runtime = await ServedVault.open({
    vaultDir: options.dir,
    settings,
    shared: options.shared ?? [],
    clock,
    log: (line) => logs.push(line),
    ...(options.semantic ? { semantic: sharedSemantic() } : {}),
  });
  if (options.waitLoaded !== false) await runtime.loaded;
  if (options.semantic === true) await waitForEmbeddings(runtime);
  const client = await connectClient(runtime, options, (line) => logs.push(line));

  const call = (name: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  return {
    client,
    runtime,
    dir: options.dir,
    clock,
    logs,
    call,
    async ok<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
      const result = await call(name, args);
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
      const text = (result.content[0] as { text: string }).text;
      // The text block carries the same object as structuredContent.
      if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(result.structuredContent)) throw new Error('text and structuredContent differ');
      return result.structuredContent as T;
    },
    async fail(name: string, args: Record<string, unknown> = {}): Promise<string> {
      const result = await call(name, args);
      if (!result.isError) throw new Error(`${name} unexpectedly succeeded: ${JSON.stringify(result.structuredContent)}`);
      return (result.content[0] as { text: string }).text;
    },
    async close() {
      await client.close();
      await runtime.close();
    },
  };
}

/** Another in-process connection to a runtime already open, with its own scopes and boundary. */
export async function connectClient(runtime: ServedVault, options: Pick<HarnessOptions, 'scopes' | 'folder' | 'tag'>, log: (line: string) => void = () => undefined): Promise<Client> {
  const policyOptions: Parameters<typeof createPolicy>[0] = {};
  if (options.scopes) policyOptions.scopes = options.scopes;
  if (options.folder !== undefined) policyOptions.folder = options.folder;
  if (options.tag !== undefined) policyOptions.tag = options.tag;
  const context = runtime.context(createPolicy(policyOptions));
  const { settings } = runtime;
  const server = createMcpServer({
    name: 'dexi-vault',
    version: 'test',
    tools: ALL_TOOLS,
    context,
    instructions: buildInstructions(context.view, settings),
    log,
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = testClient('test');
  const live = new LiveInstructionsTransport(serverTransport, () => buildInstructions(context.view, settings));
  await Promise.all([server.connect(live), client.connect(clientTransport)]);
  return client;
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Poll until `check` returns a value other than undefined/false, or fail after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 5000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Wait until the semantic indexer has embedded every note it knows of (model load included). */
export async function waitForEmbeddings(runtime: ServedVault, timeoutMs = 60_000): Promise<void> {
  await runtime.loaded;
  // An error ends the wait at once: waitFor would take a thrown one for "not yet".
  let failed: string | undefined;
  await waitFor(() => {
    const progress = runtime.semantic?.progress();
    failed = progress?.error;
    return failed !== undefined || (progress !== undefined && progress.ready && progress.total >= runtime.own.size);
  }, timeoutMs, 'embeddings');
  if (failed !== undefined) throw new Error(`Semantic indexing failed: ${failed}`);
}

/**
 * What the own vault's full-text index answers to each query, every hit with
 * its score rounded to 6 places: compared between a live index and one
 * rebuilt from the files.
 */
export function indexAnswers(runtime: ServedVault, queries: readonly string[]): Record<string, { id: string; score: number }[]> {
  const index = runtime.fulltext.get(runtime.own);
  if (!index) throw new Error('no index');
  const out: Record<string, { id: string; score: number }[]> = {};
  for (const query of queries) {
    out[query] = index.query(query, undefined, Infinity).hits.map((hit) => ({ id: hit.id, score: Math.round(hit.score * 1e6) / 1e6 }));
  }
  return out;
}

/** The own vault's note records, the fields a rebuild must agree on, by id. */
export function recordSummaries(runtime: ServedVault): { id: string; path: string; title: string; tags: string[]; snippet: string; folder: string | null; hash: string }[] {
  return [...runtime.own.all()]
    .map((r) => ({ id: r.id, path: r.path, title: r.title, tags: r.tags, snippet: r.snippet, folder: r.folder, hash: r.hash }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * recordSummaries and indexAnswers by path rather than id, for comparing a
 * live runtime with one rebuilt from the files alone: a note moved while the
 * server watched keeps its id, which a rebuild cannot know.
 */
export function summariesByPath(runtime: ServedVault): Omit<ReturnType<typeof recordSummaries>[number], 'id'>[] {
  return recordSummaries(runtime)
    .map(({ id: _id, ...rest }) => rest)
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export function answersByPath(runtime: ServedVault, queries: readonly string[]): Record<string, { path: string | undefined; score: number }[]> {
  return Object.fromEntries(
    Object.entries(indexAnswers(runtime, queries)).map(([query, hits]) => [
      query,
      hits
        .map((hit) => ({ path: runtime.own.get(hit.id)?.path, score: hit.score }))
        .sort((a, b) => b.score - a.score || String(a.path).localeCompare(String(b.path))),
    ]),
  );
}

/**
 * What an outside program (or the person's editor) sees of a vault: every
 * file but `.dexi/`, by vault path, with its text (`utf8`) or its bytes
 * (`base64`, for checks that must not miss a changed byte order mark or line
 * ending).
 */
export async function vaultFiles(dir: string, encoding: 'utf8' | 'base64' = 'utf8'): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(path.join(dir, at), { withFileTypes: true })) {
      const rel = at === '' ? entry.name : `${at}/${entry.name}`;
      if (rel === '.dexi') continue;
      if (entry.isDirectory()) await walk(rel);
      else files[rel] = (await readFile(path.join(dir, rel))).toString(encoding);
    }
  };
  await walk('');
  return files;
}

/**
 * For a test file whose tests each open vaults of their own: `harness` opens
 * a connection on a fresh vault of `files` (watching before it is handed
 * back), `another` a second connection on the same folder (another boundary
 * or scopes); after each test every one is closed and its folder removed.
 * Called once, at the top of the file.
 */
export function freshVaults(): {
  harness: (files: Record<string, string>, options?: Omit<HarnessOptions, 'dir'>) => Promise<Harness>;
  another: (dir: string, options: Omit<HarnessOptions, 'dir'>) => Promise<Harness>;
} {
  const opened: Harness[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const h of opened.splice(0)) await h.close();
    for (const dir of dirs.splice(0)) await removeDir(dir);
  });
  return {
    async harness(files, options = {}) {
      const dir = await writeVault(files);
      dirs.push(dir);
      const h = await connect({ dir, ...options });
      opened.push(h);
      await h.runtime.watching;
      return h;
    },
    async another(dir, options) {
      const h = await connect({ dir, ...options });
      opened.push(h);
      return h;
    },
  };
}
