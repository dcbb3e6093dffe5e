import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { CLI, ROOT } from './process.js';

/**
 * These tests are about files and the transport, not semantic search: the
 * sentence model is turned off, so that no start loads a model or embeds
 * the vault.
 */
export const NO_MODEL: readonly string[] = ['--model', 'none'];

/**
 * The built server over stdio, spoken to in raw JSON-RPC lines rather than
 * through the SDK client (test/support/stdio-server.ts): a test can fire many
 * requests without waiting, see exactly which were answered, and kill the
 * process at any moment.
 */
export interface RawServer {
  child: ChildProcessWithoutNullStreams;
  /** Send a request; resolves with its `result`, or rejects when the process dies first. */
  request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  callTool(name: string, args: Record<string, unknown>): Promise<{ isError?: boolean; structuredContent?: Record<string, unknown>; content: { type: string; text: string }[] }>;
  /** Requests answered so far. */
  answered(): number;
  stderr(): string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

export async function startRaw(vault: string, extraArgs: string[] = []): Promise<RawServer> {
  const child = spawn(process.execPath, [CLI, 'serve', '--vault', vault, ...NO_MODEL, ...extraArgs], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  const pending = new Map<number, { resolve: (value: Record<string, unknown>) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let answered = 0;
  let log = '';
  let buffer = '';
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let newline = buffer.indexOf('\n'); newline !== -1; newline = buffer.indexOf('\n')) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.trim() === '') continue;
      const message = JSON.parse(line) as { id?: number; result?: Record<string, unknown>; error?: { message: string } };
      if (typeof message.id !== 'number') continue;
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      answered++;
      if (message.error) waiter?.reject(new Error(message.error.message));
      else waiter?.resolve(message.result ?? {});
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      for (const waiter of pending.values()) waiter.reject(new Error('the server exited'));
      pending.clear();
      resolve({ code, signal });
    });
  });
  // Writing to a killed process's stdin fails with EPIPE; the pending request is rejected by the exit above.
  child.stdin.on('error', () => undefined);
  const request = (method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> => {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  };
  await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'crash-test', version: '1' } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return {
    child,
    request,
    callTool: (name, args) => request('tools/call', { name, arguments: args }) as ReturnType<RawServer['callTool']>,
    answered: () => answered,
    stderr: () => log,
    exited,
    kill: (signal) => void child.kill(signal),
  };
}
