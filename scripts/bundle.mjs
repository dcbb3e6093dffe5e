#!/usr/bin/env node
// Build dexi-vault.mcpb, an MCP bundle (MCPB) a desktop client installs in one click.
//
//   node scripts/bundle.mjs [OUTPUT] [STAGING]
//
// OUTPUT defaults to dexi-vault.mcpb in the repository root; STAGING (also
// $DEXI_BUNDLE_STAGING) to .bundle/ there. `npm run bundle` builds dist/ first.
//
// The bundle is the npm package as npm would ship it, plus exactly the
// lockfile's production dependencies, plus a manifest.json whose tool and
// prompt lists come from asking the staged server itself, so they cannot drift
// from the code. Plain ESM rather than TypeScript so that it runs without a
// compile step of its own.

import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ADDON_PACKAGE, builtAddon, packagesWithInstallScripts, placeAddon } from './native-addon.mjs';

const exec = promisify(execFile);
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WINDOWS = process.platform === 'win32';
const NPM = WINDOWS ? 'npm.cmd' : 'npm';
const MCPB = path.join(ROOT, 'node_modules', '.bin', WINDOWS ? 'mcpb.cmd' : 'mcpb');
const ENTRY = 'dist/app/dexi-vault.js';
// Written into a staging folder as soon as it is made: only a folder holding it
// (or an empty one) is ever deleted, so a mistyped STAGING cannot wipe real files.
const MARKER = '.dexi-bundle-staging';
// Stable manifest version, and the one `mcpb init` writes: 0.3 is marked
// work-in-progress and 0.4 experimental in mcpb 2.1.2, and dexi-vault needs
// nothing they add (icons, localization, the uv server type).
const MANIFEST_VERSION = '0.2';
// Packages the bundle must not carry: the optional transformers.js peer and the
// ONNX Runtime under it, whose install script downloads binaries from outside
// the registry. Without them the server runs with its bundled default model.
const FORBIDDEN = ['@huggingface/transformers', 'onnxruntime-node'];

/** A failure the user can act on: printed as one sentence, no stack trace. */
class Failure extends Error {}

function fail(sentence) {
  throw new Failure(sentence);
}

/** The last meaningful line a tool printed, to end a failure sentence with. */
function lastLine(text) {
  const lines = String(text ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^npm (error|ERR!) (A complete log|code|path|command|cwd)\b/.test(line));
  return (lines.at(-1) ?? '').replace(/^npm (error|ERR!) /, '');
}

/**
 * The environment for child npm and mcpb runs. Under `npm run bundle` npm hands
 * its settings down as npm_* variables. A non-empty npm_config_allow_scripts
 * (someone's allow-scripts in ~/.npmrc, meant for npx and global installs)
 * makes a project-scoped `npm ci` stop with EALLOWSCRIPTS, and the package and
 * lifecycle variables describe the repository, not the staging folder; those
 * are dropped. The rest (registry, cache, nodedir for node-gyp, …) is kept.
 */
function childEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    const lower = key.toLowerCase();
    if (lower === 'npm_config_allow_scripts' || lower.startsWith('npm_package_') || lower.startsWith('npm_lifecycle_') || lower === 'npm_command') {
      delete env[key];
    }
  }
  return env;
}

/** Run a program to completion; a non-zero exit becomes `what` plus the program's last line. */
async function run(file, args, { cwd, what, timeoutMs = 10 * 60_000 }) {
  try {
    // shell on Windows only because .cmd launchers cannot be started without one.
    return await exec(file, args, { cwd, env: childEnv(), timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024, shell: WINDOWS });
  } catch (error) {
    if (error.code === 'ENOENT') fail(`${what} failed: ${file} was not found.`);
    const detail = lastLine(error.stderr) || lastLine(error.stdout) || (error.killed ? `killed after ${timeoutMs / 1000} s` : `exit code ${error.code}`);
    fail(`${what} failed: ${detail.replace(/[.:]$/, '')}.`);
  }
}

/** Empty (or make) the staging folder, refusing anything that is not one. */
async function freshStaging(dir) {
  const fromRoot = path.relative(dir, ROOT);
  if (fromRoot === '' || (!fromRoot.startsWith('..') && !path.isAbsolute(fromRoot))) {
    fail(`The staging folder ${dir} is the repository or holds it; give a folder of its own.`);
  }
  if (existsSync(dir)) {
    const entries = await readdir(dir);
    if (entries.length > 0 && !entries.includes(MARKER)) {
      fail(`The staging folder ${dir} has files in it that this script did not put there; remove it or give another one.`);
    }
    await rm(dir, { recursive: true, force: true });
  }
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, MARKER), 'Staging folder of scripts/bundle.mjs; deleted and remade on every run.\n');
}

