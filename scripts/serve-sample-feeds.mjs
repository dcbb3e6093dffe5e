#!/usr/bin/env node
// Serves the sample vault's feeds (sample-vault/Imports) on loopback, so that
// `dexi-vault feeds add` can be tried without the internet. It answers
// conditional requests as a real feed host does: a second `feeds pull` of an
// unchanged feed gets a 304. Usage: node scripts/serve-sample-feeds.mjs [DIR] [PORT]
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.resolve(process.argv[2] ?? fileURLToPath(new URL('../sample-vault/Imports', import.meta.url)));
const port = Number(process.argv[3] ?? 8765);
// No charset: a feed says its own in its XML declaration (JSON is UTF-8), and a header's would override it.
const TYPES = { '.xml': 'application/rss+xml', '.atom': 'application/atom+xml', '.json': 'application/feed+json' };

const server = createServer(async (request, response) => {
  const name = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname).replace(/^\/+/, '');
  const type = TYPES[path.extname(name)];
  // Only feed files directly inside DIR: no other files, no paths out of it.
  if (type === undefined || name.includes('/') || name.includes('\\')) {
    response.writeHead(404).end('Not a feed of this folder.\n');
    return;
  }
  try {
    const file = path.join(dir, name);
    const [bytes, info] = await Promise.all([readFile(file), stat(file)]);
    const etag = `"${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}"`;
    const lastModified = new Date(Math.floor(info.mtimeMs / 1000) * 1000).toUTCString();
    const since = Date.parse(request.headers['if-modified-since'] ?? '');
    const unchanged = request.headers['if-none-match'] !== undefined ? request.headers['if-none-match'] === etag : since >= Date.parse(lastModified);
    console.log(`${request.method} /${name} ${unchanged ? 304 : 200}`);
    if (unchanged) {
      response.writeHead(304, { ETag: etag, 'Last-Modified': lastModified }).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': type, ETag: etag, 'Last-Modified': lastModified }).end(bytes);
  } catch {
    response.writeHead(404).end('No such feed.\n');
  }
});
server.listen(port, '127.0.0.1', () => console.log(`Serving the feeds of ${dir} at http://127.0.0.1:${server.address().port}/ (Ctrl-C stops).`));
