import { EventEmitter } from 'node:events';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPolicy, type AccessPolicy } from '../../src/access/policy.js';
import { VaultView } from '../../src/access/view.js';
import { createMcpServer } from '../../src/server/server.js';
import { defineTool } from '../../src/tools/tool.js';
import { DEFAULT_SETTINGS } from '../../src/vault/settings.js';
import type { Vault } from '../../src/vault/vault.js';
import { TestClock } from '../support/helpers.js';
import { testClient } from '../support/test-client.js';

/**
 * A call that arrives while the vault is still being read (issue 34): one
 * whose client asked for progress waits for the read and hears how far it
 * is; one that did not hears nothing. The vault here is a stand-in whose
 * read the test moves on by hand.
 */

class ReadingVault extends EventEmitter {
  progress = { phase: 'reading', done: 0, total: 400 };
  get ready(): boolean {
    return this.progress.phase === 'ready';
  }
  whenReady(timeoutMs: number): Promise<boolean> {
    if (this.ready) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.off('ready', onReady);
        resolve(false);
      }, timeoutMs);
      const onReady = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      this.once('ready', onReady);
    });
  }
  /** Reads `count` more notes; the read is done at 400. */
  read(count: number): void {
    this.progress = { ...this.progress, done: Math.min(400, this.progress.done + count) };
    if (this.progress.done === 400) {
      this.progress = { phase: 'ready', done: 400, total: 400 };
      this.emit('ready');
    }
  }
}

const probe = defineTool({
  name: 'probe',
  title: 'Probe',
  description: 'Says ready once the vault is read.',
  scope: 'notes:read',
  annotations: { readOnlyHint: true },
  input: z.object({}),
  output: z.object({ ready: z.boolean() }),
  async handler(_args, { view }) {
    await view.assertReady();
    return { ready: true };
  },
});

/** Once the vault is read, reports three steps of its own work, as a bulk tool does (rename_tag). */
const counter = defineTool({
  name: 'counter',
  title: 'Counter',
  description: 'Counts to three once the vault is read.',
  scope: 'notes:read',
  annotations: { readOnlyHint: true },
  input: z.object({}),
  output: z.object({ counted: z.number() }),
  async handler(_args, { view, progress }) {
    await view.assertReady();
    for (let done = 1; done <= 3; done++) progress?.(done, 3);
    return { counted: 3 };
  },
});

async function connect(vault: ReadingVault, policy: AccessPolicy): Promise<Client> {
  const view = new VaultView(vault as unknown as Vault, [], policy);
  const server = createMcpServer({ name: 'dexi-vault', version: 'test', tools: [probe, counter], context: { view, settings: DEFAULT_SETTINGS, clock: new TestClock() }, log: () => undefined });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = testClient('test');
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return client;
}

/** Calls `tool` while the vault reads `step` notes each time the client hears progress (or every 200 ms without a token). */
async function callWhileReading(policy: AccessPolicy, withToken: boolean, step = 100, tool = 'probe'): Promise<{ result: CallToolResult; heard: Progress[] }> {
  const vault = new ReadingVault();
  const client = await connect(vault, policy);
  const heard: Progress[] = [];
  const timer = withToken ? undefined : setInterval(() => vault.read(step), 200);
  const options = withToken
    ? {
        onprogress: (heardStep: Progress): void => {
          heard.push(heardStep);
          vault.read(step);
        },
      }
    : {};
  try {
    const result = (await client.callTool({ name: tool, arguments: {} }, undefined, options)) as CallToolResult;
    return { result, heard };
  } finally {
    clearInterval(timer);
    await client.close();
  }
}

describe('a call while the vault is still being read', () => {
  it('with a progress token, without a boundary: hears notes read of the vault, then answers', async () => {
    const { result, heard } = await callWhileReading(createPolicy(), true);
    expect(result.structuredContent).toEqual({ ready: true });
    expect(heard.length).toBeGreaterThanOrEqual(3);
    expect(heard[0]).toEqual({ progress: 0, total: 400, message: 'Reading the vault: 0 of 400 notes' });
    expect(heard.map((step) => step.progress)).toEqual([...heard.map((step) => step.progress)].sort((a, b) => a - b));
    expect(new Set(heard.map((step) => step.progress)).size).toBe(heard.length);
  });

  it.each([
    ['a folder boundary', createPolicy({ folder: 'Work' })],
    ['a tag boundary', createPolicy({ tag: '#work' })],
  ])('with a progress token under %s: hears seconds waited, never the vault size', async (_what, policy) => {
    const { result, heard } = await callWhileReading(policy, true, 200);
    expect(result.structuredContent).toEqual({ ready: true });
    expect(heard.length).toBeGreaterThanOrEqual(1);
    for (const step of heard) {
      expect(step.total).toBeUndefined();
      expect(step.message).toMatch(/^Waiting for the vault to be read \(\d+ s so far\)$/);
      expect(JSON.stringify(step)).not.toContain('400');
    }
  });

  // Progress must rise across all of a request's notifications: the call's
  // own steps, counting from 1 again, would all be below the wait's and none
  // would be sent.
  it('with a progress token, a call that then does its own work: hears the read, then its steps counted on above it', async () => {
    const { result, heard } = await callWhileReading(createPolicy(), true, 100, 'counter');
    expect(result.structuredContent).toEqual({ counted: 3 });
    const reading = heard.filter((step) => step.message?.startsWith('Reading the vault'));
    const working = heard.slice(reading.length);
    expect(reading.length).toBeGreaterThanOrEqual(3);
    const waited = reading.at(-1)?.progress ?? Number.NaN;
    expect(working.length).toBeGreaterThanOrEqual(1);
    expect(working.at(-1)).toEqual({ progress: waited + 3, total: waited + 3 });
    expect(new Set(heard.map((step) => step.progress)).size).toBe(heard.length);
    expect(heard.map((step) => step.progress)).toEqual([...heard.map((step) => step.progress)].sort((a, b) => a - b));
  });

  it('without a progress token: hears nothing, and answers once the read is done within the wait', async () => {
    const { result, heard } = await callWhileReading(createPolicy(), false);
    expect(result.structuredContent).toEqual({ ready: true });
    expect(heard).toEqual([]);
  });
});
