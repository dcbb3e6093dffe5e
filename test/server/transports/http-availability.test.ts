import { request, type IncomingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, TokenStore } from '../../../src/access/tokens.js';
import { serveHttp, type HttpHandle, type HttpOptions } from '../../../src/server/transports/http.js';
import { ServedVault } from '../../../src/server/served-vault.js';
import { ALL_TOOLS } from '../../../src/tools/index.js';
import { DEFAULT_SETTINGS } from '../../../src/vault/settings.js';
import { removeDir, TestClock, waitFor, writeVault } from '../../support/helpers.js';
import { withTimeout } from '../../support/timeout.js';

/**
 * Issue 15, finding 9: one token must not be able to take every session,
 * and a request without a valid token is refused before its body is read.
 */

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
});
const PING = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
/** How long an answer that must come at once may take; a server waiting for a body never answers. */
const ANSWER_MS = 5000;

let dir: string;
let runtime: ServedVault;
let hostileSecret: string;
let ownerSecret: string;
const logs: string[] = [];
const servers: HttpHandle[] = [];
const sockets: Socket[] = [];

async function startServer(extra: Partial<HttpOptions> = {}): Promise<HttpHandle> {
  const handle = await serveHttp({
    runtime,
    tokens: new TokenStore(dir),
    port: 0,
    tools: ALL_TOOLS,
    serverInfo: { name: 'dexi-vault', version: 'test' },
    log: (line) => logs.push(line),
    ...extra,
  });
  servers.push(handle);
  return handle;
}

/** A bare initialize: the session it opens holds no request or stream open, so it is idle at once. */
async function initialize(handle: HttpHandle, secret: string): Promise<{ status: number; sessionId: string | null; text: string }> {
  const response = await fetch(handle.url, { method: 'POST', headers: { ...MCP_HEADERS, authorization: `Bearer ${secret}` }, body: INITIALIZE });
  const text = await response.text();
  return { status: response.status, sessionId: response.headers.get('mcp-session-id'), text };
}

