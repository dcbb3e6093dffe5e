import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
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
import { policyOfToken, type TokenEntry, type TokenStore } from '../access/tokens.js';
import type { ToolDefinition } from '../tools/tool.js';
import type { Logger } from '../vault/vault.js';
import { buildInstructions } from './instructions.js';
import type { Runtime } from './runtime.js';
import { createMcpServer } from './server.js';
import { HttpStartError } from './errors.js';
import { originValidation } from './origin.js';

export interface HttpOptions {
  runtime: Runtime;
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

interface Session {
  transport: StreamableHTTPServerTransport;
  /** The hash of the token that opened it: only that token may use it. */
  tokenHash: Buffer;
  tokenName: string;
  /** Requests and streams still open; a session is idle only when this is 0. */
  open: number;
  lastActive: number;
}

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

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The largest request body: a note may be 4 MiB and JSON escaping can
 * double it; stdio messages are capped at 10 MiB, and HTTP takes the same.
 */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * Serve MCP over Streamable HTTP at `/mcp`. Every request needs a bearer
 * token; each token is its own connection with its own scopes and boundary.
 * A session (one transport and one MCP server, built from the token's policy)
 * belongs to the token that opened it.
 */
export async function serveHttp(options: HttpOptions): Promise<HttpHandle> {
  const { runtime, tokens, log } = options;
  const host = options.host ?? '127.0.0.1';
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const maxSessions = options.maxSessions ?? 1000;
  const perToken = Math.min(maxSessions, Math.max(1, options.maxSessionsPerToken ?? Math.floor(maxSessions / 4)));
  const allowedHosts = options.allowedHosts ?? allowedHostsFor(host, { hostname: os.hostname(), addresses: machineAddresses() });
  const sessions = new Map<string, Session>();
  // Initialize requests under way, by token hash: counted against the limits
  // from their check until their session is registered, so that a burst of
  // them cannot slip past the limits together.
  const opening = new Map<string, number>();
  let openingTotal = 0;
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

  const tokenOf = (req: McpRequest): TokenEntry | undefined => (req.auth ? verified.get(req.auth) : undefined);

  /** The session, if it exists and belongs to this token. Another token's session is reported as unknown, so ids cannot be probed. */
  const sessionFor = (req: McpRequest, entry: TokenEntry): Session | undefined => {
    const id = headerOf(req, 'mcp-session-id');
    const session = id === undefined ? undefined : sessions.get(id);
    if (!session) return undefined;
    const presented = Buffer.from(entry.hash, 'hex');
    if (presented.length === session.tokenHash.length && timingSafeEqual(presented, session.tokenHash)) return session;
    log(`Refused a request for a session of token "${session.tokenName}" made with token "${entry.name}".`);
    return undefined;
  };

  /** Count open responses, so that a long call or a listening stream never looks idle. */
  const track = (session: Session, res: ServerResponse): void => {
    session.open++;
    session.lastActive = Date.now();
    res.on('close', () => {
      session.open--;
      session.lastActive = Date.now();
    });
  };

  const closeSession = (id: string, session: Session, why: string): void => {
    sessions.delete(id);
    log(`Closed session of token "${session.tokenName}": ${why}.`);
    session.transport.close().catch((error: unknown) => log(`Closing a session failed: ${(error as Error).message}`));
  };

  /**
   * Make room for one more session of this token, or say why not. One token
   * holds at most its share of the sessions, so it cannot lock the others
   * out: at its share, or with the server full, its own least recently used
   * idle session is closed; a token whose sessions are all in use is refused
   * (it can only ever crowd out itself).
   */
  const makeRoom = (key: string, hash: Buffer): { status: number; message: string } | undefined => {
    const mine = [...sessions].filter(([, session]) => session.tokenHash.equals(hash));
    const atShare = mine.length + (opening.get(key) ?? 0) >= perToken;
    const full = sessions.size + openingTotal >= maxSessions;
    if (!atShare && !full) return undefined;
    let oldest: [string, Session] | undefined;
    for (const item of mine) if (item[1].open === 0 && (!oldest || item[1].lastActive < oldest[1].lastActive)) oldest = item;
    if (oldest) {
      const why = atShare
        ? `the token opened one more than its ${perToken} sessions, and this was its least recently used idle one`
        : `the server was at its ${maxSessions} sessions, and this was the least recently used idle one of the token opening another`;
      closeSession(oldest[0], oldest[1], why);
      return undefined;
    }
    if (atShare) {
      return { status: 429, message: `This token already has ${perToken} sessions open, the most one token may hold, and all are in use; close a client that uses this token, then try again.` };
    }
    return { status: 503, message: 'Too many open sessions; close some clients and try again.' };
  };

  const openSession = async (req: McpRequest, res: ServerResponse, entry: TokenEntry): Promise<void> => {
    const hash = Buffer.from(entry.hash, 'hex');
    // The key of the count of initialize requests under way: the hash as the Buffer spells it, whatever case the file used.
    const key = hash.toString('hex');
    const refusal = makeRoom(key, hash);
    if (refusal) return rpcError(res, refusal.status, -32000, refusal.message);
    opening.set(key, (opening.get(key) ?? 0) + 1);
    openingTotal++;
    let counted = true;
    const opened = (): void => {
      if (!counted) return;
      counted = false;
      openingTotal--;
      const left = (opening.get(key) ?? 1) - 1;
      if (left > 0) opening.set(key, left);
      else opening.delete(key);
    };
    try {
      await startSession(req, res, entry, opened);
    } finally {
      opened();
    }
  };

  const startSession = async (req: McpRequest, res: ServerResponse, entry: TokenEntry, opened: () => void): Promise<void> => {
    const context = runtime.context(policyOfToken(entry), `token ${entry.name}`);
    const server: Server = createMcpServer({
      name: options.serverInfo.name,
      version: options.serverInfo.version,
      tools: options.tools,
      context,
      instructions: buildInstructions(context.view, runtime.settings),
      log,
    });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Registered here, not after handleRequest, so a request racing the initialize answer already finds it.
      onsessioninitialized: (id) => {
        const session: Session = { transport, tokenHash: Buffer.from(entry.hash, 'hex'), tokenName: entry.name, open: 0, lastActive: Date.now() };
        sessions.set(id, session);
        opened();
        track(session, res);
        log(`Opened a session for token "${entry.name}".`);
      },
    });
    // Set before connect: the server chains its own close handling onto it.
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined) sessions.delete(id);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  };

  const handlePost = async (req: McpRequest, res: ServerResponse): Promise<void> => {
    const entry = tokenOf(req);
    if (!entry) return rpcError(res, 401, -32001, 'A bearer token is needed.');
    if (headerOf(req, 'mcp-session-id') === undefined) {
      if (!isInitializeRequest(req.body)) {
        return rpcError(res, 400, -32000, 'Bad Request: no session id; start with an initialize request.');
      }
      return openSession(req, res, entry);
    }
    const session = sessionFor(req, entry);
    if (!session) return rpcError(res, 404, -32001, 'Session not found; start a new one with initialize.');
    track(session, res);
    await session.transport.handleRequest(req, res, req.body);
  };

  /** GET opens the server-to-client event stream; DELETE ends the session. Both as the SDK intends. */
  const handleSessionRequest = async (req: McpRequest, res: ServerResponse): Promise<void> => {
    const entry = tokenOf(req);
    if (!entry) return rpcError(res, 401, -32001, 'A bearer token is needed.');
    if (headerOf(req, 'mcp-session-id') === undefined) return rpcError(res, 400, -32000, 'Bad Request: the Mcp-Session-Id header is missing.');
    const session = sessionFor(req, entry);
    if (!session) return rpcError(res, 404, -32001, 'Session not found; start a new one with initialize.');
    track(session, res);
    await session.transport.handleRequest(req, res);
  };

  const guarded =
    (handler: (req: McpRequest, res: ServerResponse) => Promise<void>) =>
    async (req: McpRequest, res: ServerResponse): Promise<void> => {
      try {
        await handler(req, res);
      } catch (error) {
        log(`An HTTP request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        rpcError(res, 500, -32603, 'The server could not handle this request; see the server log.');
      }
    };

  // As the SDK's createMcpExpressApp sets it up (which fixes bodies at
  // 100 kB), but no body is read before the token is verified: first the
  // Host and Origin checks against DNS rebinding, then the bearer token, and
  // only then the JSON body. Until the token is verified every answer says
  // `Connection: close`, so a refused request's socket is closed after the
  // answer rather than the rest of its body read and thrown away.
  const app = express();
  app.disable('x-powered-by');
  app.use((_req: IncomingMessage, res: ServerResponse, next: () => void) => {
    res.setHeader('Connection', 'close');
    next();
  });
  app.use(hostHeaderValidation(allowedHosts));
  app.use(originValidation(options.allowedOrigins ?? [], log));
  const bearer = requireBearerAuth({ verifier });
  const auth: RequestHandler = (req, res, next) =>
    bearer(req, res, (error?: unknown) => {
      if (error === undefined) res.removeHeader('Connection');
      next(error);
    });
  app.post('/mcp', auth, express.json({ limit: MAX_BODY_BYTES }), guarded(handlePost));
  app.get('/mcp', auth, guarded(handleSessionRequest));
  app.delete('/mcp', auth, guarded(handleSessionRequest));
  app.use((_req: IncomingMessage, res: ServerResponse) => {
    sendJson(res, 404, { error: 'not_found', error_description: 'The MCP endpoint is /mcp.' });
  });
  // Express's own error page shows a stack trace; body parsing errors get a plain answer instead.
  app.use((error: { type?: string; status?: number; message?: string }, _req: IncomingMessage, res: ServerResponse, _next: unknown) => {
    if (error.type === 'entity.parse.failed') return rpcError(res, 400, -32700, 'Parse error: the request body is not valid JSON.');
    if (error.type === 'entity.too.large') {
      return rpcError(res, 413, -32600, 'The request is larger than the server accepts (10 MiB); send long text in several update_note appends.');
    }
    if (typeof error.status === 'number' && error.status >= 400 && error.status < 500) {
      return rpcError(res, error.status, -32600, `The request was refused: ${error.message ?? 'bad request'}.`);
    }
    log(`An HTTP request failed: ${error.message ?? String(error)}`);
    return rpcError(res, 500, -32603, 'The server could not handle this request; see the server log.');
  });

  const httpServer = createServer(app);
  await new Promise<void>((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException): void => {
      const where = `${host}:${options.port}`;
      if (error.code === 'EADDRINUSE') reject(new HttpStartError(`Port ${options.port} on ${host} is already in use; pick another with --http PORT.`));
      else if (error.code === 'EACCES') reject(new HttpStartError(`Not allowed to listen on ${where} (ports below 1024 need privileges); pick another with --http PORT.`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') {
        reject(new HttpStartError(`Cannot listen on ${host}: it is not an address of this machine; leave out --host to use 127.0.0.1.`));
      } else reject(new HttpStartError(`Cannot listen on ${where}: ${error.message}`));
    };
    httpServer.once('error', fail);
    httpServer.listen(options.port, host, () => {
      httpServer.off('error', fail);
      resolve();
    });
  });
  httpServer.on('error', (error) => log(`HTTP server error: ${error.message}`));

  // Idle sessions are closed; so are sessions whose token was revoked, whose
  // open event stream would otherwise keep them alive (the token itself is
  // refused on its next request anyway).
  const sweep = setInterval(() => {
    void (async () => {
      const cutoff = Date.now() - idleMs;
      for (const [id, session] of sessions) if (session.open === 0 && session.lastActive < cutoff) closeSession(id, session, 'idle');
      let live: Set<string>;
      try {
        live = new Set((await tokens.entries()).map((entry) => entry.hash));
      } catch {
        return; // Reported by the verifier on the next request.
      }
      for (const [id, session] of sessions) if (!live.has(session.tokenHash.toString('hex'))) closeSession(id, session, 'its token was revoked');
    })();
  }, options.sweepIntervalMs ?? 60_000);
  sweep.unref();

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
        const open = [...sessions.values()];
        sessions.clear();
        await Promise.all(open.map((session) => session.transport.close().catch(() => undefined)));
        // Event streams and keep-alive sockets would otherwise hold the close open.
        httpServer.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}
