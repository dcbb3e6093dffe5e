import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { access, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir, writeVault } from '../support/helpers.js';
import { eventually, ROOT, run, TOOL_NAMES } from '../support/process.js';
import { testClient } from '../support/test-client.js';

/**
 * The MCP bundle as a desktop client installs and starts it: `node
 * scripts/bundle.mjs` builds dexi-vault.mcpb (from the built dist/, so run
 * `npm run build` first, as `npm test` does), `mcpb unpack` unpacks it, and the
 * server is spawned from the unpacked manifest's mcp_config alone, with its
 * ${__dirname} and ${user_config.*} filled in as the client fills them. A file
 * the bundle lacks, a dependency left out of its node_modules, an add-on that
 * does not load or a manifest that no longer matches the code fails here. The
 * build takes half a minute or so: hnswlib-node compiles from source.
 */

const MCPB = path.join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'mcpb.cmd' : 'mcpb');
const WRITE_TOOLS = ['create_note', 'update_note', 'edit_note', 'set_properties', 'complete_task', 'rename_tag', 'delete_note', 'move_note', 'grade_review'];

interface Manifest {
  manifest_version: string;
  name: string;
  version: string;
  server: { type: string; entry_point: string; mcp_config: { command: string; args: string[]; env?: Record<string, string> } };
  tools?: { name: string; description?: string }[];
  prompts?: { name: string; text: string }[];
  compatibility?: { platforms?: string[] };
  user_config?: Record<string, { type: string; required?: boolean; default?: unknown }>;
}

/** Every file of a vault but those under .dexi/ (the server's own folder), by relative path. */
async function vaultFiles(vault: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const entries = await readdir(vault, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const rel = path.relative(vault, path.join(entry.parentPath, entry.name));
    if (rel.split(path.sep)[0] === '.dexi') continue;
    files.set(rel, await readFile(path.join(vault, rel)));
  }
  return files;
}

