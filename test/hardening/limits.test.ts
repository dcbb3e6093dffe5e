import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEFAULT_LIMITS } from '../../src/server/limits.js';
import { answerBytes, MAX_RESPONSE_BYTES } from '../../src/tools/budget.js';
import { defineTool } from '../../src/tools/tool.js';
import { CLI, ROOT } from '../support/process.js';
import { removeDir, waitFor, writeVault } from '../support/helpers.js';
import { notPlain, openShared, textOf, withTimeout, type Shared } from '../support/harness.js';
import { NO_MODEL } from '../support/rpc.js';
import { startStdioServer } from '../support/stdio-server.js';

/**
 * Limits that protect the server and its clients: no answer larger than the
 * stdio transport carries (10 MiB per message; every result goes out twice,
 * as structuredContent and as JSON text, where escapes double again), and
 * a bounded number of tool calls per connection at once.
 */

const STDIO_MAX = 10 * 1024 * 1024;
const stats = { largestAnswer: 0, refusedForSize: 0, trimmedCards: 0, refusedBusy: 0 };
const dirs: string[] = [];
const opened: Shared[] = [];

afterAll(async () => {
  for (const shared of opened) await shared.close();
  for (const dir of dirs) await removeDir(dir);
  console.log(
    `[hardening] limits: largest answer sent ${(stats.largestAnswer / 1024 / 1024).toFixed(2)} MiB (cap ${(MAX_RESPONSE_BYTES / 1024 / 1024).toFixed(2)} MiB, stdio limit 10 MiB); ` +
      `${stats.refusedForSize} answers refused for size, ${stats.trimmedCards} due cards left out for size, ${stats.refusedBusy} calls refused as over the per-connection limit`,
  );
});

/** Text that JSON escapes: each character takes 2 to 6 bytes in structuredContent and 3 to 7 more in the text block. */
function escapeHeavy(bytes: number): string {
  const unit = '"\\\u0001\u001f';
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

/** The whole JSON-RPC message that carries a result, as the transport writes it. */
function messageBytes(result: CallToolResult): number {
  return Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 1, result })) + 1;
}

async function vaultOf(files: Record<string, string>): Promise<string> {
  const dir = await writeVault(files);
  dirs.push(dir);
  return dir;
}

const card = (n: number, bytes: number): string =>
  `---\nid: 00000000-0000-4000-8000-${String(n).padStart(12, '0')}\ncreated: 2026-01-${String(1 + (n % 28)).padStart(2, '0')}T00:00:00+00:00\n---\n#flashcards\n${escapeHeavy(bytes)}\n`;

function fiftyCards(bytes: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: 50 }, (_, n) => [`Card ${n}.md`, card(n, bytes)]));
}

