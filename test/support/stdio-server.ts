import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { eventually } from './process.js';
import { testClient } from './test-client.js';

/** The server's stderr is kept up to this many characters (the last half of it once over). */
const STDERR_KEPT = 200_000;

/** The built command line spawned and connected over stdio, as an MCP client would. */
export interface StdioServer {
  client: Client;
  transport: StdioClientTransport;
  /** The server's process id (null once it has gone). */
  pid: number | null;
  /** performance.now() just before the spawn. */
  spawnedAt: number;
  /** Date.now() just before the spawn, to compare with file times. */
  spawnedAtWall: number;
  /** Spawn → initialize answered. */
  initializeMs: number;
  /** What the server wrote to stderr so far (the last 200 kB). */
  stderr(): string;
  /** Resolves once stderr matches `pattern`, rejects after `timeoutMs` with what it was. */
  stderrMatching(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Anything the client could not read as a protocol message (non-JSON on stdout, …). */
  transportErrors: Error[];
  /** True once the connection has closed. */
  closed(): boolean;
  call(name: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<CallToolResult>;
}

export interface StdioServerOptions {
  /** The CLI script and its arguments, run with this Node. */
  args: readonly string[];
  cwd: string;
  clientName: string;
  initializeTimeoutMs?: number;
  /** A program that runs this Node with ARGS, e.g. setpriv dropping root's privileges; default: this Node directly. */
  launcher?: readonly string[];
  /** The server's whole environment; default the SDK's few safe variables (HOME, PATH, …). */
  env?: Record<string, string>;
  /** What the client declares (roots, elicitation), with its handlers of the server's requests, set before it connects. */
  offers?: { capabilities: ClientCapabilities; handle(client: Client): void };
}

/** Spawn `node ARGS…` and connect; throws (with the server's stderr) when it does not answer initialize. */
export async function startStdioServer(options: StdioServerOptions): Promise<StdioServer> {
  const [program, ...before] = options.launcher ?? [];
  const transport = new StdioClientTransport({
    command: program ?? process.execPath,
    args: program === undefined ? [...options.args] : [...before, process.execPath, ...options.args],
    cwd: options.cwd,
    stderr: 'pipe',
    ...(options.env ? { env: options.env } : {}),
  });
  let log = '';
  const waiters = new Set<() => void>();
  // Drained from the start (the stream is there before start()), so no early
  // line is lost and the server never blocks on a full pipe.
  transport.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString('utf8');
    if (log.length > STDERR_KEPT) log = log.slice(-STDERR_KEPT / 2);
    for (const wake of waiters) wake();
  });
  const stderrMatching = (pattern: RegExp, timeoutMs = 15_000): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (!pattern.test(log)) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(log);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`stderr did not match ${pattern} within ${timeoutMs} ms; it was:\n${log}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  const client = testClient(options.clientName, options.offers?.capabilities);
  options.offers?.handle(client);
  const transportErrors: Error[] = [];
  let closed = false;
  client.onclose = () => {
    closed = true;
  };
  client.onerror = (error) => transportErrors.push(error);
  const spawnedAtWall = Date.now();
  const spawnedAt = performance.now();
  try {
    await client.connect(transport, { timeout: options.initializeTimeoutMs ?? 30_000 });
  } catch (error) {
    const pid = transport.pid;
    await client.close().catch(() => undefined);
    if (pid !== null) killHard(pid);
    const lines = log.trimEnd().split('\n').slice(-15).join('\n');
    throw new Error(`the server did not answer initialize: ${(error as Error).message}\n${lines}`);
  }
  return {
    client,
    transport,
    pid: transport.pid,
    spawnedAt,
    spawnedAtWall,
    initializeMs: performance.now() - spawnedAt,
    stderr: () => log,
    stderrMatching,
    transportErrors,
    closed: () => closed,
    call: async (name, args = {}, timeoutMs) =>
      (await client.callTool({ name, arguments: args }, undefined, timeoutMs === undefined ? undefined : { timeout: timeoutMs })) as CallToolResult,
  };
}

/** Hang up, as a client does, and wait (at most `timeoutMs`) for the server to exit, as it does then. */
export async function hangUp(served: StdioServer, timeoutMs = 5_000): Promise<void> {
  const pid = served.transport.pid;
  await served.client.close();
  if (pid !== null) await eventually(async () => (isAlive(pid) ? undefined : true), timeoutMs, `server ${pid} to exit`);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function killHard(pid: number | null | undefined): void {
  if (pid === null || pid === undefined || !isAlive(pid)) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
