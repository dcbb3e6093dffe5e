import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListRootsRequestSchema, ListToolsRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { Handover } from '../../../src/server/transports/handover.js';
import { testClient } from '../../support/test-client.js';

/**
 * One connection served by a stand-in and then by the real server
 * (issue 34, the vault from the client's roots): the stand-in answers
 * initialize and ping and may ask the client; everything else waits for
 * the real server, which learns the client from the replayed initialize.
 */

const INFO = { name: 'dexi-vault', version: '0.0.0' };
const CAPABILITIES = { capabilities: { tools: { listChanged: false } } };

interface Wired {
  client: Client;
  boot: Server;
  handover: Handover;
  /** Every message the client received, in order. */
  received: JSONRPCMessage[];
  clientErrors: Error[];
  rootsChanged: number;
}

const open: Client[] = [];

async function wire(): Promise<Wired> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const wired = { received: [] as JSONRPCMessage[], clientErrors: [] as Error[], rootsChanged: 0 } as Wired;
  wired.handover = new Handover(serverSide, () => {
    wired.rootsChanged += 1;
  });
  wired.boot = new Server(INFO, CAPABILITIES);
  await wired.boot.connect(wired.handover.boot);
  await wired.handover.start();
  const client = testClient('test', { roots: { listChanged: true }, elicitation: { form: {} } });
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: 'file:///notes' }] }));
  client.onerror = (error) => wired.clientErrors.push(error);
  await client.connect(clientSide);
  const heard = clientSide.onmessage;
  clientSide.onmessage = (message, extra) => {
    wired.received.push(message);
    heard?.(message, extra);
  };
  wired.client = client;
  open.push(client);
  return wired;
}

function realServer(): Server {
  const real = new Server(INFO, CAPABILITIES);
  real.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: 'list_notes', inputSchema: { type: 'object' } }] }));
  return real;
}

afterEach(async () => {
  for (const client of open.splice(0)) await client.close().catch(() => undefined);
});

describe('Handover', () => {
  it('holds what the stand-in does not answer, and the real server answers it in order once connected', async () => {
    const wired = await wire();
    const order: string[] = [];
    const tools = wired.client.listTools().then((answer) => order.push(`tools ${answer.tools.length}`));
    // The stand-in answers ping at once, while tools/list waits.
    await wired.client.ping();
    order.push('ping');
    const real = realServer();
    await real.connect(wired.handover.real);
    await tools;
    expect(order).toEqual(['ping', 'tools 1']);
    // The real server knows the client as if it had answered initialize itself.
    expect(real.getClientCapabilities()).toEqual(wired.boot.getClientCapabilities());
    expect(real.getClientCapabilities()?.elicitation).toEqual({ form: {} });
    expect(real.getClientVersion()).toEqual({ name: 'test', version: '1.0.0' });
    // Its answer to the replayed initialize never reached the client, which heard no answer it did not ask for.
    expect(wired.received.filter((message) => 'result' in message && 'protocolVersion' in message.result)).toEqual([]);
    expect(wired.clientErrors).toEqual([]);
  });

  it('gives each server the answers to its own questions, though both number them from 0', async () => {
    const wired = await wire();
    expect((await wired.boot.listRoots()).roots).toEqual([{ uri: 'file:///notes' }]);
    const real = realServer();
    await real.connect(wired.handover.real);
    expect((await real.listRoots()).roots).toEqual([{ uri: 'file:///notes' }]);
    expect(wired.clientErrors).toEqual([]);
  });

  it('tells of a change of roots, before and after the handover, and hands it to neither server', async () => {
    const wired = await wire();
    await wired.client.sendRootsListChanged();
    const real = realServer();
    let realHeard = 0;
    real.fallbackNotificationHandler = async () => {
      realHeard += 1;
    };
    await real.connect(wired.handover.real);
    await wired.client.sendRootsListChanged();
    await wired.client.listTools();
    expect(wired.rootsChanged).toBe(2);
    expect(realHeard).toBe(0);
  });

  it('opens on the client\'s initialized, or on its first request from a client that never sends it', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const handover = new Handover(serverSide, () => undefined);
    const boot = new Server(INFO, CAPABILITIES);
    await boot.connect(handover.boot);
    await handover.start();
    const answers = new Map<unknown, JSONRPCMessage>();
    const waiters = new Map<unknown, () => void>();
    clientSide.onmessage = (message) => {
      if (!('id' in message)) return;
      answers.set(message.id, message);
      waiters.get(message.id)?.();
    };
    await clientSide.start();
    const answered = (id: number): Promise<JSONRPCMessage> =>
      answers.has(id) ? Promise.resolve(answers.get(id) as JSONRPCMessage) : new Promise((resolve) => waiters.set(id, () => resolve(answers.get(id) as JSONRPCMessage)));
    let opened = false;
    void handover.opened.then(() => {
      opened = true;
    });
    await clientSide.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await answered(1);
    await clientSide.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    await answered(2);
    expect(opened).toBe(false);
    await clientSide.send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    await handover.opened;
    const real = realServer();
    await real.connect(handover.real);
    expect(await answered(3)).toMatchObject({ id: 3, result: { tools: [{ name: 'list_notes' }] } });
    expect(real.getClientVersion()).toEqual({ name: 'raw', version: '1' });
    await real.close();
  });

  it('closes with the real server once it has the connection', async () => {
    const wired = await wire();
    const real = realServer();
    await real.connect(wired.handover.real);
    let closed = false;
    wired.client.onclose = () => {
      closed = true;
    };
    await real.close();
    expect(closed).toBe(true);
  });
});
