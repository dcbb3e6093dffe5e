import { execFile } from 'node:child_process';
import { access, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDON_PACKAGE, builtAddon, packagesWithInstallScripts, placeAddon } from '../../scripts/native-addon.mjs';
import { removeDir, tempDir } from '../support/helpers.js';
import { startStdioServer } from '../support/stdio-server.js';
import { eventually, ROOT, run, TOOL_NAMES } from '../support/process.js';

/**
 * The package as a person installs it: `npm pack`, then an install of the
 * tarball into an empty prefix from the registry (the repository's own
 * `allowScripts` does not reach a user's install). A file missing from
 * `files`, a runtime import of a dev-only package or a step that works only
 * inside the repository fails here.
 *
 * The one install script of the tree, hnswlib-node's, compiles its C++ add-on
 * (16 s of CPU, 35 s at a load of 11 on two cores); the project's own `npm ci`,
 * which comes before any test run, proves that build on this machine. So the install runs
 * with --ignore-scripts and the repository's built add-on is placed where the
 * package's loader looks, when it is the same version built for this platform,
 * CPU and Node ABI (scripts/native-addon.mjs, which `npm run bundle` uses too);
 * anything else, or another package with an install script, gets `npm rebuild`,
 * the scripts the install would have run. The stdio session below loads the
 * add-on either way (semantic search).
 */

const exec = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('the packed package, installed as a user installs it', () => {
  let dir: string;
  let prefix: string;
  let installed: string;
  let tarball: string;

  beforeAll(async () => {
    dir = await tempDir('dexi-package-');
    const { stdout } = await exec(npm, ['pack', '--json', '--pack-destination', dir, '--ignore-scripts'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    const [packed] = JSON.parse(stdout) as { filename: string }[];
    if (packed === undefined) throw new Error('npm pack made no tarball');
    tarball = path.join(dir, packed.filename);
    prefix = path.join(dir, 'prefix');
    await mkdir(prefix);
    // An empty project of its own, so that nothing of the repository (its lockfile, its .npmrc) takes part.
    await writeFile(path.join(prefix, 'package.json'), '{"name": "someone-else", "private": true}\n');
    // An npm cache of the test's own, as a first-time user has: the npx run below reuses it.
    const options = { cwd: prefix, env: { ...process.env, npm_config_cache: path.join(dir, 'npm-cache') }, timeout: 15 * 60_000, maxBuffer: 64 * 1024 * 1024 };
    await exec(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', '--ignore-scripts', path.join(dir, packed.filename)], options);
    installed = path.join(prefix, 'node_modules', 'dexi-vault');
    const tree = JSON.parse(await readFile(path.join(prefix, 'node_modules', '.package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const scripted = packagesWithInstallScripts(tree.packages);
    const addonDir = path.join(prefix, 'node_modules', ADDON_PACKAGE);
    const { version } = JSON.parse(await readFile(path.join(addonDir, 'package.json'), 'utf8')) as { version: string };
    const prebuilt = scripted.length === 1 && scripted[0] === ADDON_PACKAGE ? await builtAddon(ROOT, version) : { files: undefined };
    if (prebuilt.files) await placeAddon(prebuilt.files, addonDir);
    else await exec(npm, ['rebuild', '--loglevel=error'], options);
  }, 16 * 60_000);

  afterAll(async () => {
    await removeDir(dir);
  });

  it('installs without transformers.js or ONNX Runtime, whose install script downloads from outside the registry', async () => {
    const modules = await readdir(path.join(prefix, 'node_modules'));
    expect(modules).toContain('dexi-vault');
    expect(modules).not.toContain('onnxruntime-node');
    await expect(access(path.join(prefix, 'node_modules', '@huggingface', 'transformers'))).rejects.toThrow();
    await expect(access(path.join(installed, 'src'))).rejects.toThrow();
  });

  it('runs from the install: --version, and a stdio session that lists every tool', async () => {
    const bin = path.join(prefix, 'node_modules', '.bin', 'dexi-vault');
    const version = await run(bin, ['--version'], { cwd: prefix });
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const vault = path.join(dir, 'vault');
    await mkdir(vault);
    await writeFile(path.join(vault, 'Hello.md'), '# Hello\n\nA first note about tomatoes.\n');
    const server = await startStdioServer({ args: [path.join(installed, 'dist', 'app', 'dexi-vault.js'), 'serve', '--vault', vault], cwd: prefix, clientName: 'package-test' });
    try {
      const { tools } = await server.client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
      const found = await server.call('search_notes', { query: 'tomatoes' });
      expect((found.structuredContent as { items: { title: string }[] }).items.map((item) => item.title)).toEqual(['Hello']);
      // The default model ships in the package: semantic search works offline, once the note is embedded.
      const meaning = await eventually(
        async () => {
          const result = await server.call('semantic_search', { query: 'growing vegetables' });
          const answer = result.structuredContent as { items?: { title: string }[]; indexing?: unknown } | undefined;
          // Every note embedded: no `indexing` left in the answer.
          return answer?.items !== undefined && answer.indexing === undefined ? answer.items : undefined;
        },
        60_000,
        'semantic search from the installed package',
      );
      expect(meaning.map((item) => item.title)).toEqual(['Hello']);
    } finally {
      await server.client.close();
    }
  }, 90_000);

  it('says in a sentence that another model needs transformers.js, and serves on without semantic search', async () => {
    const vault = path.join(dir, 'vault');
    const server = await startStdioServer({
      args: [path.join(installed, 'dist', 'app', 'dexi-vault.js'), 'serve', '--vault', vault, '--model', 'Xenova/all-MiniLM-L6-v2'],
      cwd: prefix,
      clientName: 'package-test',
    });
    try {
      await server.stderrMatching(/The model "Xenova\/all-MiniLM-L6-v2" needs transformers\.js, which is not installed\./, 30_000);
      const found = await server.call('search_notes', { query: 'tomatoes' });
      expect(found.isError).toBeFalsy();
    } finally {
      await server.client.close();
    }
  });

  it('runs through npx from the tarball, as the README\'s npx snippet starts it, with an npm cache of its own', async () => {
    // The install above filled this cache, so npx takes the dependencies from it (prefer-offline: not
    // asking the registry again about each of them) instead of the registry. Its install scripts are
    // skipped: building hnswlib-node from source again took most of this test's 100 s, and the install
    // above gives its add-on a load; what is tested here is that npx finds and starts the bin of the
    // tarball (`--version` loads no add-on).
    const cache = path.join(dir, 'npm-cache');
    const env = { ...process.env, npm_config_cache: cache, npm_config_yes: 'true', npm_config_ignore_scripts: 'true', npm_config_prefer_offline: 'true' };
    const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
    const version = await run(npx, ['--yes', `--package=${tarball}`, '--', 'dexi-vault', '--version'], { cwd: dir, env, timeoutMs: 10 * 60_000 });
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  }, 11 * 60_000);
});
