import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { cp, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { createPolicy, type AccessPolicy } from '../../src/access/policy.js';
import type { ServerLimits } from '../../src/server/limits.js';
import { ServedVault } from '../../src/server/served-vault.js';
import { createMcpServer } from '../../src/server/server.js';
import { ALL_TOOLS, type ToolDefinition } from '../../src/tools/index.js';
import { DEFAULT_SETTINGS, type VaultSettings } from '../../src/vault/settings.js';
import { answersByPath, summariesByPath, TestClock } from './helpers.js';
import { createRng } from '../support/random.js';
import { withTimeout } from '../support/timeout.js';
import { testClient } from './test-client.js';

// Every call of a hardening test is bounded, so a hang fails instead of stalling the suite.
export { withTimeout };

/**
 * One runtime (one vault, one index, one watcher) with several MCP
 * connections on it, each its own server and client, as `serve --http` does
 * per session. This is what "several clients on one server" means here:
 * their calls meet in the same Vault, under the same per-file locks.
 */
export interface Shared {
  runtime: ServedVault;
  logs: string[];
  connect(options?: { policy?: AccessPolicy; limits?: Partial<ServerLimits>; tools?: readonly ToolDefinition[]; capabilities?: ClientCapabilities }): Promise<Connection>;
  close(): Promise<void>;
}

export interface Connection {
  client: Client;
  call(name: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function openShared(dir: string, options: { settings?: Partial<VaultSettings>; clock?: TestClock; saveDelayMs?: number } = {}): Promise<Shared> {
  const logs: string[] = [];
  const log = (line: string): void => void logs.push(line);
  const settings: VaultSettings = { ...DEFAULT_SETTINGS, ...options.settings };
  const runtimeOptions: Parameters<typeof ServedVault.open>[0] = { vaultDir: dir, settings, shared: [], clock: options.clock ?? new TestClock(), log };
  if (options.saveDelayMs !== undefined) runtimeOptions.saveDelayMs = options.saveDelayMs;
  const runtime = await ServedVault.open(runtimeOptions);
  await runtime.loaded;
  await runtime.watching;
  const connections: Connection[] = [];
  return {
    runtime,
    logs,
    async connect(connectOptions = {}) {
      const context = runtime.context(connectOptions.policy ?? createPolicy());
      const serverOptions: Parameters<typeof createMcpServer>[0] = {
        name: 'dexi-vault',
        version: 'test',
        tools: connectOptions.tools ?? ALL_TOOLS,
        context,
        instructions: 'test',
        log,
        logs: runtime.logs,
      };
      if (connectOptions.limits) serverOptions.limits = connectOptions.limits;
      const server = createMcpServer(serverOptions);
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      const client = testClient('hardening', connectOptions.capabilities);
      await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
      const connection: Connection = {
        client,
        call: (name, args = {}, timeoutMs = 15_000) =>
          withTimeout(client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs + 1000 }) as Promise<CallToolResult>, timeoutMs, name),
        close: () => client.close(),
      };
      connections.push(connection);
      return connection;
    },
    async close() {
      for (const connection of connections) await connection.close().catch(() => undefined);
      await runtime.close();
    },
  };
}

export function textOf(result: CallToolResult): string {
  const block = result.content[0];
  return block?.type === 'text' ? block.text : '';
}

/** Why an error text is not a plain sentence (a stack frame, a protocol error prefix), or undefined when it is. */
export function notPlain(text: string): string | undefined {
  if (/^\s+at .+/m.test(text)) return 'it has a stack frame';
  if (text.includes('MCP error') || text.includes('-32602') || text.includes('-32603')) return 'it is a protocol error';
  if (/\b(TypeError|RangeError|SyntaxError|ReferenceError)\b/.test(text)) return 'it names a JavaScript error';
  if (text.trim() === '') return 'it is empty';
  return undefined;
}

/** Seeded draws (test/support/random.ts): the same seed gives the same run, so a failure can be replayed. */
export function createRandom(seed: number): { next: () => number; int: (n: number) => number; pick: <T>(items: readonly T[]) => T; chance: (p: number) => boolean } {
  const next = createRng(seed);
  const int = (n: number): number => Math.floor(next() * n);
  return { next, int, pick: (items) => items[int(items.length)] as (typeof items)[number], chance: (p) => next() < p };
}

/** Every file below `root`, dot-files and dot-folders included, vault-relative with `/`. */
export async function allFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() || entry.isSymbolicLink())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** The note files of a vault as the server counts them: `*.md`, no dot-segments, no node_modules. */
export async function noteFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith('.md'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((rel) => !rel.split('/').some((segment) => segment.startsWith('.') || segment === 'node_modules'))
    .sort();
}

const PROBES = ['tok', 'note', 'alpha', 'beta', 'gamma', 'delta', 'body', 'init', 'replaced', 'garden', 'river'];

/**
 * Compare the live runtime with one rebuilt from a copy of the files (no
 * cache): the same notes, records and search answers. Returns a description
 * of the first difference, or undefined when they agree.
 */
export async function differenceFromRebuild(live: ServedVault, dir: string, scratch: string, queries: readonly string[] = PROBES): Promise<string | undefined> {
  await live.settled();
  await rm(scratch, { recursive: true, force: true });
  await cp(dir, scratch, { recursive: true, filter: (src) => !src.includes(`${path.sep}.dexi`) });
  const rebuilt = await ServedVault.open({ vaultDir: scratch, settings: DEFAULT_SETTINGS, shared: [], clock: new TestClock(), log: () => undefined, watch: false });
  try {
    await rebuilt.loaded;
    const a = summariesByPath(live).map((record) => JSON.stringify(record));
    const b = summariesByPath(rebuilt).map((record) => JSON.stringify(record));
    if (a.join('\n') !== b.join('\n')) {
      const onlyLive = a.filter((record) => !b.includes(record)).slice(0, 3);
      const onlyRebuilt = b.filter((record) => !a.includes(record)).slice(0, 3);
      return `records differ: live has ${live.own.size}, rebuilt ${rebuilt.own.size}; only live: ${onlyLive.join(' ')}; only rebuilt: ${onlyRebuilt.join(' ')}`;
    }
    const qa = answersByPath(live, queries);
    const qb = answersByPath(rebuilt, queries);
    for (const query of queries) {
      if (JSON.stringify(qa[query]) !== JSON.stringify(qb[query])) return `answers to "${query}" differ`;
    }
    return undefined;
  } finally {
    await rebuilt.close();
  }
}
