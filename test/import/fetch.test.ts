import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressGuard, isPrivateAddress, type Resolver } from '../../src/import/address-guard.js';
import { fetchLimited, FetchError, type FetchOptions } from '../../src/import/fetch.js';

const KiB = 1024;
const MAX = 64 * KiB;
const ETAG = '"v1"';
const LAST_MODIFIED = 'Wed, 01 Jan 2025 00:00:00 GMT';

/** A resolver that never leaves the machine: names map to fixed addresses, anything else does not exist. */
function fakeResolver(names: Record<string, string[]>, asked: string[] = []): Resolver {
  return (hostname, _options, callback) => {
    asked.push(hostname);
    const addresses = names[hostname];
    queueMicrotask(() => {
      if (!addresses) callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
      else callback(null, addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
    });
  };
}

let server: http.Server;
let base: string;
let port: number;
let closedPort: number;
/** 16 MiB of zeros in about 16 KiB of gzip. */
let bomb: Buffer;

beforeAll(async () => {
  bomb = zlib.gzipSync(Buffer.alloc(16 * 1024 * KiB));
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    switch (path) {
      case '/text':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', etag: ETAG, 'last-modified': LAST_MODIFIED });
        return res.end('hello');
      case '/gzip':
        res.writeHead(200, { 'content-encoding': 'gzip' });
        return res.end(zlib.gzipSync('hello gzip'));
      case '/deflate':
        res.writeHead(200, { 'content-encoding': 'deflate' });
        return res.end(zlib.deflateSync('hello deflate'));
      case '/br':
        res.writeHead(200, { 'content-encoding': 'br' });
        return res.end(zlib.brotliCompressSync('hello brotli'));
      case '/damaged-gzip':
        res.writeHead(200, { 'content-encoding': 'gzip' });
        return res.end('this is not gzip');
      case '/compress':
        res.writeHead(200, { 'content-encoding': 'compress' });
        return res.end('x');
      case '/cached': {
        const etagMatches = req.headers['if-none-match'] === ETAG;
        const since = req.headers['if-modified-since'];
        const notModifiedSince = since !== undefined && Date.parse(since) >= Date.parse(LAST_MODIFIED);
        res.writeHead(etagMatches || notModifiedSince ? 304 : 200, { etag: ETAG, 'last-modified': LAST_MODIFIED });
        return res.end(etagMatches || notModifiedSince ? undefined : 'fresh');
      }
      case '/headers':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(req.headers));
      case '/missing':
        res.writeHead(404);
        return res.end('no such page');
      case '/chain/1':
        res.writeHead(302, { location: '/chain/2' });
        return res.end();
      case '/chain/2':
        res.writeHead(301, { location: `${base}/text` });
        return res.end();
      case '/loop':
        res.writeHead(307, { location: '/loop' });
        return res.end();
      case '/no-location':
        res.writeHead(302);
        return res.end();
      case '/to-file':
        res.writeHead(302, { location: 'file:///etc/passwd' });
        return res.end();
      case '/to-name':
        res.writeHead(303, { location: `http://feed.test:${port}/headers` });
        return res.end();
      case '/to-unknown-name':
        res.writeHead(302, { location: `http://x.invalid:${port}/text` });
        return res.end();
      case '/big-announced':
        // Announces more than the limit and then sends nothing: only an early refusal beats the timeout.
        res.writeHead(200, { 'content-length': String(MAX * 4) });
        return res.write('x');
      case '/big-chunked':
        // Twice the limit without a length, then the response is held open: only a check while streaming ends it.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.write(Buffer.alloc(MAX * 2, 'x'));
      case '/bomb':
        res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
        return res.end(bomb);
      case '/hang':
        return; // never answers
      case '/stall-body':
        res.writeHead(200, { 'content-length': '100' });
        return res.write('only part of it');
      default:
        res.writeHead(500);
        return res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;

  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedPort = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
});

afterAll(async () => {
  // The held responses would keep close() waiting.
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const limits: FetchOptions = { maxBytes: MAX, timeoutMs: 2_000 };

async function failure(url: string, options: Partial<FetchOptions> = {}): Promise<FetchError> {
  const outcome = await fetchLimited(url, { ...limits, ...options }).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(FetchError);
  return outcome as FetchError;
}

describe('fetchLimited: what comes back', () => {
  const cases: [string, string, string][] = [
    ['plain text', '/text', 'hello'],
    ['gzip, decoded', '/gzip', 'hello gzip'],
    ['deflate, decoded', '/deflate', 'hello deflate'],
    ['brotli, decoded', '/br', 'hello brotli'],
    ['a redirect chain of two, followed', '/chain/1', 'hello'],
  ];
  it.each(cases)('%s', async (_what, path, body) => {
    const result = await fetchLimited(`${base}${path}`, limits);
    expect(result.status).toBe(200);
    expect(result.body.toString('utf8')).toBe(body);
  });

  it('reports the final address after redirects, and the headers by lower-case name', async () => {
    const result = await fetchLimited(`${base}/chain/1`, limits);
    expect(result.url).toBe(`${base}/text`);
    expect(result.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(result.headers.etag).toBe(ETAG);
    expect(result.headers['last-modified']).toBe(LAST_MODIFIED);
  });

  const conditional: [string, Record<string, string>, number, string][] = [
    ['If-None-Match with the current ETag', { 'If-None-Match': ETAG }, 304, ''],
    ['If-None-Match with an old ETag', { 'If-None-Match': '"v0"' }, 200, 'fresh'],
    ['If-Modified-Since equal to Last-Modified', { 'If-Modified-Since': LAST_MODIFIED }, 304, ''],
    ['If-Modified-Since after Last-Modified', { 'If-Modified-Since': 'Thu, 01 May 2025 00:00:00 GMT' }, 304, ''],
    ['If-Modified-Since before Last-Modified', { 'If-Modified-Since': 'Sun, 01 Dec 2024 00:00:00 GMT' }, 200, 'fresh'],
    ['no condition', {}, 200, 'fresh'],
  ];
  it.each(conditional)('a conditional request: %s', async (_what, headers, status, body) => {
    const result = await fetchLimited(`${base}/cached`, { ...limits, headers });
    expect(result.status).toBe(status);
    expect(result.body.toString('utf8')).toBe(body);
    expect(result.headers.etag).toBe(ETAG);
  });

  it('sends its own User-Agent and Accept-Encoding, and the given Accept and headers', async () => {
    const result = await fetchLimited(`${base}/headers`, {
      ...limits,
      accept: 'application/rss+xml, application/atom+xml;q=0.9',
      headers: { 'If-None-Match': ETAG, 'User-Agent': 'pretend', 'Accept-Encoding': 'zstd' },
    });
    const sent = JSON.parse(result.body.toString('utf8')) as Record<string, string>;
    expect(sent['user-agent']).toBe('dexi-vault (notes importer)');
    expect(sent['accept-encoding']).toBe('gzip, deflate, br');
    expect(sent.accept).toBe('application/rss+xml, application/atom+xml;q=0.9');
    expect(sent['if-none-match']).toBe(ETAG);
  });

  it('follows a redirect to another name through the resolver, and keeps credentials from the other site', async () => {
    const asked: string[] = [];
    const result = await fetchLimited(`${base}/to-name`, {
      ...limits,
      headers: { Authorization: 'Bearer secret', 'If-None-Match': ETAG },
      lookup: fakeResolver({ 'feed.test': ['127.0.0.1'] }, asked),
    });
    expect(result.url).toBe(`http://feed.test:${port}/headers`);
    expect(asked).toEqual(['feed.test']);
    const sent = JSON.parse(result.body.toString('utf8')) as Record<string, string>;
    expect(sent.authorization).toBeUndefined();
    expect(sent['if-none-match']).toBe(ETAG);
  });

  it('loads a name the person gave that resolves to their own network', async () => {
    const result = await fetchLimited(`http://intranet.test:${port}/text`, { ...limits, lookup: fakeResolver({ 'intranet.test': ['127.0.0.1'] }) });
    expect(result.body.toString('utf8')).toBe('hello');
  });
});

describe('fetchLimited: what is refused, in one sentence', () => {
  const refusals: [string, () => string, Partial<FetchOptions>, (url: string) => string][] = [
    ['a 404', () => `${base}/missing`, {}, (url) => `Could not load ${url}: the server answered 404 Not Found.`],
    ['a redirect loop', () => `${base}/loop`, {}, (url) => `Could not load ${url}: it redirected more than 5 times.`],
    ['a loop past a lower limit', () => `${base}/loop`, { maxRedirects: 2 }, (url) => `Could not load ${url}: it redirected more than 2 times.`],
    ['a redirect with redirects off', () => `${base}/chain/1`, { maxRedirects: 0 }, (url) => `Could not load ${url}: it redirected, and redirects are not followed here.`],
    ['a redirect to nowhere', () => `${base}/no-location`, {}, (url) => `Could not load ${url}: the server answered 302 Found without saying where to.`],
    [
      'a redirect to file:',
      () => `${base}/to-file`,
      {},
      (url) => `Could not load ${url}: it redirected to a file: address, and only http and https addresses can be loaded.`,
    ],
    ['a body announced too large', () => `${base}/big-announced`, {}, (url) => `Could not load ${url}: it is larger than 64 KiB.`],
    ['a chunked body too large', () => `${base}/big-chunked`, {}, (url) => `Could not load ${url}: it is larger than 64 KiB.`],
    ['a gzip bomb', () => `${base}/bomb`, {}, (url) => `Could not load ${url}: it is larger than 64 KiB.`],
    ['a bomb under a MiB limit', () => `${base}/bomb`, { maxBytes: 5 * 1024 * KiB }, (url) => `Could not load ${url}: it is larger than 5 MiB.`],
    ['a server that never answers', () => `${base}/hang`, { timeoutMs: 300 }, (url) => `Could not load ${url}: it did not answer within 0.3 seconds.`],
    ['a body that stalls', () => `${base}/stall-body`, { timeoutMs: 300 }, (url) => `Could not load ${url}: it did not answer within 0.3 seconds.`],
    ['a closed port', () => `http://127.0.0.1:${closedPort}/feed`, {}, (url) => `Could not load ${url}: the connection was refused.`],
    ['a damaged gzip body', () => `${base}/damaged-gzip`, {}, (url) => `Could not load ${url}: its compressed body is damaged (Z_DATA_ERROR).`],
    ['an unknown encoding', () => `${base}/compress`, {}, (url) => `Could not load ${url}: it sent its body in an encoding that cannot be read here (compress).`],
    [
      'a name that does not resolve',
      () => `http://x.invalid:${port}/feed`,
      { lookup: fakeResolver({}) },
      (url) => `Could not load ${url}: the name x.invalid does not resolve.`,
    ],
    [
      'a redirect to a name that does not resolve',
      () => `${base}/to-unknown-name`,
      { lookup: fakeResolver({}) },
      (url) => `Could not load ${url}: the name x.invalid does not resolve.`,
    ],
  ];
  it.each(refusals)('%s', async (_what, address, options, sentence) => {
    const url = address();
    const err = await failure(url, options);
    expect(err.message).toBe(sentence(url));
    expect(err.url).toBe(url);
  });

  it('gives the status of a refused answer', async () => {
    expect((await failure(`${base}/missing`)).status).toBe(404);
  });

  it('stops when the caller cancels', async () => {
    const controller = new AbortController();
    const pending = failure(`${base}/hang`, { signal: controller.signal, timeoutMs: 5_000 });
    controller.abort();
    expect((await pending).message).toBe(`Could not load ${base}/hang: it was cancelled.`);
  });

  it.each([
    ['file:///etc/passwd'],
    ['data:text/plain,hello'],
    ['ftp://example.com/feed.xml'],
    ['javascript:alert(1)'],
  ])('refuses %s before any request', async (url) => {
    expect((await failure(url, { lookup: fakeResolver({}) })).message).toBe(`Could not load ${url}: only http and https addresses can be loaded.`);
  });

  it('refuses an address that is not one', async () => {
    expect((await failure('not a url')).message).toBe('Could not load not a url: it is not a valid web address.');
  });

  it('keeps a password out of the sentence', async () => {
    const err = await failure(`http://me:secret@127.0.0.1:${port}/missing`);
    expect(err.message).toBe(`Could not load ${base}/missing: the server answered 404 Not Found.`);
    expect(err.message).not.toContain('secret');
  });
});

describe('addressGuard: the address connected to is the address checked', () => {
  const dns = fakeResolver({
    'public.example': ['93.184.216.34'],
    'public6.example': ['2606:2800:220:1:248:1893:25c8:1946'],
    'intranet.example': ['10.0.0.5'],
    'mapped.example': ['::ffff:10.0.0.5'],
    'mixed.example': ['93.184.216.34', '10.0.0.5'],
    'loopback.example': ['127.0.0.1', '::1'],
  });

  type Outcome = { address: string | LookupAddress[]; family?: number } | { code: string | undefined };
  function ask(privateAllowed: boolean, hostname: string, all: boolean): Promise<Outcome> {
    const lookup = addressGuard(privateAllowed, dns);
    return new Promise((resolve) =>
      lookup(hostname, all ? { all: true } : {}, (err, address, family) =>
        resolve(err ? { code: err.code } : family === undefined ? { address } : { address, family }),
      ),
    );
  }

  const cases: [string, boolean, string, Outcome, Outcome][] = [
    ['a public name, after a public start', false, 'public.example', { address: '93.184.216.34', family: 4 }, { address: [{ address: '93.184.216.34', family: 4 }] }],
    [
      'a public IPv6 name',
      false,
      'public6.example',
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
      { address: [{ address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 }] },
    ],
    ['a private name, after a public start', false, 'intranet.example', { code: 'EPRIVATEADDRESS' }, { code: 'EPRIVATEADDRESS' }],
    ['an IPv4-mapped private name', false, 'mapped.example', { code: 'EPRIVATEADDRESS' }, { code: 'EPRIVATEADDRESS' }],
    ['a name with one private address among public ones', false, 'mixed.example', { code: 'EPRIVATEADDRESS' }, { code: 'EPRIVATEADDRESS' }],
    ['a loopback name, after a public start', false, 'loopback.example', { code: 'EPRIVATEADDRESS' }, { code: 'EPRIVATEADDRESS' }],
    ['a private name the person asked for', true, 'intranet.example', { address: '10.0.0.5', family: 4 }, { address: [{ address: '10.0.0.5', family: 4 }] }],
    [
      'a loopback name the person asked for',
      true,
      'loopback.example',
      { address: '127.0.0.1', family: 4 },
      { address: [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }] },
    ],
    ['an unknown name', false, 'nothing.example', { code: 'ENOTFOUND' }, { code: 'ENOTFOUND' }],
  ];
  it.each(cases)('%s', async (_what, privateAllowed, hostname, single, all) => {
    expect(await ask(privateAllowed, hostname, false)).toEqual(single);
    expect(await ask(privateAllowed, hostname, true)).toEqual(all);
  });

  it('refuses a public start redirected to a name that resolves privately', async () => {
    // As fetchLimited does: the first hop records whether the person's own address was private.
    let firstWasPrivate: boolean | undefined;
    const first = addressGuard(true, dns, (addresses) => (firstWasPrivate = addresses.every((entry) => isPrivateAddress(entry.address))));
    const firstAnswer = await new Promise<string | LookupAddress[]>((resolve) => first('public.example', { all: true }, (_err, address) => resolve(address)));
    expect(firstAnswer).toEqual([{ address: '93.184.216.34', family: 4 }]);
    expect(firstWasPrivate).toBe(false);

    const next = addressGuard(firstWasPrivate ?? false, dns);
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => next('intranet.example', { all: true }, (e) => resolve(e)));
    expect(err?.code).toBe('EPRIVATEADDRESS');
    expect((err as { address?: string } | null)?.address).toBe('10.0.0.5');
  });
});

describe('isPrivateAddress', () => {
  const cases: [string, boolean][] = [
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['10.0.0.1', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['100.127.255.255', true],
    ['100.128.0.1', false],
    ['0.0.0.0', true],
    ['8.8.8.8', false],
    ['93.184.216.34', false],
    ['::1', true],
    ['::', true],
    ['fc00::1', true],
    ['fd12:3456:789a::1', true],
    ['fe80::1', true],
    ['fe80::1%eth0', true],
    ['[::1]', true],
    ['2606:2800:220:1:248:1893:25c8:1946', false],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['0:0:0:0:0:FFFF:10.0.0.5', true],
    ['::ffff:192.168.0.1', true],
    ['::ffff:8.8.8.8', false],
    ['64:ff9b::10.0.0.1', true],
    ['64:ff9b::8.8.8.8', false],
    ['localhost', false],
    ['not an address', false],
  ];
  it.each(cases)('%s → %s', (ip, expected) => {
    expect(isPrivateAddress(ip)).toBe(expected);
  });
});
