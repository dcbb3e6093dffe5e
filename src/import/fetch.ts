import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { DexiError } from '../vault/errors.js';
import { addressGuard, isPrivateAddress, PRIVATE_ADDRESS, systemResolver, type Resolver } from './address-guard.js';

/**
 * The one way the importers touch the network: a GET of an address the person
 * gave (their feed, a page they bookmarked), with limits on time, size and
 * redirects so that no server can hang an import, fill the disk, or bounce the
 * request into the person's own network. What comes back is bytes; nothing
 * here parses or runs it.
 */

export interface FetchOptions {
  /** Largest body accepted, counted after decompression (and before it, and as announced). */
  maxBytes: number;
  /** The whole request: every redirect hop and the body. */
  timeoutMs: number;
  /** Default 5. */
  maxRedirects?: number;
  accept?: string;
  /** Extra request headers, e.g. If-None-Match, If-Modified-Since. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * Answers host names in place of the system resolver, so tests can give a
   * name an address without leaving the machine. The address rule applies to
   * whatever it answers.
   */
  lookup?: Resolver;
}

export interface FetchResult {
  /** 200..299, or 304 for a conditional request whose copy is current. */
  status: number;
  /** The address finally loaded, after redirects. */
  url: string;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string | undefined>;
  /** Decoded from gzip/deflate/br; empty for 304. */
  body: Buffer;
}

/** Why an address could not be loaded, as one sentence that can be shown to the person as it is. */
export class FetchError extends DexiError {
  override name = 'FetchError';
  /** The address that was asked for (without any password in it). */
  readonly url: string;
  /** The HTTP status, when the server answered with one that is refused. */
  readonly status: number | undefined;

