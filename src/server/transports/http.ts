import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import express, { type RequestHandler } from 'express';
import { InvalidTokenError, ServerError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { OAuthTokenVerifier } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { hostHeaderValidation } from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { policyOfToken, type TokenEntry, type TokenStore } from '../../access/tokens.js';
import type { ToolDefinition } from '../../tools/tool.js';
import type { Logger } from '../../vault/vault.js';
import { buildInstructions } from '../instructions.js';
import type { ServedVault } from '../served-vault.js';
import { createMcpServer } from '../server.js';
import { HttpStartError } from '../errors.js';
import { headerOf, SessionTable, type Session } from './http-sessions.js';
import { originValidation } from './origin.js';

export interface HttpOptions {
  runtime: ServedVault;
  tokens: TokenStore;
  /** 0 picks a free port (see `HttpHandle.port`). */
  port: number;
  /** Default 127.0.0.1: reachable from this machine only. */
  host?: string;
  tools: readonly ToolDefinition[];
  serverInfo: { name: string; version: string };
  log: Logger;
  /** Host names accepted in the Host header; by default those that reach `host`. */
  allowedHosts?: string[];
  /** Web pages let through besides this machine's, as normaliseOrigin gives them (`serve --allow-origin`). */
  allowedOrigins?: readonly string[];
  /** Close a session with no open request or stream after this long (default 30 minutes). */
  sessionIdleMs?: number;
  /** How often idle sessions and sessions of revoked tokens are looked for (default 1 minute). */
  sweepIntervalMs?: number;
  /** At most this many sessions at once (default 1000). */
  maxSessions?: number;
  /**
   * At most this many sessions of one token at once (default a quarter of
   * `maxSessions`, at least 1), so that one token cannot take them all. A
   * token at its share that opens another session closes its own least
   * recently used idle one; with none idle, it is refused (429).
   */
  maxSessionsPerToken?: number;
}

export interface HttpHandle {
  /** The port actually listened on. */
  readonly port: number;
  readonly host: string;
  /** The MCP endpoint, e.g. http://127.0.0.1:8080/mcp. */
  readonly url: string;
  sessionCount(): number;
  /** Stop accepting, close every session and open stream, and wait for the sockets to end. */
  close(): Promise<void>;
}

/** Listening failed for a reason the person can fix; the message says how. */
export { HttpStartError };

/** What the SDK's middleware leaves on a request: the verified token and the parsed JSON body. */
type McpRequest = IncomingMessage & { auth?: AuthInfo; body?: unknown };

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** A host name as `new URL` reports it in the Host header check (lower case, IPv6 in brackets). */
function hostnameOf(name: string): string | undefined {
  const bare = name.replace(/^\[|\]$/g, '');
  try {
    return new URL(`http://${bare.includes(':') ? `[${bare}]` : bare}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * The Host header values to accept when bound to `host`. Security: a browser
 * page on another site can reach a local server through DNS rebinding; its
 * requests carry that site's name in the Host header, so only names that
 * really lead to this server are let through.
 */
export function allowedHostsFor(host: string, machine: { hostname: string; addresses: readonly string[] }): string[] {
  const names = new Set<string>();
  const add = (name: string): void => {
    const normal = hostnameOf(name);
    if (normal) names.add(normal);
  };
  const bound = hostnameOf(host) ?? host;
  if (LOOPBACK_NAMES.includes(bound)) {
    for (const name of LOOPBACK_NAMES) add(name);
  } else if (bound === '0.0.0.0' || bound === '[::]') {
    // Every interface: this machine's names and addresses, loopback included.
    for (const name of LOOPBACK_NAMES) add(name);
    add(machine.hostname);
    // A zone index (fe80::1%eth0) cannot appear in a Host header.
    for (const address of machine.addresses) if (!address.includes('%')) add(address);
  } else {
    add(host);
    add(machine.hostname);
  }
  return [...names];
}

function machineAddresses(): string[] {
  return Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((item) => item.address));
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

/**
 * The largest request body: a note may be 4 MiB and JSON escaping can
 * double it; stdio messages are capped at 10 MiB, and HTTP takes the same.
 */
const MAX_BODY_BYTES = 10 * 1024 * 1024;


/** What the request handlers of one HTTP server share. */
interface HttpParts {
  options: HttpOptions;
  sessions: SessionTable;
  /** The verified token of a request that passed the bearer check. */
  tokenOf(req: McpRequest): TokenEntry | undefined;
}

/**
 * The bearer token check the SDK's middleware asks for: each token is
 * looked up in the store, re-read when its file changed, on every request.
 */
function tokenVerifier(tokens: TokenStore, log: Logger): Pick<HttpParts, 'tokenOf'> & { verifier: OAuthTokenVerifier } {
  // The verified entry behind each request's AuthInfo, kept typed rather than cast back out of `extra`.
  const verified = new WeakMap<AuthInfo, TokenEntry>();
  let lastStoreError: string | undefined;
  const verifier: OAuthTokenVerifier = {
    async verifyAccessToken(secret: string): Promise<AuthInfo> {
      let entry: TokenEntry | undefined;
      try {
        entry = await tokens.verify(secret);
        lastStoreError = undefined;
      } catch (error) {
        const message = (error as Error).message;
        // Once per distinct problem: a damaged file would otherwise log on every request.
        if (message !== lastStoreError) log(message);
        lastStoreError = message;
        throw new ServerError('The token file cannot be read; see the server log.');
      }
      // Header text: ASCII only.
      if (!entry) throw new InvalidTokenError('Unknown or revoked token; create one with: dexi-vault token create --name NAME');
      const auth: AuthInfo = {
        token: secret,
        clientId: entry.name,
        scopes: [...entry.scopes],
        // Tokens do not expire, but the SDK insists on a time. The token is
        // checked again on every request, so this only has to outlast this one.
        expiresAt: Math.floor(Date.now() / 1000) + 3600,
        extra: { name: entry.name, folder: entry.folder, tag: entry.tag },
      };
      verified.set(auth, entry);
      return auth;
    },
  };
  return { verifier, tokenOf: (req) => (req.auth ? verified.get(req.auth) : undefined) };
}

/** An initialize request without a session: a new session for its token, when the limits leave room. */
async function openSession(parts: HttpParts, req: McpRequest, res: ServerResponse, entry: TokenEntry): Promise<void> {
  const refusal = await parts.sessions.openWithinLimits(Buffer.from(entry.hash, 'hex'), (opened) => startSession(parts, req, res, entry, opened));
  if (refusal) rpcError(res, refusal.status, -32000, refusal.message);
}

/** One transport and one MCP server, built from the token's policy; `opened` is called once the session has its id. */
async function startSession(parts: HttpParts, req: McpRequest, res: ServerResponse, entry: TokenEntry, opened: () => void): Promise<void> {
  const { options, sessions } = parts;
  const { runtime, log } = options;
  const context = runtime.context(policyOfToken(entry), `token ${entry.name}`);
  const server: Server = createMcpServer({
    name: options.serverInfo.name,
    version: options.serverInfo.version,
    tools: options.tools,
    context,
    instructions: buildInstructions(context.view, runtime.settings),
    log,
    logs: runtime.logs,
  });
  const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    // Registered here, not after handleRequest, so a request racing the initialize answer already finds it.
    onsessioninitialized: (id) => {
      const session: Session = { transport, tokenHash: Buffer.from(entry.hash, 'hex'), tokenName: entry.name, open: 0, lastActive: Date.now() };
      sessions.add(id, session);
      opened();
      sessions.track(session, res);
      log(`Opened a session for token "${entry.name}".`);
    },
  });
  // Set before connect: the server chains its own close handling onto it.
  transport.onclose = () => {
    const id = transport.sessionId;
    if (id !== undefined) sessions.forget(id);
  };
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}

/** POST: an initialize request opens a session; any other request goes to its token's session. */
async function handlePost(parts: HttpParts, req: McpRequest, res: ServerResponse): Promise<void> {
  const entry = parts.tokenOf(req);
  if (!entry) return rpcError(res, 401, -32001, 'A bearer token is needed.');
  if (headerOf(req, 'mcp-session-id') === undefined) {
    if (!isInitializeRequest(req.body)) {
      return rpcError(res, 400, -32000, 'Bad Request: no session id; start with an initialize request.');
    }
    return openSession(parts, req, res, entry);
  }
  const session = parts.sessions.sessionFor(req, entry);
  if (!session) return rpcError(res, 404, -32001, 'Session not found; start a new one with initialize.');
  parts.sessions.track(session, res);
  await session.transport.handleRequest(req, res, req.body);
}

/** GET opens the server-to-client event stream; DELETE ends the session. Both as the SDK intends. */
async function handleSessionRequest(parts: HttpParts, req: McpRequest, res: ServerResponse): Promise<void> {
  const entry = parts.tokenOf(req);
  if (!entry) return rpcError(res, 401, -32001, 'A bearer token is needed.');
  if (headerOf(req, 'mcp-session-id') === undefined) return rpcError(res, 400, -32000, 'Bad Request: the Mcp-Session-Id header is missing.');
  const session = parts.sessions.sessionFor(req, entry);
  if (!session) return rpcError(res, 404, -32001, 'Session not found; start a new one with initialize.');
  parts.sessions.track(session, res);
  await session.transport.handleRequest(req, res);
}

/** A handler whose failure is logged with its stack and answered with a plain JSON-RPC error, never Express's page. */
function guarded(parts: HttpParts, handler: (parts: HttpParts, req: McpRequest, res: ServerResponse) => Promise<void>): (req: McpRequest, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    try {
      await handler(parts, req, res);
    } catch (error) {
      parts.options.log(`An HTTP request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      rpcError(res, 500, -32603, 'The server could not handle this request; see the server log.');
    }
  };
}

/** Express's own error page shows a stack trace; body parsing errors get a plain answer instead. */
function answerFailure(log: Logger): (error: { type?: string; status?: number; message?: string }, _req: IncomingMessage, res: ServerResponse, _next: unknown) => void {
  // Four parameters: Express tells an error handler by its arity.
  return (error, _req, res, _next) => {
    if (error.type === 'entity.parse.failed') return rpcError(res, 400, -32700, 'Parse error: the request body is not valid JSON.');
    if (error.type === 'entity.too.large') {
      return rpcError(res, 413, -32600, 'The request is larger than the server accepts (10 MiB); send long text in several update_note appends.');
    }
    if (typeof error.status === 'number' && error.status >= 400 && error.status < 500) {
      return rpcError(res, error.status, -32600, `The request was refused: ${error.message ?? 'bad request'}.`);
    }
    log(`An HTTP request failed: ${error.message ?? String(error)}`);
    return rpcError(res, 500, -32603, 'The server could not handle this request; see the server log.');
  };
}

/**
 * The Express app. As the SDK's createMcpExpressApp sets it up (which fixes
 * bodies at 100 kB), but no body is read before the token is verified: first
 * the Host and Origin checks against DNS rebinding, then the bearer token,
 * and only then the JSON body. Until the token is verified every answer says
 * `Connection: close`, so a refused request's socket is closed after the
 * answer rather than the rest of its body read and thrown away.
 */
function buildApp(parts: HttpParts, verifier: OAuthTokenVerifier, allowedHosts: string[]): express.Express {
  const { options } = parts;
  const app = express();
  app.disable('x-powered-by');
  app.use((_req: IncomingMessage, res: ServerResponse, next: () => void) => {
    res.setHeader('Connection', 'close');
    next();
  });
  app.use(hostHeaderValidation(allowedHosts));
  app.use(originValidation(options.allowedOrigins ?? [], options.log));
  const bearer = requireBearerAuth({ verifier });
  const auth: RequestHandler = (req, res, next) =>
    bearer(req, res, (error?: unknown) => {
      if (error === undefined) res.removeHeader('Connection');
      next(error);
    });
  app.post('/mcp', auth, express.json({ limit: MAX_BODY_BYTES }), guarded(parts, handlePost));
  app.get('/mcp', auth, guarded(parts, handleSessionRequest));
  app.delete('/mcp', auth, guarded(parts, handleSessionRequest));
  app.use((_req: IncomingMessage, res: ServerResponse) => {
    sendJson(res, 404, { error: 'not_found', error_description: 'The MCP endpoint is /mcp.' });
  });
  app.use(answerFailure(options.log));
  return app;
}

/** Listen on `host`:`port`; a failure the person can fix (port in use, no such address) is an HttpStartError saying how. */
async function listen(httpServer: HttpServer, host: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException): void => {
      const where = `${host}:${port}`;
      if (error.code === 'EADDRINUSE') reject(new HttpStartError(`Port ${port} on ${host} is already in use; pick another with --http PORT.`));
      else if (error.code === 'EACCES') reject(new HttpStartError(`Not allowed to listen on ${where} (ports below 1024 need privileges); pick another with --http PORT.`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') {
        reject(new HttpStartError(`Cannot listen on ${host}: it is not an address of this machine; leave out --host to use 127.0.0.1.`));
      } else reject(new HttpStartError(`Cannot listen on ${where}: ${error.message}`));
    };
    httpServer.once('error', fail);
    httpServer.listen(port, host, () => {
      httpServer.off('error', fail);
      resolve();
    });
  });
}