describe.sequential('the MCP bundle, unpacked and started as a desktop client starts it', () => {
  let dir: string;
  let vault: string;
  let unpacked: string;
  let manifest: Manifest;
  let built: { stdout: string; bundle: string };

  beforeAll(async () => {
    dir = await tempDir('dexi-bundle-');
    const bundle = path.join(dir, 'out', 'dexi-vault.mcpb');
    // Staging and output in the temporary folder: nothing of the run is left in the repository.
    const build = await run(process.execPath, [path.join(ROOT, 'scripts', 'bundle.mjs'), bundle, path.join(dir, 'staging')], { timeoutMs: 200_000 });
    expect(build.code, build.stderr).toBe(0);
    built = { stdout: build.stdout, bundle };
    unpacked = path.join(dir, 'unpacked');
    const unpack = await run(MCPB, ['unpack', bundle, unpacked], { timeoutMs: 60_000 });
    expect(unpack.code, unpack.stderr || unpack.stdout).toBe(0);
    manifest = JSON.parse(await readFile(path.join(unpacked, 'manifest.json'), 'utf8')) as Manifest;
    vault = await writeVault(
      {
        'Hello.md': '# Hello\n\nA first note about tomatoes and the greenhouse.\n',
        'Projects/Plan.md': '---\ntags: [garden]\n---\n# Plan\n\nSow the basil in March. #garden\n',
      },
      path.join(dir, 'vault'),
    );
  }, 240_000);

  afterAll(async () => {
    if (dir) await removeDir(dir);
  });

  /** The manifest's mcp_config with the client's substitutions made. */
  function launch(readOnly: 'true' | 'false'): { command: string; args: string[]; env: Record<string, string> } {
    const fill = (value: string): string =>
      value.replaceAll('${__dirname}', unpacked).replaceAll('${user_config.vault}', vault).replaceAll('${user_config.read_only}', readOnly);
    const { command, args, env = {} } = manifest.server.mcp_config;
    const inherited: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) {
      // DEXI_VAULT would be a second, competing vault; the manifest's own variables win below.
      if (value !== undefined && key !== 'DEXI_VAULT') inherited[key] = value;
    }
    const filled = { command: fill(command), args: args.map(fill), env: { ...inherited, ...Object.fromEntries(Object.entries(env).map(([key, value]) => [key, fill(value)])) } };
    expect(JSON.stringify([filled.command, filled.args, Object.values(env).map(fill)])).not.toContain('${');
    return filled;
  }

  /** Spawn the manifest's command and connect; returns the client and the server's stderr so far. */
  async function connect(readOnly: 'true' | 'false'): Promise<{ client: Client; stderr: () => string }> {
    const { command, args, env } = launch(readOnly);
    // cwd: a desktop client starts the server from a folder of its own, not from the bundle.
    const transport = new StdioClientTransport({ command, args, env, cwd: dir, stderr: 'pipe' });
    let log = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString('utf8')).slice(-50_000);
    });
    const client = testClient('bundle-test');
    try {
      await client.connect(transport, { timeout: 60_000 });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new Error(`the bundled server did not answer initialize: ${(error as Error).message}\n${log}`);
    }
    return { client, stderr: () => log };
  }

  /** Poll search_notes until `Hello` is found (the vault is read in the background). */
  async function findTomatoes(client: Client): Promise<string[]> {
    return eventually(
      async () => {
        const result = (await client.callTool({ name: 'search_notes', arguments: { query: 'tomatoes' } })) as CallToolResult;
        if (result.isError) return undefined;
        const titles = (result.structuredContent as { items?: { title: string }[] } | undefined)?.items?.map((item) => item.title);
        return titles !== undefined && titles.length > 0 ? titles : undefined;
      },
      30_000,
      'search_notes to find the fixture note',
    );
  }

  it('builds with one line of output: the bundle and its size', async () => {
    expect(built.stdout.trim().split('\n')).toEqual([expect.stringMatching(/ \d+(\.\d)? MB$/)]);
    expect(built.stdout).toContain(built.bundle);
    await access(built.bundle);
  });

  it('has a manifest mcpb validates, naming the entry point, the settings and every tool the code serves', async () => {
    const validate = await run(MCPB, ['validate', path.join(unpacked, 'manifest.json')], { timeoutMs: 60_000 });
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
    const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(manifest.name).toBe('dexi-vault');
    expect(manifest.version).toBe(pkg.version);
    expect(manifest.server.type).toBe('node');
    await access(path.join(unpacked, manifest.server.entry_point));
    expect(manifest.server.mcp_config.args).toEqual(['${__dirname}/dist/app/dexi-vault.js', 'serve', '--vault', '${user_config.vault}']);
    expect(manifest.server.mcp_config.env).toEqual({ DEXI_READ_ONLY: '${user_config.read_only}' });
    expect(manifest.user_config?.vault).toMatchObject({ type: 'directory', required: true });
    expect(manifest.user_config?.read_only).toMatchObject({ type: 'boolean', default: false });
    expect(manifest.compatibility?.platforms).toEqual([process.platform]);
    expect(manifest.tools?.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const tool of manifest.tools ?? []) expect(tool.description, tool.name).toBeTruthy();
    for (const prompt of manifest.prompts ?? []) expect(prompt.text, prompt.name).toBeTruthy();
  });

  it('carries production dependencies only: no transformers.js, no ONNX Runtime, no lockfile', async () => {
    const modules = await readdir(path.join(unpacked, 'node_modules'));
    expect(modules).toContain('hnswlib-node');
    expect(modules).not.toContain('onnxruntime-node');
    expect(modules).not.toContain('vitest');
    await expect(access(path.join(unpacked, 'node_modules', '@huggingface', 'transformers'))).rejects.toThrow();
    await expect(access(path.join(unpacked, 'package-lock.json'))).rejects.toThrow();
    await expect(access(path.join(unpacked, 'src'))).rejects.toThrow();
  });

  it('starts from the manifest: every tool, and search finds a note; the vault is left as it was', async () => {
    const before = await vaultFiles(vault);
    expect([...before.keys()].sort()).toEqual(['Hello.md', path.join('Projects', 'Plan.md')]);
    const { client, stderr } = await connect('false');
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort(), stderr()).toEqual([...TOOL_NAMES].sort());
      expect(await findTomatoes(client)).toEqual(['Hello']);
    } finally {
      await client.close();
    }
    expect(await vaultFiles(vault)).toEqual(before);
  }, 90_000);

  it('with read_only on, lists only the read tools, still searches, and writes nothing', async () => {
    const before = await vaultFiles(vault);
    const { client, stderr } = await connect('true');
    try {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names.sort(), stderr()).toEqual(TOOL_NAMES.filter((name) => !WRITE_TOOLS.includes(name)).sort());
      expect(await findTomatoes(client)).toEqual(['Hello']);
    } finally {
      await client.close();
    }
    expect(await vaultFiles(vault)).toEqual(before);
  }, 90_000);
});