describe('answers stay under the transport\'s limit', () => {
  it('get_due_reviews stops adding cards when its answer is full, and says how many it left out', async () => {
    const shared = await openShared(await vaultOf(fiftyCards(120 * 1024)));
    opened.push(shared);
    const client = await shared.connect();
    const result = await withTimeout(client.call('get_due_reviews', { limit: 50 }), 20_000, 'get_due_reviews');
    expect(result.isError, textOf(result)).toBeFalsy();
    const answer = result.structuredContent as { items: unknown[]; due_count: number; omitted_for_size?: number };
    expect(answer.due_count).toBe(50);
    expect(answer.items.length).toBeGreaterThan(1);
    expect(answer.items.length).toBeLessThan(50);
    expect(answer.omitted_for_size).toBe(50 - answer.items.length);
    expect(answerBytes(answer)).toBeLessThan(MAX_RESPONSE_BYTES);
    expect(messageBytes(result)).toBeLessThan(STDIO_MAX);
    stats.largestAnswer = Math.max(stats.largestAnswer, messageBytes(result));
    stats.trimmedCards += answer.omitted_for_size ?? 0;

    // Asked for few enough, nothing is left out and the key is absent.
    const few = (await client.call('get_due_reviews', { limit: 2 })).structuredContent as Record<string, unknown>;
    expect(few.items).toHaveLength(2);
    expect('omitted_for_size' in few).toBe(false);
  }, 60_000);

  it('a card too large to send on its own is a plain error naming it', async () => {
    const shared = await openShared(await vaultOf({ 'Huge card.md': card(0, 4 * 1024 * 1024 - 200), 'Small card.md': card(1, 10) }));
    opened.push(shared);
    const client = await shared.connect();
    const result = await withTimeout(client.call('get_due_reviews', { limit: 5 }), 20_000, 'get_due_reviews');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The most overdue card, "Huge card", is too large to send \(\d+\.\d MiB as JSON, over the 9\.\d MiB one answer may hold\); shorten it in an editor/);
    expect(notPlain(textOf(result))).toBeUndefined();
    stats.refusedForSize++;
  }, 60_000);

  it('get_note of a 4 MiB note sends its first 50,000 characters, and an answer over a connection\'s limit is a plain error', async () => {
    const plain = `---\nid: 00000000-0000-4000-8000-000000000002\n---\n${'All work and no play.\n'.repeat(190_000)}`;
    const shared = await openShared(
      await vaultOf({
        'Escapes.md': `---\nid: 00000000-0000-4000-8000-000000000001\n---\n${escapeHeavy(4 * 1024 * 1024 - 100)}`,
        'Plain.md': plain,
      }),
    );
    opened.push(shared);
    const client = await shared.connect();
    // One line of 4 MiB: its first 50,000 characters, each escaped once or twice in the answer.
    const escaped = await withTimeout(client.call('get_note', { note_id: '00000000-0000-4000-8000-000000000001' }), 20_000, 'get_note');
    expect(escaped.isError, textOf(escaped)).toBeFalsy();
    expect(escaped.structuredContent).toMatchObject({ text: escapeHeavy(50_000), lines: { from: 1, to: 1, total: 1 }, truncated: true });
    expect(messageBytes(escaped)).toBeLessThan(1024 * 1024);
    stats.largestAnswer = Math.max(stats.largestAnswer, messageBytes(escaped));

    const sent = await withTimeout(client.call('get_note', { note_id: '00000000-0000-4000-8000-000000000002' }), 20_000, 'get_note');
    expect(sent.isError).toBeFalsy();
    expect(sent.structuredContent).toMatchObject({ text: 'All work and no play.\n'.repeat(2272), lines: { from: 1, to: 2272, total: 190_000 }, truncated: true });
    stats.largestAnswer = Math.max(stats.largestAnswer, messageBytes(sent));

    // The server's own cap on an answer still holds: with a smaller one, the escaped answer is refused in a sentence.
    const small = await shared.connect({ limits: { maxResponseBytes: 256 * 1024 } });
    const refused = await withTimeout(small.call('get_note', { note_id: '00000000-0000-4000-8000-000000000001' }), 20_000, 'get_note');
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^The answer of get_note would be \d+\.\d MiB as JSON, over the 0\.\d MiB one answer may hold\. Nothing was changed\./);
    expect(notPlain(textOf(refused))).toBeUndefined();
    stats.refusedForSize++;
  }, 60_000);

  it('writes that would make a note over 4 MiB are refused before anything is written', async () => {
    const dir = await vaultOf({ 'Keep.md': 'keep\n' });
    const shared = await openShared(dir);
    opened.push(shared);
    const client = await shared.connect();
    const result = await client.call('create_note', { title: 'Too big', text: 'x'.repeat(4 * 1024 * 1024) });
    expect(textOf(result)).toMatch(/^The note would be 4,194,\d{3} bytes, over the 4,194,304 bytes \(4 MiB\) a note may hold; nothing was written\./);
    expect((await readdir(dir)).filter((name) => !name.startsWith('.'))).toEqual(['Keep.md']);
  });

  it('over the real stdio transport, the built server\'s answers arrive, never over 10 MiB', async () => {
    expect(existsSync(CLI), 'build first: npm run build').toBe(true);
    const dir = await vaultOf({
      ...fiftyCards(120 * 1024),
      'Escapes.md': `---\nid: 00000000-0000-4000-8000-000000000999\n---\n${escapeHeavy(4 * 1024 * 1024 - 100)}`,
    });
    const server = await startStdioServer({ args: [CLI, 'serve', '--vault', dir, ...NO_MODEL], cwd: ROOT, clientName: 'limits' });
    const { client, transportErrors } = server;
    try {
      const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
        for (;;) {
          const result = (await withTimeout(client.callTool({ name, arguments: args }), 30_000, name)) as CallToolResult;
          if (!(result.isError && /still being/.test(textOf(result)))) return result;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      };
      const due = await call('get_due_reviews', { limit: 50 });
      expect(due.isError, textOf(due)).toBeFalsy();
      expect((due.structuredContent as { omitted_for_size?: number }).omitted_for_size).toBeGreaterThan(0);
      const cut = await call('get_note', { note_id: '00000000-0000-4000-8000-000000000999' });
      expect(cut.isError, textOf(cut)).toBeFalsy();
      expect((cut.structuredContent as { truncated?: true }).truncated).toBe(true);
      expect(transportErrors).toEqual([]);
    } finally {
      await client.close();
    }
  }, 90_000);
});