/** The handle on a listening server: its address, and the one close that ends every session and socket. */
function handleOf(httpServer: HttpServer, host: string, sessions: SessionTable, sweep: NodeJS.Timeout): HttpHandle {
  const port = (httpServer.address() as AddressInfo).port;
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    port,
    host,
    url: `http://${urlHost}:${port}/mcp`,
    sessionCount: () => sessions.size,
    close() {
      closing ??= (async () => {
        clearInterval(sweep);
        const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
        await sessions.closeAll();
        // Event streams and keep-alive sockets would otherwise hold the close open.
        httpServer.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}

/**
 * Serve MCP over Streamable HTTP at `/mcp`. Every request needs a bearer
 * token; each token is its own connection with its own scopes and boundary.
 * A session (one transport and one MCP server, built from the token's policy)
 * belongs to the token that opened it.
 */
export async function serveHttp(options: HttpOptions): Promise<HttpHandle> {
  const { tokens, log } = options;
  const host = options.host ?? '127.0.0.1';
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const maxSessions = options.maxSessions ?? 1000;
  const perToken = Math.min(maxSessions, Math.max(1, options.maxSessionsPerToken ?? Math.floor(maxSessions / 4)));
  const allowedHosts = options.allowedHosts ?? allowedHostsFor(host, { hostname: os.hostname(), addresses: machineAddresses() });
  const sessions = new SessionTable({ maxSessions, perToken }, log);
  const { verifier, tokenOf } = tokenVerifier(tokens, log);
  const httpServer = createServer(buildApp({ options, sessions, tokenOf }, verifier, allowedHosts));
  await listen(httpServer, host, options.port);
  httpServer.on('error', (error) => log(`HTTP server error: ${error.message}`));
  const sweep = setInterval(() => void sessions.sweep(idleMs, tokens), options.sweepIntervalMs ?? 60_000);
  sweep.unref();
  return handleOf(httpServer, host, sessions, sweep);
}