/** `npm pack` the repository and unpack its package/ folder into the staging folder. */
async function stagePackage(staging) {
  const packDir = await mkdtemp(path.join(tmpdir(), 'dexi-bundle-pack-'));
  try {
    // --ignore-scripts: `prepare` would clean and rebuild dist/, which the caller has just built.
    const { stdout } = await run(NPM, ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], { cwd: ROOT, what: 'npm pack' });
    let filename;
    try {
      filename = JSON.parse(stdout)[0]?.filename;
    } catch {
      // handled just below
    }
    if (typeof filename !== 'string') fail('npm pack did not say which tarball it wrote.');
    // The tarball's entries all sit under package/: strip it so the staging folder is the package root.
    await run('tar', ['-xzf', path.join(packDir, filename), '-C', staging, '--strip-components=1'], { cwd: staging, what: 'Unpacking the npm tarball' });
  } finally {
    await rm(packDir, { recursive: true, force: true });
  }
  if (!existsSync(path.join(staging, ENTRY))) fail(`The packed package has no ${ENTRY}; check "files" in package.json.`);
}

/** Install exactly the lockfile's production dependencies into the staging folder. */
async function installDependencies(staging) {
  await copyFile(path.join(ROOT, 'package-lock.json'), path.join(staging, 'package-lock.json'));
  // The packed package.json keeps the repository's scripts: `npm ci` would run
  // its `prepare` (clean, then a TypeScript build with tools --omit=dev leaves
  // out), deleting dist/. The bundle runs none of them. Everything else stays:
  // "type": "module" makes dist/ load as ESM, the dependency lists keep
  // package.json and the lockfile in step for `npm ci`, and allowScripts lets
  // hnswlib-node build its native add-on when the repository's is not reused.
  const manifestPath = path.join(staging, 'package.json');
  const pkg = JSON.parse(await readFile(manifestPath, 'utf8'));
  delete pkg.scripts;
  await writeFile(manifestPath, `${JSON.stringify(pkg, null, 2)}\n`);

  // The add-on the repository's own install built, when it is the one this
  // install would compile (see native-addon.mjs): then nothing runs an install
  // script, which only hnswlib-node has among the production dependencies.
  const lock = JSON.parse(await readFile(path.join(ROOT, 'package-lock.json'), 'utf8'));
  const scripted = packagesWithInstallScripts(lock.packages ?? {}, (entry) => entry.dev === true || entry.peer === true);
  const locked = lock.packages?.[`node_modules/${ADDON_PACKAGE}`]?.version;
  const prebuilt = scripted.length === 1 && scripted[0] === ADDON_PACKAGE ? await builtAddon(ROOT, locked) : { reason: 'other packages have install scripts' };

  // --prefix as well as cwd, so that the install lands in the staging folder however npm looks for the project root.
  const args = ['ci', '--omit=dev', '--omit=peer', '--no-audit', '--no-fund', '--loglevel=error', ...(prebuilt.files ? ['--ignore-scripts'] : []), '--prefix', staging];
  await run(NPM, args, { cwd: staging, what: 'npm ci in the staging folder' });
  if (prebuilt.files) await placeAddon(prebuilt.files, path.join(staging, 'node_modules', ADDON_PACKAGE));

  const loads = async () => {
    try {
      await exec(process.execPath, ['-e', "require('hnswlib-node')"], { cwd: staging, env: childEnv() });
      return true;
    } catch {
      return false;
    }
  };
  if (!(await loads())) {
    // npm skips a dependency's install script unless allowScripts approves it;
    // if the policy in package.json did not reach this install, or the reused
    // add-on does not load after all, build it explicitly.
    await run(NPM, ['rebuild', 'hnswlib-node', '--prefix', staging], { cwd: staging, what: 'Building hnswlib-node (npm rebuild)' });
    if (!(await loads())) fail('hnswlib-node was installed but its native add-on does not load, even after npm rebuild.');
  }

  for (const name of FORBIDDEN) {
    if (existsSync(path.join(staging, 'node_modules', ...name.split('/')))) {
      fail(`${name} was installed into the bundle; it must stay out (an optional peer dependency).`);
    }
  }
}

/**
 * Start the staged server on an empty vault and ask it for its tools and
 * prompts, as a client would: the manifest then lists what the code serves.
 */
async function describeServer(staging) {
  // Imported here, not at the top: without the repository's node_modules a
  // static import would end the script with a loader stack trace, not a sentence.
  let Client, StdioClientTransport;
  try {
    ({ Client } = await import('@modelcontextprotocol/sdk/client/index.js'));
    ({ StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js'));
  } catch {
    fail('The MCP SDK is not installed in the repository: run `npm install` first.');
  }
  const vault = await mkdtemp(path.join(tmpdir(), 'dexi-bundle-vault-'));
  // The default environment of the SDK (PATH, HOME, …): no DEXI_VAULT or
  // DEXI_READ_ONLY of the caller's, so the listing is the full, writable one.
  const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(staging, ENTRY), 'serve', '--vault', vault], cwd: vault, stderr: 'pipe' });
  let log = '';
  transport.stderr?.on('data', (chunk) => {
    log = (log + chunk.toString('utf8')).slice(-20_000);
  });
  const client = new Client({ name: 'dexi-bundle', version: '1.0.0' });
  try {
    try {
      await client.connect(transport, { timeout: 60_000 });
    } catch (error) {
      fail(`The staged server did not start: ${lastLine(log) || error.message}`.replace(/\.?$/, '.'));
    }
    const { tools } = await client.listTools();
    const prompts = client.getServerCapabilities()?.prompts ? (await client.listPrompts()).prompts : [];
    const promptEntries = [];
    for (const prompt of prompts) {
      // A manifest prompt's text is a fixed template, while the server words
      // its text around the arguments given. The text without arguments is one
      // the server really sends (the whole vault); the arguments stay with the
      // live server, which offers and completes them.
      const got = await client.getPrompt({ name: prompt.name, arguments: {} });
      const text = got.messages
        .map((message) => (message.content.type === 'text' ? message.content.text : ''))
        .filter((part) => part !== '')
        .join('\n\n');
      promptEntries.push({ name: prompt.name, ...(prompt.description ? { description: prompt.description } : {}), text });
    }
    return {
      tools: tools.map((tool) => ({ name: tool.name, ...(tool.description ? { description: tool.description } : {}) })),
      prompts: promptEntries,
    };
  } catch (error) {
    if (error instanceof Failure) throw error;
    fail(`Asking the staged server for its tools failed: ${error.message}`.replace(/\.?$/, '.'));
  } finally {
    await client.close().catch(() => undefined);
    await rm(vault, { recursive: true, force: true, maxRetries: 5 });
  }
}