describe('tool calls per connection are bounded', () => {
  /** A tool that waits until the test lets it finish, counting how many run at once. */
  function gatedTool() {
    const state = { running: 0, most: 0, started: [] as number[], release: [] as (() => void)[] };
    const tool = defineTool({
      name: 'slow',
      title: 'Slow',
      description: 'Waits.',
      scope: 'notes:read',
      annotations: { readOnlyHint: true },
      input: z.object({ n: z.number() }),
      output: z.object({ n: z.number() }),
      async handler(args) {
        state.running++;
        state.most = Math.max(state.most, state.running);
        state.started.push(args.n);
        await new Promise<void>((resolve) => state.release.push(resolve));
        state.running--;
        return { n: args.n };
      },
    });
    return { tool, state };
  }

  /** Wait until the gated tool has started `count` calls in all. */
  const started = (state: ReturnType<typeof gatedTool>['state'], count: number) =>
    waitFor(() => state.started.length >= count, 5000, `${count} calls to start`);
  /** After a release: wait until another call holds the gate, or every call up to `count` has ended. */
  const nextTurn = (state: ReturnType<typeof gatedTool>['state'], count: number) =>
    waitFor(() => state.release.length > 0 || (state.started.length >= count && state.running === 0), 5000, 'the next call to start or the last to end');

  it('runs a few at once, queues some in order, and refuses the rest plainly', async () => {
    const shared = await openShared(await vaultOf({ 'a.md': 'a\n' }));
    opened.push(shared);
    const { tool, state } = gatedTool();
    const client = await shared.connect({ tools: [tool], limits: { maxRunning: 2, maxWaiting: 3 } });
    const calls = Array.from({ length: 8 }, (_, n) => client.call('slow', { n }));
    // Once the last three are refused, the server has taken in all eight.
    const refused = await Promise.all(calls.slice(5));
    await started(state, 2);
    expect(state.started).toEqual([0, 1]);
    for (const result of refused) {
      expect(textOf(result)).toBe('This connection already has 2 tool calls running and 3 waiting, the most it takes at once; wait for some to finish, then call slow again.');
      expect(notPlain(textOf(result))).toBeUndefined();
    }
    stats.refusedBusy += refused.length;
    while (state.started.length < 5 || state.running > 0) {
      state.release.shift()?.();
      await nextTurn(state, 5);
    }
    const done = await Promise.all(calls.slice(0, 5));
    expect(done.map((result) => (result.structuredContent as { n: number }).n)).toEqual([0, 1, 2, 3, 4]);
    expect(state.started).toEqual([0, 1, 2, 3, 4]);
    expect(state.most).toBe(2);
    // Once the queue has drained, calls are taken again.
    const again = client.call('slow', { n: 9 });
    await started(state, 6);
    state.release.shift()?.();
    expect((await again).isError).toBeFalsy();
  });

  it('a waiting call the client cancels leaves the queue', async () => {
    const shared = await openShared(await vaultOf({ 'a.md': 'a\n' }));
    opened.push(shared);
    const { tool, state } = gatedTool();
    const client = await shared.connect({ tools: [tool], limits: { maxRunning: 1, maxWaiting: 1 } });
    const first = client.call('slow', { n: 1 });
    const controller = new AbortController();
    const cancelled = client.client.callTool({ name: 'slow', arguments: { n: 2 } }, undefined, { signal: controller.signal }).catch(() => 'cancelled');
    // The server takes messages in order: a call refused now shows the second one waiting in the queue.
    expect(textOf(await client.call('slow', { n: 0 }))).toMatch(/^This connection already has 1 tool calls running and 1 waiting/);
    controller.abort();
    expect(await cancelled).toBe('cancelled');
    // The cancellation reaches the server before the third call, and takes the second out of the queue at once.
    const third = client.call('slow', { n: 3 });
    await started(state, 1);
    state.release.shift()?.();
    await started(state, 2);
    state.release.shift()?.();
    expect((await first).isError).toBeFalsy();
    expect((await third).isError).toBeFalsy();
    expect(state.started).toEqual([1, 3]);
  });

  it('by default, one connection runs 8 calls at once and queues 64', async () => {
    const shared = await openShared(await vaultOf({ 'a.md': 'a\n' }));
    opened.push(shared);
    const { tool, state } = gatedTool();
    const client = await shared.connect({ tools: [tool] });
    const calls = Array.from({ length: 100 }, (_, n) => client.call('slow', { n }, 30_000));
    const results = calls.slice(DEFAULT_LIMITS.maxRunning + DEFAULT_LIMITS.maxWaiting);
    // Once the calls beyond the queue are refused, the server has taken in all hundred.
    for (const result of await Promise.all(results)) expect(result.isError).toBe(true);
    await started(state, DEFAULT_LIMITS.maxRunning);
    expect(state.running).toBe(DEFAULT_LIMITS.maxRunning);
    stats.refusedBusy += results.length;
    while (state.started.length < DEFAULT_LIMITS.maxRunning + DEFAULT_LIMITS.maxWaiting || state.running > 0) {
      for (const release of state.release.splice(0)) release();
      await nextTurn(state, DEFAULT_LIMITS.maxRunning + DEFAULT_LIMITS.maxWaiting);
    }
    const served = await Promise.all(calls.slice(0, DEFAULT_LIMITS.maxRunning + DEFAULT_LIMITS.maxWaiting));
    expect(served.every((result) => !result.isError)).toBe(true);
    expect(state.most).toBe(DEFAULT_LIMITS.maxRunning);
  }, 30_000);
});
