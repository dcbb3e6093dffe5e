import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { copySampleVault, removeDir, tempDir } from '../support/helpers.js';
import { CLI, INSPECTOR, run, STACK_FRAME, TOOL_NAMES, type Run } from '../support/process.js';
import { NO_MODEL } from '../support/rpc.js';

/**
 * A third-party client: the MCP Inspector's CLI mode (`mcp-inspector --cli`,
 * the launcher's `--cli` flag must come first), which spawns
 * `node dist/app/dexi-vault.js serve --vault DIR` over stdio, runs one method and
 * exits: 0 on success, 5 when the tool returned isError. With `--format json`
 * it prints `{"result": ...}` on stdout and an error envelope on stderr.
 *
 * The inspector declares Node >= 22.19 but its CLI mode runs on Node 20; it is
 * started with this process's Node. It needs no network for a stdio target.
 *
 * It shows no notification (v2.12): its CLI makes its client with
 * `progress: false`, prints only the one answer of its one method, and
 * refuses `--method logging/tail` ("Unsupported method"). So the progress a
 * call asks for with `--tool-metadata progressToken=…` is read here off the
 * wire, and test/e2e/notifications.test.ts hears progress and log messages
 * with the SDK's client.
 */

const TIMEOUT = 90_000;

let home: string;
let dir: string;

beforeAll(async () => {
  // A throwaway HOME: the inspector keeps a catalog, OAuth state and secrets
  // under ~/.mcp-inspector; none of that may touch the real one.
  home = await tempDir('dexi-inspector-home-');
  await mkdir(path.join(home, 'storage'), { recursive: true });
});
afterAll(async () => {
  await removeDir(home);
});
beforeEach(async () => {
  dir = await copySampleVault();
});
afterEach(async () => {
  await removeDir(dir);
});

function inspectorEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    USERPROFILE: home,
    MCP_STORAGE_DIR: path.join(home, 'storage'),
    MCP_CATALOG_PATH: path.join(home, 'mcp.json'),
    MCP_CLIENT_CONFIG_PATH: path.join(home, 'client.json'),
    // Never open a browser (it would only do so for OAuth, which stdio never needs).
    MCP_AUTO_OPEN_ENABLED: 'false',
    // Keep any secret in memory rather than a keychain or file.
    MCP_INSPECTOR_SECRET_STORE: 'memory',
    NO_COLOR: '1',
  };
  delete env.DEXI_VAULT;
  delete env.MCP_DEBUG;
  delete env.DEBUG;
  return env;
}

/**
 * Run `mcp-inspector --cli --format json <args> -- node dist/app/dexi-vault.js serve --vault DIR`;
 * with `server` in front of the CLI's path when given (a program run with this Node). With
 * `--model none` but where the call lists the tools: no other call here searches by meaning, and
 * every run starts a server, which with the model loaded it and began embedding the sample vault
 * beside the inspector (measured: the file's 11 servers took 14.2 s of CPU, now 8.3 s).
 */
function inspect(args: readonly string[], server: readonly string[] = []): Promise<Run> {
  const model = args.includes('tools/list') ? [] : NO_MODEL;
  return run(
    process.execPath,
    [INSPECTOR, '--cli', '--format', 'json', '--connect-timeout', '60000', ...args, '--', process.execPath, ...server, CLI, 'serve', '--vault', dir, ...model],
    { cwd: home, env: inspectorEnv(), timeoutMs: TIMEOUT - 5_000 },
  );
}

/**
 * A program between the inspector and the server that copies what the server
 * writes on stdout (the protocol's messages, one JSON line each) to a file:
 * `node tap.mjs FILE node-arguments…`.
 */
const TAP = `import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
const [file, ...args] = process.argv.slice(2);
const copy = createWriteStream(file);
const child = spawn(process.execPath, args, { stdio: ['inherit', 'pipe', 'inherit'] });
child.stdout.on('data', (chunk) => { copy.write(chunk); process.stdout.write(chunk); });
child.on('exit', (code) => copy.end(() => process.exit(code ?? 1)));
`;

/** The messages the server sent, as the tap copied them. */
async function wireOf(file: string): Promise<{ method?: string; params?: Record<string, unknown> }[]> {
  const text = await readFile(file, 'utf8');
  return text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as { method?: string; params?: Record<string, unknown> });
}

interface ToolResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

function resultOf<T>(output: Run): T {
  const parsed = JSON.parse(output.stdout) as { result?: T };
  if (parsed.result === undefined) throw new Error(`no result in ${output.stdout}\n${output.stderr}`);
  return parsed.result;
}

function describeRun(output: Run): string {
  return `exit ${output.code} after ${output.ms} ms\nstdout: ${output.stdout.slice(0, 2000)}\nstderr: ${output.stderr.slice(0, 2000)}`;
}

