import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { TokenEntry, TokenStore } from '../../access/tokens.js';
import type { Logger } from '../../vault/vault.js';
import { counted } from '../../format/counts.js';

export interface Session {
  transport: StreamableHTTPServerTransport;
  /** The hash of the token that opened it: only that token may use it. */
  tokenHash: Buffer;
  tokenName: string;
  /** Requests and streams still open; a session is idle only when this is 0. */
  open: number;
  lastActive: number;
}

/** Why a new session is refused: the HTTP status and the sentence of the JSON-RPC error. */
export interface Refusal {
  status: number;
  message: string;
}

export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The HTTP server's sessions, by id, and the initialize requests under way,
 * with the limits on both: at most `maxSessions` in all and `perToken` of
 * one token.
 */
export class SessionTable {
  private readonly sessions = new Map<string, Session>();
  // Initialize requests under way, by token hash: counted against the limits
  // from their check until their session is registered, so that a burst of
  // them cannot slip past the limits together.
  private readonly opening = new Map<string, number>();
  private openingTotal = 0;

  constructor(
    private readonly limits: { maxSessions: number; perToken: number },
    private readonly log: Logger,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /** The session, if it exists and belongs to this token. Another token's session is reported as unknown, so ids cannot be probed. */
  sessionFor(req: IncomingMessage, entry: TokenEntry): Session | undefined {
    const id = headerOf(req, 'mcp-session-id');
    const session = id === undefined ? undefined : this.sessions.get(id);
    if (!session) return undefined;
    const presented = Buffer.from(entry.hash, 'hex');
    if (presented.length === session.tokenHash.length && timingSafeEqual(presented, session.tokenHash)) return session;
    this.log(`Refused a request for a session of token "${session.tokenName}" made with token "${entry.name}".`);
    return undefined;
  }

  /** Count open responses, so that a long call or a listening stream never looks idle. */
  track(session: Session, res: ServerResponse): void {
    session.open++;
    session.lastActive = Date.now();
    res.on('close', () => {
      session.open--;
      session.lastActive = Date.now();
    });
  }

  /** A session the transport has just given its id. */
  add(id: string, session: Session): void {
    this.sessions.set(id, session);
  }

  /** A session whose transport closed by itself. */
  forget(id: string): void {
    this.sessions.delete(id);
  }

  close(id: string, session: Session, why: string): void {
    this.sessions.delete(id);
    this.log(`Closed session of token "${session.tokenName}": ${why}.`);
    session.transport.close().catch((error: unknown) => this.log(`Closing a session failed: ${(error as Error).message}`));
  }

  /**
   * Run `start` as one initialize request of the token with this hash,
   * counted against the limits until it calls `opened` (once its session is
   * registered) or ends; refused, with the reason, when there is no room.
   */
  async openWithinLimits(hash: Buffer, start: (opened: () => void) => Promise<void>): Promise<Refusal | undefined> {
    // The key of the count: the hash as the Buffer spells it, whatever case the file used.
    const key = hash.toString('hex');
    const refusal = this.makeRoom(key, hash);
    if (refusal) return refusal;
    this.opening.set(key, (this.opening.get(key) ?? 0) + 1);
    this.openingTotal++;
    let counted = true;
    const opened = (): void => {
      if (!counted) return;
      counted = false;
      this.openingTotal--;
      const left = (this.opening.get(key) ?? 1) - 1;
      if (left > 0) this.opening.set(key, left);
      else this.opening.delete(key);
    };
    try {
      await start(opened);
    } finally {
      opened();
    }
    return undefined;
  }

  /**
   * Make room for one more session of this token, or say why not. One token
   * holds at most its share of the sessions, so it cannot lock the others
   * out: at its share, or with the server full, its own least recently used
   * idle session is closed; a token whose sessions are all in use is refused
   * (it can only ever crowd out itself).
   */
  private makeRoom(key: string, hash: Buffer): Refusal | undefined {
    const { maxSessions, perToken } = this.limits;
    const mine = [...this.sessions].filter(([, session]) => session.tokenHash.equals(hash));
    const atShare = mine.length + (this.opening.get(key) ?? 0) >= perToken;
    const full = this.sessions.size + this.openingTotal >= maxSessions;
    if (!atShare && !full) return undefined;
    let oldest: [string, Session] | undefined;
    for (const item of mine) if (item[1].open === 0 && (!oldest || item[1].lastActive < oldest[1].lastActive)) oldest = item;
    if (oldest) {
      const why = atShare
        ? `the token opened one more than its ${counted(perToken, 'session')}, and this was its least recently used idle one`
        : `the server was at its ${counted(maxSessions, 'session')}, and this was the least recently used idle one of the token opening another`;
      this.close(oldest[0], oldest[1], why);
      return undefined;
    }
    if (atShare) {
      return { status: 429, message: `This token already has ${counted(perToken, 'session')} open, the most one token may hold, and all are in use; close a client that uses this token, then try again.` };
    }
    return { status: 503, message: 'Too many open sessions; close some clients and try again.' };
  }

  /**
   * Close idle sessions, and sessions whose token was revoked, whose open
   * event stream would otherwise keep them alive (the token itself is
   * refused on its next request anyway).
   */
  async sweep(idleMs: number, tokens: TokenStore): Promise<void> {
    const cutoff = Date.now() - idleMs;
    for (const [id, session] of this.sessions) if (session.open === 0 && session.lastActive < cutoff) this.close(id, session, 'idle');
    let live: Set<string>;
    try {
      live = new Set((await tokens.entries()).map((entry) => entry.hash));
    } catch {
      return; // Reported by the verifier on the next request.
    }
    for (const [id, session] of this.sessions) if (!live.has(session.tokenHash.toString('hex'))) this.close(id, session, 'its token was revoked');
  }

  /** Close every session and wait for their transports. */
  async closeAll(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(open.map((session) => session.transport.close().catch(() => undefined)));
  }
}
