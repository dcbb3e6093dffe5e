import { execFile, spawn } from 'node:child_process';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, tokensPath } from '../../../src/access/tokens.js';
import { removeDir, writeVault } from '../../support/helpers.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = path.join(ROOT, 'dist', 'app', 'dexi-vault.js');
const run = promisify(execFile);
// The vault is always given explicitly, so a $DEXI_VAULT of the person running the tests cannot leak in.
const { DEXI_VAULT: _ignored, ...withoutVault } = process.env;

async function newestSource(dir: string): Promise<number> {
  let newest = 0;
  for (const item of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (item.isFile() && item.name.endsWith('.ts')) newest = Math.max(newest, (await stat(path.join(item.parentPath, item.name))).mtimeMs);
  }
  return newest;
}

/** `npm test` builds first; when run on its own, build here if dist is older than the sources. */
async function ensureBuilt(): Promise<void> {
  const built = await stat(CLI).then((info) => info.mtimeMs, () => 0);
  if (built >= (await newestSource(path.join(ROOT, 'src')))) return;
  await run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT });
}

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env: { ...withoutVault, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

function expectPlain(stderr: string): void {
  expect(stderr).not.toMatch(/\n\s+at |Error:/);
}

let dir: string;

beforeAll(async () => {
  await ensureBuilt();
  dir = await writeVault({
    'Work/Plan.md': '# Plan\nThe plan. #work\n',
    'Home/List.md': '# List\nGroceries.\n',
  });
}, 180_000);

afterAll(async () => {
  await removeDir(dir);
});

describe('dexi-vault token', () => {
  let secret = '';

  it('lists nothing, plainly, before any token exists', async () => {
    const result = await cli(['token', 'list', '--vault', dir]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('No tokens');
  });

  it('creates a token and prints it once, as the last line of stdout, with the explanation on stderr', async () => {
    const result = await cli(['token', 'create', '--name', 'laptop', '--scopes', 'notes:read', '--folder', 'Work', '--vault', dir]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    secret = lines.at(-1) ?? '';
    expect(lines).toHaveLength(1);
    expect(secret).toMatch(/^dexi_[A-Za-z0-9_-]{43}$/);
    expect(result.stderr).toContain('shown only this once');
    expect(result.stderr).not.toContain(secret);
    const file = await readFile(tokensPath(dir), 'utf8');
    expect(file).not.toContain(secret);
    expect(file).toContain(hashToken(secret));
    expect((await stat(tokensPath(dir))).mode & 0o777).toBe(0o600);
  });

  it('refuses a second token of the same name with a plain sentence', async () => {
    const result = await cli(['token', 'create', '--name', 'LAPTOP', '--vault', dir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('A token named "laptop" already exists');
    expectPlain(result.stderr);
  });

  it('lists names, scopes, boundaries and creation times, never the secrets, taking the vault from $DEXI_VAULT', async () => {
    await cli(['token', 'create', '--name', 'desktop', '--tag', 'ml', '--vault', dir]);
    const result = await cli(['token', 'list'], { DEXI_VAULT: dir });
    expect(result.code).toBe(0);
    const [header, ...rows] = result.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^NAME\s+SCOPES\s+BOUNDARY\s+CREATED$/);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^laptop\s+notes:read\s+folder Work\s+\d{4}-\d\d-\d\dT/);
    expect(rows[1]).toMatch(/^desktop\s+notes:read,notes:write\s+tag #ml\s+\d{4}-/);
    expect(result.stdout).not.toContain(secret);
    expect(result.stdout).not.toContain(hashToken(secret));
  });

  it('revokes by name, and says plainly when there is no such token', async () => {
    const revoked = await cli(['token', 'revoke', 'desktop', '--vault', dir]);
    expect(revoked.code).toBe(0);
    expect(revoked.stderr).toContain('Revoked the token "desktop"');
    const again = await cli(['token', 'revoke', 'desktop', '--vault', dir]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('There is no token named "desktop"');
    expectPlain(again.stderr);
    const listed = await cli(['token', 'list', '--vault', dir]);
    expect(listed.stdout).toContain('laptop');
    expect(listed.stdout).not.toContain('desktop');
  });

  it.each([
    [['token'], 'The token command needs an action: create, list or revoke.'],
    [['token', 'rotate'], 'Unknown token action "rotate"; use create, list or revoke.'],
    [['token', 'create'], 'token create needs --name NAME, e.g. --name laptop.'],
    [['token', 'create', '--name', 'two words'], 'A token name is 1 to 64 letters'],
    [['token', 'create', '--name', 'x', '--scopes', 'notes:admin'], 'Unknown scope "notes:admin"'],
    [['token', 'revoke'], 'token revoke needs the name of the token'],
    [['serve', '--http', '8080', '--folder', 'Work'], '--folder cannot be used with --http: over HTTP each token carries its own scopes and boundary'],
    [['serve', '--http', '8080', '--scopes', 'notes:read', '--tag', 'x'], '--scopes and --tag cannot be used with --http'],
    [['serve', '--http', 'eighty'], '--http takes a port number from 1 to 65535'],
    [['serve', '--host', '0.0.0.0'], '--host only applies with --http PORT.'],
    [['serve', '--allow-origin', 'https://app.example.com'], '--allow-origin only applies with --http PORT.'],
    [['serve', '--http', '8080', '--allow-origin', 'app.example.com'], '--allow-origin takes a web page\'s origin'],
  ])('%j is a usage error: one plain line and a hint, exit 2', async (args, message) => {
    const result = await cli([...args, '--vault', dir]);
    expect(result.code).toBe(2);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(message);
    expect(lines[1]).toBe('Run "dexi-vault --help" for the options.');
  });

  it('shows serve --http and the token commands in --help', async () => {
    const result = await cli(['--help']);
    expect(result.stdout).toContain('--http PORT [--host H]');
    expect(result.stdout).toContain('--allow-origin ORIGIN');
    expect(result.stdout).toContain('dexi-vault token create --name NAME');
    expect(result.stdout).toContain('dexi-vault token list');
    expect(result.stdout).toContain('dexi-vault token revoke NAME');
  });

  it('serves over HTTP with the token, refuses without it or from a page --allow-origin did not name, and stops cleanly on SIGINT', async () => {
    // No search by meaning here: without the model, the server does not load it and embed the vault meanwhile.
    const child = spawn(process.execPath, [CLI, 'serve', '--vault', dir, '--model', 'none', '--http', '0', '--allow-origin', 'https://App.example.com/'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL in: ${stderr}`)), 15_000);
      child.stderr.on('data', (chunk: string) => {
        stderr += chunk;
        const match = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', () => reject(new Error(`exited early: ${stderr}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cli-test', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const refused = await fetch(url, { method: 'POST', headers, body: initialize });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    const accepted = await fetch(url, { method: 'POST', headers: { ...headers, authorization: `Bearer ${secret}` }, body: initialize });
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('mcp-session-id')).toBeTruthy();
    expect(await accepted.text()).toContain('limited to the folder Work');
    const foreign = await fetch(url, { method: 'POST', headers: { ...headers, authorization: `Bearer ${secret}`, origin: 'https://evil.example' }, body: initialize });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toContain('start the server with --allow-origin https://evil.example');
    const named = await fetch(url, { method: 'POST', headers: { ...headers, authorization: `Bearer ${secret}`, origin: 'https://app.example.com' }, body: initialize });
    expect(named.status).toBe(200);
    await named.text();
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stderr).toContain('Stopping');
    expectPlain(stderr);
  });
});
