import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSnapshot } from '../../src/index/cache.js';
import { tableRecords } from '../../src/vault/record-table.js';
import { removeDir, writeVault } from '../support/helpers.js';
import { isAlive, killHard, startStdioServer, type StdioServer } from '../support/stdio-server.js';
import { CLI, eventually, ROOT } from '../support/process.js';

/**
 * A short session loses nothing (spec/vault.md, "Lasting"): the built CLI
 * over stdio saves its index cache when it stops (end of input, SIGTERM,
 * SIGINT), and what a move taught it about identity before it answers.
 */

const dirs: string[] = [];
const servers: StdioServer[] = [];
afterEach(async () => {
  for (const served of servers.splice(0)) {
    await served.client.close().catch(() => undefined);
    killHard(served.pid);
  }
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

async function vault(count: number): Promise<string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) files[`Note ${i}.md`] = `Note number ${i} about topic${i}\n`;
  const dir = await writeVault(files);
  dirs.push(dir);
  return dir;
}

function textOf(result: CallToolResult): string {
  const block = result.content[0];
  return block?.type === 'text' ? block.text : '';
}

/** Start the server and wait until it answers tools (not "still being read"). */
async function serve(dir: string): Promise<StdioServer> {
  const served = await startStdioServer({ args: [CLI, 'serve', '--vault', dir, '--model', 'none'], cwd: ROOT, clientName: 'short-session' });
  servers.push(served);
  await eventually(async () => {
    const result = await served.call('list_notes', { size: 1 });
    return result.isError && /still being (read|built)/.test(textOf(result)) ? undefined : result;
  }, 20_000, 'the vault to be read');
  return served;
}

async function ok<T>(served: StdioServer, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await served.call(name, args);
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  return result.structuredContent as T;
}

async function exited(served: StdioServer): Promise<void> {
  const pid = served.pid;
  if (pid !== null) await eventually(async () => (isAlive(pid) ? undefined : true), 10_000, `server ${pid} to exit`);
}

/** The server's stdin, ended alone: the SDK client's close() would follow it with SIGTERM after 2 s. */
function stdinOf(served: StdioServer): Writable {
  return (served.transport as unknown as { _process: ChildProcess })._process.stdin as Writable;
}

const cacheDir = (dir: string): string => path.join(dir, '.dexi', 'cache');

async function leftoverTemps(dir: string): Promise<string[]> {
  return (await readdir(cacheDir(dir))).filter((name) => name.startsWith('.dexi-tmp-'));
}

describe('a short session', () => {
  it.each([
    ['end of input', (served: StdioServer) => stdinOf(served).end()],
    ['SIGTERM', (served: StdioServer) => served.pid !== null && process.kill(served.pid, 'SIGTERM')],
    ['SIGINT', (served: StdioServer) => served.pid !== null && process.kill(served.pid, 'SIGINT')],
  ])('saves the index cache when it stops by %s, and leaves no temporary file', async (_how, stop) => {
    const dir = await vault(40);
    const served = await serve(dir);
    // A change the cache does not hold yet: it would be saved 5 s later.
    await ok(served, 'create_note', { title: 'Written just before the end', text: 'the last words' });
    stop(served);
    await exited(served);
    const snapshot = await loadSnapshot(cacheDir(dir), () => undefined);
    expect(snapshot && tableRecords(snapshot.records).map((record) => record.path)).toContain('Written just before the end.md');
    expect(await leftoverTemps(dir)).toEqual([]);
  });

  it('keeps the ids of notes it moved, though it was killed right after answering and no cache was saved yet', async () => {
    const dir = await vault(30);
    const served = await serve(dir);
    // As in a first session on a large vault, killed before its first cache save: the save after the read is removed.
    const cacheFile = path.join(cacheDir(dir), 'index.bin');
    await eventually(async () => (await stat(cacheFile).catch(() => undefined)) ?? undefined, 10_000, 'the first cache save');
    await rm(cacheFile);
    const { items } = await ok<{ items: { id: string; title: string }[] }>(served, 'list_notes', { size: 10 });
    for (const item of items) await ok(served, 'move_note', { note_id: item.id, folder: 'Filed' });
    killHard(served.pid);
    await exited(served);

    const again = await serve(dir);
    for (const item of items) {
      const note = await ok<{ id: string; title: string; folder?: string }>(again, 'get_note', { note_id: item.id });
      expect([note.title, note.folder]).toEqual([item.title, 'Filed']);
    }
  });
});