  constructor(url: string, reason: string, options?: { status?: number; cause?: unknown }) {
    const shown = displayAddress(url);
    super(`Could not load ${shown}: ${reason}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.url = shown;
    this.status = options?.status;
  }
}

// Without a version, so the string says who is asking without telling a server which release to aim at.
const USER_AGENT = 'dexi-vault (notes importer)';
const WEB_SCHEMES = new Set(['http:', 'https:']);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers this module owns: a caller's value for them would break decoding, the limits or the connection. */
const OWN_HEADERS = ['host', 'user-agent', 'accept-encoding', 'connection', 'content-length', 'transfer-encoding', 'te', 'upgrade'];
/** Headers that speak for the person: not handed to another site a redirect points at. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
// Each layer is a decompressor; a server listing dozens would cost as many for no honest reason.
const MAX_ENCODINGS = 3;

/**
 * GETs `url` within the limits of `options`, following redirects. Resolves
 * with a 2xx answer or a 304; everything else rejects with a FetchError.
 *
 * The address rule: the first address is the person's choice and may be on
 * their own network (an intranet feed). If it is public, no redirect may lead
 * to a private or local address, however the name of a later hop resolves.
 */
export async function fetchLimited(url: string, options: FetchOptions): Promise<FetchResult> {
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    throw new FetchError(url, 'it is not a valid web address.');
  }
  if (!WEB_SCHEMES.has(current.protocol)) throw new FetchError(url, 'only http and https addresses can be loaded.');

  const timeoutMs = Math.min(Math.max(Math.ceil(options.timeoutMs), 1), 2 ** 31 - 1);
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const resolve = options.lookup ?? systemResolver;
  const maxRedirects = options.maxRedirects ?? 5;
  let headers = requestHeaders(options);
  // privateAllowed: undefined until the first hop has connected and shown whether the person's own address is private.
  const rule: AddressRule = {};

  for (let redirects = 0; ; redirects++) {
    const host = current.hostname.replace(/^\[(.*)\]$/, '$1');
    try {
      signal.throwIfAborted();
      const response = await send(current, headers, hopLookup(url, host, rule, resolve), signal);
      rule.privateAllowed ??= false;
      const status = response.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        response.destroy();
        const next = redirectTarget(url, current, response.headers.location, status, redirects, maxRedirects);
        if (next.origin !== current.origin) headers = withoutCredentials(headers);
        current = next;
        continue;
      }
      return await finalAnswer(url, current, response, options.maxBytes, signal);
    } catch (err) {
      if (err instanceof FetchError) throw err;
      if (timeout.aborted) throw new FetchError(url, `it did not answer within ${seconds(timeoutMs)}.`, { cause: err });
      if (signal.aborted) throw new FetchError(url, 'it was cancelled.', { cause: err });
      throw new FetchError(url, describeFailure(err, host), { cause: err });
    }
  }
}

/** Whether the hops of one fetch may reach private addresses: settled by the first hop (see fetchLimited). */
interface AddressRule {
  privateAllowed?: boolean;
}

/** The lookup of one hop to `host`, under the address rule; a later hop to a private address literal is refused here, as Node does not look a literal up. */
function hopLookup(url: string, host: string, rule: AddressRule, resolve: Resolver): net.LookupFunction {
  if (rule.privateAllowed === undefined) {
    // Node does not call `lookup` for an IP literal, so a literal is classified here.
    if (net.isIP(host)) rule.privateAllowed = isPrivateAddress(host);
    return addressGuard(true, resolve, (addresses) => {
      // Only a name wholly inside the person's network counts as their network.
      rule.privateAllowed = addresses.every((entry) => isPrivateAddress(entry.address));
    });
  }
  if (!rule.privateAllowed && net.isIP(host) && isPrivateAddress(host)) {
    throw new FetchError(url, `it redirected to a private or local network address (${host}), which is not followed.`);
  }
  return addressGuard(rule.privateAllowed, resolve);
}

/** Where a redirect from `current` leads, if it may be followed: within the number of redirects, to a valid web address. */
function redirectTarget(url: string, current: URL, location: string | undefined, status: number, redirects: number, maxRedirects: number): URL {
  if (!location) throw new FetchError(url, `the server answered ${statusText(status)} without saying where to.`);
  if (redirects >= maxRedirects) {
    throw new FetchError(
      url,
      maxRedirects === 0 ? 'it redirected, and redirects are not followed here.' : `it redirected more than ${plural(maxRedirects, 'time')}.`,
    );
  }
  let next: URL;
  try {
    next = new URL(location, current);
  } catch {
    throw new FetchError(url, 'it redirected to an address that is not valid.');
  }
  if (!WEB_SCHEMES.has(next.protocol)) {
    throw new FetchError(url, `it redirected to a ${next.protocol} address, and only http and https addresses can be loaded.`);
  }
  return next;
}

/** The answer of the last hop: a 304 without a body, a 2xx with its body read within the limit; any other status is refused. */
async function finalAnswer(url: string, current: URL, response: http.IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<FetchResult> {
  const status = response.statusCode ?? 0;
  const result = { status, url: current.href, headers: flattenHeaders(response.headers) };
  if (status === 304) {
    response.destroy();
    return { ...result, body: Buffer.alloc(0) };
  }
  if (status < 200 || status > 299) {
    response.destroy();
    throw new FetchError(url, `the server answered ${statusText(status)}.`, { status });
  }
  return { ...result, body: await readBody(url, response, maxBytes, signal) };
}

/** One GET, resolved when the status line and headers have arrived. */
function send(url: URL, headers: Record<string, string>, lookup: net.LookupFunction, signal: AbortSignal): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'GET',
      headers,
      // A fresh connection per hop, so every hop goes through its own lookup and nothing is pooled past the limits.
      agent: false,
      lookup,
      signal,
    });
    // Stays attached after the response: a socket error while the body is read (or after it is
    // abandoned) must not become an unhandled 'error' event; the body stream reports it.
    request.on('error', reject);
    request.on('response', resolve);
    request.end();
  });
}

async function readBody(url: string, response: http.IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const tooLarge = (): FetchError => new FetchError(url, `it is larger than ${byteSize(maxBytes)}.`);
  const announced = response.headers['content-length'];
  if (announced !== undefined && /^\d+$/.test(announced) && Number(announced) > maxBytes) {
    response.destroy();
    throw tooLarge();
  }

  let decoders: Transform[];
  try {
    decoders = decodersFor(url, response.headers['content-encoding']);
  } catch (err) {
    response.destroy();
    throw err;
  }
  // Counted before and after decoding: the raw count bounds what is read off the wire, the
  // decoded count is what the caller gets, and a small compressed bomb trips it within one chunk.
  let received = 0;
  const wire = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      callback(received > maxBytes ? tooLarge() : null, chunk);
    },
  });
  const chunks: Buffer[] = [];
  let decoded = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      decoded += chunk.length;
      if (decoded > maxBytes) return callback(tooLarge());
      chunks.push(chunk);
      callback();
    },
  });

  try {
    await pipeline([response, wire, ...decoders, sink], { signal });
  } catch (err) {
    response.destroy();
    if (err instanceof FetchError || signal.aborted) throw err;
    // zlib reports bad data as Z_DATA_ERROR and the like; brotli as ERR__ERROR_FORMAT_….
    const code = errorCode(err);
    if (code && /^(Z_|ERR__|ERR_BROTLI)/.test(code)) throw new FetchError(url, `its compressed body is damaged (${code}).`, { cause: err });
    throw err;
  }
  return Buffer.concat(chunks, decoded);
}

/** Decompressors for a Content-Encoding, in the order the body passes through them. */
function decodersFor(url: string, header: string | undefined): Transform[] {
  const encodings = (header ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '' && name !== 'identity');
  if (encodings.length > MAX_ENCODINGS) throw new FetchError(url, 'it sent its body wrapped in too many encodings.');
  // Lenient about a cut-off end, as browsers are: a truncated but otherwise sound body is kept.
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  return encodings.reverse().map((name) => {
    switch (name) {
      case 'gzip':
      case 'x-gzip':
        return zlib.createGunzip(flush);
      case 'deflate':
        return zlib.createInflate(flush);
      case 'br':
        return zlib.createBrotliDecompress({
          flush: zlib.constants.BROTLI_OPERATION_FLUSH,
          finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
        });
      default:
        throw new FetchError(url, `it sent its body in an encoding that cannot be read here (${name.slice(0, 40)}).`);
    }
  });
}

function requestHeaders(options: FetchOptions): Record<string, string> {
  const headers: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  for (const name of OWN_HEADERS) delete headers[name];
  if (options.accept !== undefined) headers.accept = options.accept;
  headers['user-agent'] = USER_AGENT;
  headers['accept-encoding'] = 'gzip, deflate, br';
  return headers;
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(headers)) if (!CREDENTIAL_HEADERS.includes(name)) kept[name] = value;
  return kept;
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string | undefined> {
  // No prototype, so a header named __proto__ is just a header.
  const flat: Record<string, string | undefined> = Object.create(null);
  for (const [name, value] of Object.entries(headers)) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

/** The end of the sentence for a failure below HTTP: name resolution, the connection, TLS, the HTTP parser. */
function describeFailure(err: unknown, host: string): string {
  const code = errorCode(err);
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_NONAME':
    case 'EAI_NODATA':
    case 'ENODATA':
      return `the name ${host} does not resolve.`;
    case 'EAI_AGAIN':
      return `the name ${host} could not be looked up just now (EAI_AGAIN).`;
    case PRIVATE_ADDRESS: {
      const address = (err as { address?: unknown }).address;
      return `it redirected to a private or local network address (${typeof address === 'string' ? `${host} at ${address}` : host}), which is not followed.`;
    }
    case 'ECONNREFUSED':
      return 'the connection was refused.';
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ERR_STREAM_PREMATURE_CLOSE':
      return `the connection was closed before the answer was complete (${code}).`;
    case 'ETIMEDOUT':
      return 'the connection timed out (ETIMEDOUT).';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return `its address cannot be reached from this network (${code}).`;
    case 'ERR_INVALID_CHAR':
    case 'ERR_INVALID_HTTP_TOKEN':
    case 'ERR_HTTP_INVALID_HEADER_VALUE':
      return `a request header is not valid (${code}).`;
  }
  if (code?.startsWith('HPE_')) return `the server's answer is not valid HTTP (${code}).`;
  if (code && /^(CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_TLS_CERT)/.test(code)) {
    return `its security certificate could not be verified (${code}).`;
  }
  if (code && /^(ERR_SSL_|ERR_TLS_|EPROTO$)/.test(code)) return `the secure connection could not be set up (${code}).`;
  const message = err instanceof Error ? err.message : String(err);
  return `the request failed (${code ?? message.slice(0, 120)}).`;
}

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The address as shown in a message: a password in it stays out of logs and notes. */
function displayAddress(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return parsed.href;
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return url.length > 200 ? `${url.slice(0, 200)}…` : url;
  }
}

function statusText(status: number): string {
  const text = http.STATUS_CODES[status];
  return text ? `${status} ${text}` : String(status);
}

function seconds(ms: number): string {
  const value = Number((ms / 1000).toPrecision(3));
  return value === 1 ? '1 second' : `${value} seconds`;
}

function byteSize(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return plural(bytes, 'byte');
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
