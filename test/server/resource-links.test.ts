import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage, ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/access/policy.js';
import { noteLinks } from '../../src/server/resource-links.js';
import { createMcpServer } from '../../src/server/server.js';
import { ALL_TOOLS } from '../../src/tools/index.js';
import { openShared, type Shared } from '../support/harness.js';
import { removeDir } from '../support/helpers.js';

/**
 * Notes in search and list answers come with `resource_link` items a client
 * can open through resources/read (issue 34), to clients of a protocol
 * version that has them, and never for a note outside the boundary.
 */

describe('noteLinks', () => {
  it.each([
    ['note items, each note once', { items: [{ id: 'a', title: 'A' }, { id: 'b', title: 'B' }, { id: 'a', title: 'A' }] }, ['a:A', 'b:B']],
    ['task items, by their note', { items: [{ note_id: 'n', note_title: 'Plan', text: 'call', id: 'x' }] }, ['n:Plan']],
    ['no items', { deleted: true, id: 'a', title: 'A' }, []],
    ['items that name no note', { items: [{ tag: '#a', count: 2 }] }, []],
    ['not an object', null, []],
  ])('%s', (_what, result, expected) => {
    const links = noteLinks(result);
    expect(links.map((link) => `${decodeURIComponent(link.uri.slice('dexi-note://'.length))}:${link.name}`)).toEqual(expected);
    for (const link of links) expect(link).toMatchObject({ type: 'resource_link', mimeType: 'text/markdown' });
  });
});

describe('resource links in answers', () => {
  let dir: string;
  let shared: Shared;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'dexi-links-'));
    await mkdir(path.join(dir, 'Work'));
    await writeFile(path.join(dir, 'Work', 'plan.md'), '# Plan\n\nThe garden plan.\n\n- [ ] dig the garden\n');
    await writeFile(path.join(dir, 'garden.md'), '# Garden\n\nGarden notes, private.\n');
    shared = await openShared(dir);
  });

  afterAll(async () => {
    await shared.close();
    await removeDir(dir);
  });

  it('search_notes, list_notes and list_tasks link each note they list, and each link reads it', async () => {
    const { client, call } = await shared.connect();
    for (const [tool, args] of [['search_notes', { query: 'garden' }], ['list_notes', {}], ['list_tasks', {}]] as const) {
      const result = await call(tool, args);
      const [text, ...links] = result.content as [{ type: string; text: string }, ...ResourceLink[]];
      expect(text.type).toBe('text');
      const items = (result.structuredContent as { items: { id?: string; note_id?: string }[] }).items;
      expect(links.map((link) => link.type)).toEqual(items.map(() => 'resource_link'));
      for (const link of links) {
        const read = await client.readResource({ uri: link.uri });
        expect(read.contents[0]?._meta?.title, `${tool} ${link.uri}`).toBe(link.name);
      }
    }
  });

  it('under a folder boundary, links only the notes it sees', async () => {
    const { call } = await shared.connect({ policy: createPolicy({ folder: 'Work' }) });
    const result = await call('search_notes', { query: 'garden' });
    const links = (result.content as ResourceLink[]).slice(1);
    expect(links.map((link) => link.name)).toEqual(['plan']);
  });

  it('a client of an earlier protocol version gets the JSON alone', async () => {
    const context = shared.runtime.context(createPolicy());
    const server = createMcpServer({ name: 'dexi-vault', version: 'test', tools: ALL_TOOLS, context, log: () => undefined });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const answers = new Map<number, JSONRPCMessage>();
    clientSide.onmessage = (message) => {
      if ('id' in message && typeof message.id === 'number') answers.set(message.id, message);
    };
    await server.connect(serverSide);
    await clientSide.start();
    const answer = async (id: number, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> => {
      await clientSide.send({ jsonrpc: '2.0', id, method, params });
      while (!answers.has(id)) await new Promise((resolve) => setImmediate(resolve));
      return (answers.get(id) as { result: Record<string, unknown> }).result;
    };
    const init = await answer(1, 'initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'old', version: '1' } });
    expect(init.protocolVersion).toBe('2025-03-26');
    await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const result = await answer(2, 'tools/call', { name: 'search_notes', arguments: { query: 'garden' } });
    expect((result.content as { type: string }[]).map((item) => item.type)).toEqual(['text']);
    await clientSide.close();
  });
});
