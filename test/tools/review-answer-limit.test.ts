import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/access/policy.js';
import { ServedVault } from '../../src/server/served-vault.js';
import { createMcpServer } from '../../src/server/server.js';
import { ALL_TOOLS } from '../../src/tools/index.js';
import { DEFAULT_SETTINGS } from '../../src/vault/settings.js';
import { removeDir, TestClock, writeVault } from '../support/helpers.js';
import { testClient } from '../support/test-client.js';

/** Three due cards of about 60 kB each: one fits an answer of 300,000 bytes, two do not. */
function cards(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 1; i <= 3; i++) {
    const id = `00000000-0000-4000-8000-00000000002${i}`;
    const body = `Card ${i}. #flashcards\n\n${'word '.repeat(12_000)}\n`;
    files[`Cards/Card ${i}.md`] = `---\nid: ${id}\ncreated: 2026-11-0${i}T09:00:00+00:00\nupdated: 2026-11-0${i}T09:00:00+00:00\n---\n${body}`;
  }
  return files;
}

describe('get_due_reviews plans its answer against the limit the server enforces', () => {
  const open: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of open.splice(0)) await close();
  });

  it('leaves out cards for size under a configured maxResponseBytes, rather than answering over it', async () => {
    const dir = await writeVault(cards());
    const runtime = await ServedVault.open({ vaultDir: dir, settings: { ...DEFAULT_SETTINGS, reviewTags: ['#flashcards'] }, shared: [], clock: new TestClock(), log: () => undefined });
    // Closed before its folder goes: closing saves the index cache, which would make the folder again.
    open.push(() => runtime.close(), () => removeDir(dir));
    await runtime.loaded;
    const server = createMcpServer({ name: 'dexi-vault', version: 'test', tools: ALL_TOOLS, context: runtime.context(createPolicy({})), log: () => undefined, limits: { maxResponseBytes: 300_000 } });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const client = testClient('test');
    await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
    open.unshift(() => client.close());

    const result = (await client.callTool({ name: 'get_due_reviews', arguments: { limit: 3 } })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content).slice(0, 300)).toBeFalsy();
    const answer = result.structuredContent as { items: { id: string }[]; due_count: number; omitted_for_size?: number };
    expect(answer.due_count).toBe(3);
    expect(answer.items).toHaveLength(1);
    expect(answer.omitted_for_size).toBe(2);
  });
});