async function ping(handle: HttpHandle, secret: string, sessionId: string): Promise<number> {
  const headers = { ...MCP_HEADERS, authorization: `Bearer ${secret}`, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
  const response = await fetch(handle.url, { method: 'POST', headers, body: PING });
  await response.text();
  return response.status;
}

/**
 * Open the session's server-to-client event stream and keep it open, so that
 * the session is in use. The response is kept too: fetch cancels the body of
 * a response that is garbage collected unread, which would close the stream.
 */
async function holdStream(handle: HttpHandle, secret: string, sessionId: string): Promise<{ controller: AbortController; response: Response }> {
  const controller = new AbortController();
  const headers = { accept: 'text/event-stream', authorization: `Bearer ${secret}`, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
  const response = await withTimeout(fetch(handle.url, { method: 'GET', headers, signal: controller.signal }), ANSWER_MS, 'the event stream');
  expect(response.status).toBe(200);
  // The body is left unread: the stream stays open until the controller aborts it.
  return { controller, response };
}

interface EarlyAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Resolves when the server has closed the connection (the test's side never closes it). */
  closed: Promise<void>;
}

/**
 * Over a plain socket, send a POST's headers and only the first part of its
 * body, never the rest, and wait for the answer. A server that reads the
 * body before checking the token waits for the rest and never answers; one
 * that reads and discards the rest keeps the connection open.
 */
function partialPost(port: number, headers: Record<string, string>, first: string): Promise<EarlyAnswer> {
  return new Promise((resolve, reject) => {
    let closedResolve: () => void = () => undefined;
    const closed = new Promise<void>((done) => (closedResolve = done));
    let answered = false;
    let received = Buffer.alloc(0);
    const socket = connect({ host: '127.0.0.1', port }, () => {
      const lines = Object.entries({ host: `127.0.0.1:${port}`, ...headers }).map(([name, value]) => `${name}: ${value}`);
      socket.write(`POST /mcp HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
      socket.write(first);
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const text = received.toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (answered || split === -1) return;
      const [statusLine = '', ...headerLines] = text.slice(0, split).split('\r\n');
      const answerHeaders: Record<string, string> = {};
      for (const line of headerLines) answerHeaders[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      const body = text.slice(split + 4);
      if (Buffer.byteLength(body) < Number(answerHeaders['content-length'] ?? 0)) return;
      answered = true;
      resolve({ status: Number(statusLine.split(' ')[1]), headers: answerHeaders, body, closed });
    });
    socket.on('close', () => closedResolve());
    // A reset once the server has answered and closed is how the unsent rest is refused.
    socket.on('error', (error) => (answered ? undefined : reject(error)));
    sockets.push(socket);
  });
}

beforeAll(async () => {
  dir = await writeVault({
    'Work/Plan.md': '---\nid: 11111111-1111-4111-8111-111111111111\ntitle: Plan\n---\nThe plan. #work\n',
    'Home.md': '---\nid: 22222222-2222-4222-8222-222222222222\ntitle: Home\n---\nAt home.\n',
  });
  runtime = await ServedVault.open({ vaultDir: dir, settings: { ...DEFAULT_SETTINGS }, shared: [], clock: new TestClock(), log: (line) => logs.push(line) });
  await runtime.loaded;
  // The attacker of the finding: read-only and bounded, yet able to take every session.
  hostileSecret = (await createToken(dir, { name: 'hostile', scopes: ['notes:read'], folder: 'Work' })).secret;
  ownerSecret = (await createToken(dir, { name: 'owner' })).secret;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((handle) => handle.close()));
  await runtime?.close();
  await removeDir(dir);
});

describe('one token cannot take every session', () => {
  it('a token at its share (a quarter of maxSessions) closes its own least recently used idle session, and other tokens still get in', async () => {
    const handle = await startServer({ maxSessions: 8 });
    const opened: string[] = [];
    // As many sessions as the whole server holds: before the fix, the owner was then locked out.
    for (let i = 0; i < 8; i++) {
      const answer = await initialize(handle, hostileSecret);
      expect(answer.status, answer.text).toBe(200);
      opened.push(answer.sessionId as string);
      expect(handle.sessionCount()).toBeLessThanOrEqual(2);
    }
    expect(handle.sessionCount()).toBe(2);
    expect(logs).toContain('Closed session of token "hostile": the token opened one more than its 2 sessions, and this was its least recently used idle one.');
    // The oldest went first; the two newest still answer.
    expect(await ping(handle, hostileSecret, opened[0] as string)).toBe(404);
    expect(await ping(handle, hostileSecret, opened[6] as string)).toBe(200);
    expect(await ping(handle, hostileSecret, opened[7] as string)).toBe(200);

    const owner = await initialize(handle, ownerSecret);
    expect(owner.status, owner.text).toBe(200);
    expect(await ping(handle, ownerSecret, owner.sessionId as string)).toBe(200);
  });

  it('refuses a token whose sessions are all in use, with a plain sentence, while other tokens still get in', async () => {
    const handle = await startServer({ maxSessions: 8 });
    const streams: { controller: AbortController; response: Response }[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const answer = await initialize(handle, hostileSecret);
        expect(answer.status).toBe(200);
        streams.push(await holdStream(handle, hostileSecret, answer.sessionId as string));
      }
      const refused = await initialize(handle, hostileSecret);
      expect(refused.status).toBe(429);
      const error = (JSON.parse(refused.text) as { error: { message: string } }).error;
      expect(error.message).toBe('This token already has 2 sessions open, the most one token may hold, and all are in use; close a client that uses this token, then try again.');
      expect(refused.text).not.toMatch(/\n\s+at /);
      expect(handle.sessionCount()).toBe(2);

      // The owner's share is its own.
      for (let i = 0; i < 2; i++) expect((await initialize(handle, ownerSecret)).status).toBe(200);

      // Once one of its sessions is idle again, the token may replace it.
      streams.shift()?.controller.abort();
      await waitFor(async () => (await initialize(handle, hostileSecret)).status === 200, 5000, 'a new session once one is idle');
      expect(handle.sessionCount()).toBe(4);
    } finally {
      for (const stream of streams) stream.controller.abort();
    }
  });

  it('holds the share against a burst of initialize requests sent at once', async () => {
    const handle = await startServer({ maxSessions: 8 });
    const from = logs.length;
    const answers = await Promise.all(Array.from({ length: 12 }, () => initialize(handle, hostileSecret)));
    for (const answer of answers) expect([200, 429], answer.text).toContain(answer.status);
    expect(answers.some((answer) => answer.status === 200)).toBe(true);
    expect(handle.sessionCount()).toBeLessThanOrEqual(2);
    // Not even for a moment: the sessions opened and closed, in the order the server logged them.
    let held = 0;
    let most = 0;
    for (const line of logs.slice(from)) {
      if (line === 'Opened a session for token "hostile".') most = Math.max(most, ++held);
      else if (line.startsWith('Closed session of token "hostile"')) held--;
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(2);
    expect((await initialize(handle, ownerSecret)).status).toBe(200);
  });

  it('takes the share from maxSessionsPerToken when given', async () => {
    const handle = await startServer({ maxSessions: 8, maxSessionsPerToken: 1 });
    const first = await initialize(handle, hostileSecret);
    const second = await initialize(handle, hostileSecret);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(handle.sessionCount()).toBe(1);
    expect(await ping(handle, hostileSecret, first.sessionId as string)).toBe(404);
    expect(await ping(handle, hostileSecret, second.sessionId as string)).toBe(200);
    expect(logs).toContain('Closed session of token "hostile": the token opened one more than its 1 session, and this was its least recently used idle one.');
  });
});

describe('the token is checked before the body is read', () => {
  let handle: HttpHandle;
  beforeAll(async () => {
    handle = await startServer();
  });

  it.each([
    ['no Authorization header', undefined],
    ['an unknown token', 'Bearer dexi_not-a-real-token'],
  ])('answers a body that is not JSON with 401, not 400, for %s', async (_label, authorization) => {
    const headers: Record<string, string> = { ...MCP_HEADERS };
    if (authorization) headers.authorization = authorization;
    const response = await fetch(handle.url, { method: 'POST', headers, body: '{not json' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    const text = await response.text();
    expect(text).not.toContain('not valid JSON');
    expect(text).not.toMatch(/\n\s+at |SyntaxError/);
  });

  it('answers 401 before a large body has been sent, and closes the connection instead of reading the rest', async () => {
    // 9 MiB announced (under the 10 MiB limit, so no size check can answer first), 64 KiB sent.
    const headers = { ...MCP_HEADERS, 'content-length': String(9 * 1024 * 1024) };
    const answer = await withTimeout(partialPost(handle.port, headers, '{'.repeat(64 * 1024)), ANSWER_MS, 'the answer to a request without a token');
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toMatch(/^Bearer\b/);
    expect(answer.headers.connection).toBe('close');
    expect(answer.body).not.toMatch(/\n\s+at /);
    await withTimeout(answer.closed, ANSWER_MS, 'the server to close the connection');
  });

  it('does the same for a chunked body of unknown length with an unknown token', async () => {
    const headers = { ...MCP_HEADERS, 'transfer-encoding': 'chunked', authorization: 'Bearer dexi_not-a-real-token' };
    // One 64 KiB chunk of an array that never closes, and no last chunk.
    const chunk = `[${'1,'.repeat(32 * 1024 - 1)}`;
    const framed = `${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`;
    const answer = await withTimeout(partialPost(handle.port, headers, framed), ANSWER_MS, 'the answer to a request with an unknown token');
    expect(answer.status).toBe(401);
    expect(answer.headers.connection).toBe('close');
    await withTimeout(answer.closed, ANSWER_MS, 'the server to close the connection');
  });

  it('keeps the connection of an authenticated request open as usual', async () => {
    const answer = await withTimeout(
      new Promise<IncomingHttpHeaders>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port: handle.port, path: '/mcp', method: 'POST', headers: { ...MCP_HEADERS, authorization: `Bearer ${ownerSecret}` } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.headers));
          },
        );
        req.on('error', reject);
        req.end(INITIALIZE);
      }),
      ANSWER_MS,
      'an authenticated initialize',
    );
    expect(answer.connection).not.toBe('close');
  });
});