async function writeManifest(staging, { tools, prompts }) {
  const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
  const manifest = {
    manifest_version: MANIFEST_VERSION,
    name: 'dexi-vault',
    display_name: 'dexi-vault',
    version: pkg.version,
    description: pkg.description,
    author: { name: 'dexi-vault developers' },
    server: {
      type: 'node',
      entry_point: ENTRY,
      mcp_config: {
        command: 'node',
        args: [`\${__dirname}/${ENTRY}`, 'serve', '--vault', '${user_config.vault}'],
        env: { DEXI_READ_ONLY: '${user_config.read_only}' },
      },
    },
    tools,
    ...(prompts.length > 0 ? { prompts } : {}),
    keywords: ['markdown', 'notes', 'obsidian', 'search', 'semantic-search', 'spaced-repetition'],
    license: pkg.license,
    compatibility: {
      platforms: [process.platform],
      runtimes: { node: pkg.engines?.node ?? '>=20' },
    },
    user_config: {
      vault: {
        type: 'directory',
        title: 'Notes folder',
        description: 'The folder of Markdown notes (an Obsidian vault works).',
        required: true,
      },
      read_only: {
        type: 'boolean',
        title: 'Read-only',
        description: 'Let the assistant search and read, but not create, change or delete notes.',
        default: false,
        required: false,
      },
    },
  };
  await writeFile(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  // mcpb pack already leaves out package-lock.json, *.map, *.d.ts and
  // node_modules/.bin; these are what else only the staging or the native
  // build needed: node-gyp's object files and make files, and the marker.
  await writeFile(
    path.join(staging, '.mcpbignore'),
    [
      MARKER,
      'node_modules/.package-lock.json',
      // Of node-gyp's build folder only the add-on itself is loaded at run time.
      'node_modules/hnswlib-node/build/*',
      '!node_modules/hnswlib-node/build/Release',
      'node_modules/hnswlib-node/build/Release/*',
      '!node_modules/hnswlib-node/build/Release/*.node',
      '',
    ].join('\n'),
  );
}

async function main() {
  const [outputArg, stagingArg] = process.argv.slice(2);
  const output = path.resolve(outputArg ?? path.join(ROOT, 'dexi-vault.mcpb'));
  const staging = path.resolve(stagingArg ?? process.env.DEXI_BUNDLE_STAGING ?? path.join(ROOT, '.bundle'));

  if (!existsSync(path.join(ROOT, ENTRY))) fail(`There is no ${ENTRY}: run \`npm run build\` first.`);
  if (!existsSync(MCPB)) fail('The mcpb tool is not installed: run `npm install` in the repository first.');
  // The bundle carries hnswlib-node built for this operating system (and CPU),
  // so the manifest names this platform alone: one the schema knows.
  if (!['darwin', 'win32', 'linux'].includes(process.platform)) fail(`MCP bundles are for darwin, win32 or linux, not ${process.platform}.`);

  await freshStaging(staging);
  await stagePackage(staging);
  await installDependencies(staging);
  await writeManifest(staging, await describeServer(staging));

  await run(MCPB, ['validate', path.join(staging, 'manifest.json')], { cwd: staging, what: 'mcpb validate' });
  await mkdir(path.dirname(output), { recursive: true });
  await run(MCPB, ['pack', staging, output], { cwd: staging, what: 'mcpb pack' });

  const { size } = await stat(output);
  const shown = path.relative(process.cwd(), output);
  console.log(`${shown.startsWith('..') || path.isAbsolute(shown) ? output : shown} ${(size / (1024 * 1024)).toFixed(1)} MB`);
}

try {
  await main();
} catch (error) {
  // Anything not foreseen is still one sentence; a stack trace would say nothing more to the person running the build.
  const sentence = error instanceof Failure ? error.message : `Building the bundle failed: ${error?.message ?? String(error)}`.replace(/\.?$/, '.');
  process.stderr.write(`${sentence}\n`);
  process.exitCode = 1;
}
