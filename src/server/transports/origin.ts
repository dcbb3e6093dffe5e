import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The `Origin` check of Streamable HTTP. Security: the MCP transport
 * specification (2025-11-25, Streamable HTTP, "Security Warning") requires a
 * server to validate the `Origin` header of every request against DNS
 * rebinding, and to answer an invalid one with 403 Forbidden. A browser sends
 * `Origin` on every cross-site request and every POST, naming the page that
 * makes it; programs (MCP clients, scripts) send none, are no web page, and
 * are let through for the bearer token to decide. A page on this machine (a
 * loopback origin, on any port) is let through as well; any other page only
 * when the person named its origin with `serve --allow-origin`.
 */

/** The host names of this machine a page's origin may have (as the Host check's LOOPBACK_NAMES). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The literal form of an origin: a scheme, `://`, then a host and port, and at most a `/` after. */
const ORIGIN_FORM = /^https?:\/\/[^/?#@\s]+\/?$/i;

/**
 * An origin as browsers send and compare it: `scheme://host[:port]`, in lower
 * case, without the scheme's default port (`https://App.example.com:443/` is
 * `https://app.example.com`). Undefined for anything else: another scheme,
 * a path, a query, user info, `null` (an opaque origin: a sandboxed frame, a
 * `file:` page), `*`. Pure.
 */
export function normaliseOrigin(text: string): string | undefined {
  if (!ORIGIN_FORM.test(text)) return undefined;
  try {
    return new URL(text).origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether a request whose `Origin` header is `origin` may go on: no header
 * (not a browser), a page on this machine, or one of `allowed` (normalised
 * origins). Pure.
 */
export function originAllowed(origin: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (origin === undefined) return true;
  const normal = normaliseOrigin(origin);
  if (normal === undefined) return false;
  return LOOPBACK_HOSTS.has(new URL(normal).hostname) || allowed.has(normal);
}

/** The most origins logged by name; past them a page that keeps trying cannot grow the set or flood the log. */
const LOGGED_ORIGINS = 100;

/**
 * Middleware refusing a request from a web page this server does not take
 * requests from: 403 and a plain sentence, as a JSON-RPC error without an id
 * (the shape the specification allows, and the Host check's). Each refused
 * origin is logged once, so the person can see why a page cannot connect.
 */
export function originValidation(
  allowedOrigins: readonly string[],
  log: (line: string) => void,
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const allowed = new Set(allowedOrigins);
  const logged = new Set<string>();
  return (req, res, next) => {
    const header = req.headers.origin;
    if (originAllowed(header, allowed)) {
      next();
      return;
    }
    const origin = String(header).slice(0, 200);
    const normal = normaliseOrigin(origin);
    const remedy = normal === undefined ? 'such an origin names no site, so it cannot be allowed' : `to allow it, start the server with --allow-origin ${normal}`;
    if (!logged.has(origin) && logged.size < LOGGED_ORIGINS) {
      logged.add(origin);
      log(`Refused a request from the web page at ${JSON.stringify(origin)} (its Origin header); ${remedy}.`);
    }
    res.writeHead(403, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({
        jsonrpc: '2.0',
        error: { code: -32000, message: `Forbidden: this server takes requests from programs and from web pages on this machine, not from the page at ${JSON.stringify(origin)}; ${remedy}.` },
        id: null,
      }),
    );
  };
}
