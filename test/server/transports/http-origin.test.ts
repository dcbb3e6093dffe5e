import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, TokenStore } from '../../../src/access/tokens.js';
import { serveHttp, type HttpHandle } from '../../../src/server/transports/http.js';
import { normaliseOrigin, originAllowed } from '../../../src/server/transports/origin.js';
import { ServedVault } from '../../../src/server/served-vault.js';
import { ALL_TOOLS } from '../../../src/tools/index.js';
import { DEFAULT_SETTINGS } from '../../../src/vault/settings.js';
import { removeDir, TestClock, writeVault } from '../../support/helpers.js';

/**
 * Streamable HTTP validates `Origin` as the MCP transport specification
 * requires (red-team-2, issue 29): a web page from another site gets 403 and
 * a plain sentence, before its token or body is looked at; programs (no
 * `Origin`) and pages on this machine go on; `--allow-origin` names others.
 */

describe('normaliseOrigin', () => {
  it.each([
    ['https://app.example.com', 'https://app.example.com'],
    ['HTTPS://App.Example.COM', 'https://app.example.com'],
    ['https://app.example.com:443', 'https://app.example.com'],
    ['http://app.example.com:80/', 'http://app.example.com'],
    ['http://localhost:5173', 'http://localhost:5173'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
    ['http://127.0.0.1:1', 'http://127.0.0.1:1'],
    ['null', undefined],
    ['*', undefined],
    ['', undefined],
    ['app.example.com', undefined],
    ['https://app.example.com/path', undefined],
    ['https://app.example.com?x=1', undefined],
    ['https://app.example.com#x', undefined],
    ['https://user:pw@app.example.com', undefined],
    ['file:///etc/hosts', undefined],
    ['chrome-extension://abcdef', undefined],
    ['http:/app.example.com', undefined],
    ['https://app.example.com:99999', undefined],
  ])('%j is %j', (text, expected) => {
    expect(normaliseOrigin(text)).toBe(expected);
  });
});

describe('originAllowed', () => {
  const allowed = new Set(['https://app.example.com']);
  it.each([
    [undefined, true],
    ['http://localhost:5173', true],
    ['https://localhost', true],
    ['http://127.0.0.1:9', true],
    ['http://[::1]:3000', true],
    ['https://app.example.com', true],
    ['https://evil.example', false],
    ['http://app.example.com', false],
    ['https://app.example.com:8443', false],
    ['https://app.example.com.evil.example', false],
    ['http://localhost.evil.example', false],
    ['http://127.0.0.2:80', false],
    ['null', false],
    ['', false],
  ])('%j: %s', (origin, expected) => {
    expect(originAllowed(origin, allowed)).toBe(expected);
  });
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
});
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

let dir: string;
let runtime: ServedVault;
let server: HttpHandle;
let secret: string;
const logs: string[] = [];

/**
 * A request through node:http, which sets any Origin header. A 403 is read
 * whole; any other answer only up to its status, since an initialize answer
 * may be an event stream.
 */
function send(options: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path: '/mcp', method: options.method ?? 'POST', headers: options.headers }, (res) => {
      const status = res.statusCode ?? 0;
      const connection = res.headers.connection;
      if (status !== 403) {
        res.destroy();
        resolve({ status, connection, body: '' });
        return;
      }
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status, connection, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const initialize = (origin?: string): ReturnType<typeof send> =>
  send({ headers: { ...MCP_HEADERS, authorization: `Bearer ${secret}`, ...(origin === undefined ? {} : { origin }) }, body: INITIALIZE });

beforeAll(async () => {
  dir = await writeVault({ 'Note.md': 'A note.\n' });
  runtime = await ServedVault.open({ vaultDir: dir, settings: { ...DEFAULT_SETTINGS }, shared: [], clock: new TestClock(), log: (line) => logs.push(line) });
  await runtime.loaded;
  secret = (await createToken(dir, { name: 'owner' })).secret;
  server = await serveHttp({
    runtime,
    tokens: new TokenStore(dir),
    port: 0,
    tools: ALL_TOOLS,
    serverInfo: { name: 'dexi-vault', version: 'test' },
    log: (line) => logs.push(line),
    allowedOrigins: ['https://app.example.com'],
  });
});

afterAll(async () => {
  await server?.close();
  await runtime?.close();
  await removeDir(dir);
});

describe('serve --http: the Origin header', () => {
  it('takes a request without Origin (a program, not a web page)', async () => {
    expect((await initialize()).status).toBe(200);
  });

  it.each(['http://localhost:5173', 'http://127.0.0.1:8080', 'http://[::1]:3000', 'https://localhost'])('takes a page on this machine, %s, on any port', async (origin) => {
    expect((await initialize(origin)).status).toBe(200);
  });

  it('takes a page whose origin --allow-origin named', async () => {
    expect((await initialize('https://app.example.com')).status).toBe(200);
  });

  it.each(['https://evil.example', 'http://app.example.com', 'https://app.example.com:8443', 'http://localhost.evil.example', 'null'])(
    'refuses a page at %s with 403 and a plain sentence',
    async (origin) => {
      const answer = await initialize(origin);
      expect(answer.status).toBe(403);
      const body = JSON.parse(answer.body) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
      expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
      expect(body.error.message).toMatch(new RegExp(`^Forbidden: this server takes requests from programs and from web pages on this machine, not from the page at "${origin.replace(/\./g, '\\.')}"; `));
      expect(body.error.message).toMatch(origin === 'null' ? /such an origin names no site, so it cannot be allowed\.$/ : /to allow it, start the server with --allow-origin \S+\.$/);
    },
  );

  it('refuses a foreign page before its token or body is looked at, and closes the connection', async () => {
    // Without a token, and with a body that is not JSON: 403, not 401 or 400.
    const answer = await send({ headers: { ...MCP_HEADERS, origin: 'https://evil.example' }, body: '{not json' });
    expect(answer.status).toBe(403);
    expect(answer.connection).toBe('close');
    for (const method of ['GET', 'DELETE']) {
      expect((await send({ method, headers: { accept: 'text/event-stream', authorization: `Bearer ${secret}`, origin: 'https://evil.example', 'mcp-session-id': 'x' } })).status).toBe(403);
    }
  });

  it('logs each refused page once, naming the flag that would allow it', async () => {
    await initialize('https://once.example');
    await initialize('https://once.example');
    const lines = logs.filter((line) => line.includes('https://once.example'));
    expect(lines).toEqual(['Refused a request from the web page at "https://once.example" (its Origin header); to allow it, start the server with --allow-origin https://once.example.']);
  });
});