describe('mcp-inspector --cli against the built server', () => {
  it(
    'tools/list lists every tool, with output schemas',
    async () => {
      const output = await inspect(['--method', 'tools/list']);
      expect(output.code, describeRun(output)).toBe(0);
      const { tools } = resultOf<{ tools: { name: string; outputSchema?: { type?: string } }[] }>(output);
      const names = tools.map((tool) => tool.name);
      expect([...names].sort()).toEqual([...TOOL_NAMES].sort());
      expect(new Set(names).size).toBe(names.length);
      for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe('object');
      // The server's log reaches the inspector's stderr, never its JSON on stdout.
      expect(output.stderr).toContain('dexi-vault: Serving');
      expect(output.stderr).not.toMatch(STACK_FRAME);
    },
    TIMEOUT,
  );

  it(
    'an invalid argument is a tool error (exit 5) with the plain message',
    async () => {
      const output = await inspect(['--method', 'tools/call', '--tool-name', 'list_notes', '--tool-arg', 'size=0']);
      expect(output.code, describeRun(output)).toBe(5);
      const result = resultOf<ToolResult>(output);
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toBe('size must be between 1 and 50');
      expect(output.stdout + output.stderr).not.toMatch(/-32602|MCP error/);
    },
    TIMEOUT,
  );

  // A one-shot client calls its tool milliseconds after initialize: the
  // call waits for the first read of the vault instead of being refused.
  it(
    'tools/call list_notes size=2 returns JSON with two items',
    async () => {
      const output = await inspect(['--method', 'tools/call', '--tool-name', 'list_notes', '--tool-arg', 'size=2']);
      expect(output.code, describeRun(output)).toBe(0);
      const result = resultOf<ToolResult>(output);
      expect(result.isError).not.toBe(true);
      const page = result.structuredContent as { items: { id: string; title: string }[]; total: number; page: number };
      expect(page.items).toHaveLength(2);
      expect(page.page).toBe(1);
      expect(page.total).toBeGreaterThan(2);
      expect(JSON.parse(result.content[0]?.text ?? 'null')).toEqual(page);
    },
    TIMEOUT,
  );

  it(
    'tools/call get_note with an unknown id exits 5 with "Note not found"',
    async () => {
      const output = await inspect(['--method', 'tools/call', '--tool-name', 'get_note', '--tool-arg', 'note_id=nope']);
      expect(output.code, describeRun(output)).toBe(5);
      const result = resultOf<ToolResult>(output);
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toBe('Note not found');
      expect(output.stderr).toContain('tool_is_error');
      expect(output.stderr).not.toMatch(STACK_FRAME);
    },
    TIMEOUT,
  );
  it(
    'resources/list lists the notes, and resources/read reads one of them',
    async () => {
      const listed = await inspect(['--method', 'resources/list']);
      expect(listed.code, describeRun(listed)).toBe(0);
      const { resources } = resultOf<{ resources: { uri: string; title: string; mimeType: string }[] }>(listed);
      expect(resources.length).toBeGreaterThan(2);
      const first = resources[0];
      expect(first?.mimeType).toBe('text/markdown');
      const read = await inspect(['--method', 'resources/read', '--uri', first?.uri ?? '']);
      expect(read.code, describeRun(read)).toBe(0);
      const { contents } = resultOf<{ contents: { uri: string; text: string; _meta: { title: string } }[] }>(read);
      expect(contents[0]?.uri).toBe(first?.uri);
      expect(contents[0]?._meta.title).toBe(first?.title);
      expect(typeof contents[0]?.text).toBe('string');
    },
    TIMEOUT,
  );
  it(
    'logging/setLevel answers with an empty result',
    async () => {
      const output = await inspect(['--method', 'logging/setLevel', '--log-level', 'warning']);
      expect(output.code, describeRun(output)).toBe(0);
      expect(resultOf<Record<string, unknown>>(output)).toEqual({});
    },
    TIMEOUT,
  );
  it(
    'tools/call rename_tag with a progress token: the server sends progress with that token, and the call succeeds',
    async () => {
      const tap = path.join(home, 'tap.mjs');
      const wire = path.join(home, 'wire.jsonl');
      await writeFile(tap, TAP);
      try {
        const output = await inspect(
          ['--method', 'tools/call', '--tool-name', 'rename_tag', '--tool-arg', 'from=garden', '--tool-arg', 'to=gardening', '--tool-metadata', 'progressToken=7'],
          [tap, wire],
        );
        expect(output.code, describeRun(output)).toBe(0);
        const result = resultOf<ToolResult>(output);
        expect(result.isError).not.toBe(true);
        expect((result.structuredContent as { renamed_notes: number }).renamed_notes).toBeGreaterThan(1);
        // Progress of the wait for the vault's first read, of the rename, or both: whichever this call met.
        const progress = (await wireOf(wire)).filter((message) => message.method === 'notifications/progress');
        expect(progress.length, describeRun(output)).toBeGreaterThan(0);
        for (const message of progress) expect(message.params).toMatchObject({ progressToken: 7, progress: expect.any(Number) });
      } finally {
        await removeDir(wire);
      }
    },
    TIMEOUT,
  );
  it(
    'prompts/get weekly-digest gives the message that sets the assistant to work',
    async () => {
      const output = await inspect(['--method', 'prompts/get', '--prompt-name', 'weekly-digest']);
      expect(output.code, describeRun(output)).toBe(0);
      const { messages } = resultOf<{ messages: { role: string; content: { type: string; text: string } }[] }>(output);
      expect(messages[0]?.role).toBe('user');
      expect(messages[0]?.content.text).toContain('list_notes');
    },
    TIMEOUT,
  );
});
