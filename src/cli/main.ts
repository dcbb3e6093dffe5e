#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { createPolicy } from '../access/policy.js';
import { buildInstructions } from '../server/instructions.js';
import { Runtime } from '../server/runtime.js';
import { createMcpServer } from '../server/server.js';
import { serveStdio } from '../server/stdio.js';
import { ALL_TOOLS } from '../tools/index.js';
import { systemClock } from '../vault/clock.js';
import { readSettings, SettingsError } from '../vault/settings.js';
import { VaultUnavailableError } from '../vault/vault.js';
import { parseCli, USAGE, UsageError, type IndexConfig, type ServeConfig } from './args.js';

/** Log lines go to stderr: stdout belongs to the protocol. */
const log = (line: string): void => {
  process.stderr.write(`dexi-vault: ${line}\n`);
};

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

async function openRuntime(config: ServeConfig | IndexConfig): Promise<Runtime> {
  // Configuration is read here, once, and handed down.
  const settings = await readSettings(config.vault).catch((error: unknown) => {
    if (error instanceof SettingsError) throw error;
    throw new VaultUnavailableError(`The vault ${config.vault} cannot be read: ${(error as Error).message}`);
  });
  if (config.command === 'serve') {
    if (config.reviewTags !== undefined) settings.reviewTags = config.reviewTags;
    if (config.noteCap !== undefined) settings.noteCap = config.noteCap;
  }
  return Runtime.open({
    vaultDir: config.vault,
    settings,
    shared: config.command === 'serve' ? config.shared : [],
    clock: systemClock,
    log,
  });
}

async function serve(config: ServeConfig): Promise<void> {
  const runtime = await openRuntime(config);
  const policyOptions: Parameters<typeof createPolicy>[0] = { scopes: config.scopes };
  if (config.folder !== undefined) policyOptions.folder = config.folder;
  if (config.tag !== undefined) policyOptions.tag = config.tag;
  const context = runtime.context(createPolicy(policyOptions));
  log(`Serving ${runtime.own.root} over stdio (version ${version()}).`);
  runtime.loaded.catch((error: unknown) => log(`Reading the vault failed: ${(error as Error).message}`));
  const server = createMcpServer({
    name: 'dexi-vault',
    version: version(),
    tools: ALL_TOOLS,
    context,
    // Built lazily at initialize time would be nicer, but the SDK takes it up front; it reflects the vault if already read.
    instructions: buildInstructions(context.view, runtime.settings),
    log,
  });
  await serveStdio(server);
  await runtime.close();
}

async function index(config: IndexConfig): Promise<void> {
  const runtime = await openRuntime(config);
  await runtime.loaded;
  await runtime.close();
}

async function main(): Promise<number> {
  let config;
  try {
    config = parseCli(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof UsageError) {
      log(error.message);
      return 2;
    }
    throw error;
  }
  try {
    switch (config.command) {
      case 'help':
        process.stdout.write(`${USAGE}\n`);
        return 0;
      case 'version':
        process.stdout.write(`${version()}\n`);
        return 0;
      case 'index':
        await index(config);
        return 0;
      case 'serve':
        await serve(config);
        return 0;
    }
  } catch (error) {
    if (error instanceof VaultUnavailableError || error instanceof SettingsError) {
      log(error.message);
      return 1;
    }
    log(`Stopped by an unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    log(String(error));
    process.exitCode = 1;
  },
);
