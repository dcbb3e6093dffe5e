#!/usr/bin/env node
import { existsSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism, homedir } from 'node:os';
import path from 'node:path';
import { cacheDir, modelsDir } from '../files/dexi-dir.js';
import { createPolicy } from '../access/policy.js';
import type { EmbedderSpec } from '../index/vectors/embedder.js';
import { TokenError, TokenStore } from '../access/tokens.js';
import { HttpStartError } from '../server/errors.js';
import { buildInstructions } from '../server/instructions.js';
import { Runtime } from '../server/runtime.js';
import { createMcpServer } from '../server/server.js';
import { serveStdio } from '../server/stdio.js';
import { ALL_TOOLS } from '../tools/index.js';
import { systemClock } from '../vault/clock.js';
import { readSettings, SettingsError } from '../vault/settings.js';
import { VaultUnavailableError } from '../vault/vault.js';
import { BookmarksError } from '../import/bookmarks.js';
import { EmailError } from '../import/email.js';
import { addFeed, describePull, FeedsError, pullFeeds, readSubscriptions, removeFeed } from '../import/feeds.js';
import { importBookmarks } from '../import/import-bookmarks.js';
import { importEmail } from '../import/import-email.js';
import { ImportRun, ImportStoppedError } from '../import/import-run.js';
import type { ImportReport } from '../import/report.js';
import { ActivityLog, HistoryError } from '../vault/activity.js';
import { settledEntries } from '../vault/activity-settle.js';
import { describeCall, undo, UndoError } from '../vault/undo.js';
import { activityRows, sinceTime } from './activity.js';
import { columns } from './columns.js';
import { failureSentence } from './failure.js';
import { token } from './token-command.js';
import { cannotWrite, openVaultFolder, outsideCache, userCacheHome, type VaultFolder } from './vault-folder.js';
import { progressReporter } from './progress.js';
import { stopServing, stopSignals } from './stopping.js';
import {
  parseCli,
  USAGE,
  UsageError,
  type ActivityConfig,
  type FeedsConfig,
  type ImportConfig,
  type IndexConfig,
  type ServeConfig,
  type UndoConfig,
} from './args.js';

/** Log lines go to stderr: stdout belongs to the protocol. */
const log = (line: string): void => {
  process.stderr.write(`dexi-vault: ${line}\n`);
};

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** The embedder a `--model` value names, or undefined for none; `cache` is the vault's cache folder. */
function embedderSpec(model: string, cache: string): EmbedderSpec | undefined {
  if (model === 'none') return undefined;
  if (model === 'use-lite') return { kind: 'use-lite' };
  // A folder on disk is loaded from there with remote loading off; anything else is a hub id.
  const local = existsSync(model) && statSync(model).isDirectory();
  return { kind: 'transformers', model: local ? path.resolve(model) : model, cacheDir: modelsDir(cache) };
}

/**
 * Open the vault for serving or indexing. A vault that cannot be written is
 * served read-only with its caches outside it, said once in the log.
 */
async function openRuntime(config: ServeConfig | IndexConfig, watch = true, folder?: VaultFolder): Promise<Runtime> {
  const found = folder ?? (await openVaultFolder(config.vault, true));
  const because = found.readOnlyBecause;
  const outside = because === undefined ? undefined : await outsideCache({ ...found, readOnlyBecause: because }, userCacheHome(process.env, process.platform, homedir()), config.command);
  if (outside) log(outside.notice);
  // Configuration is read here, once, and handed down.
  const settings = await readSettings(config.vault).catch((error: unknown) => {
    if (error instanceof SettingsError) throw error;
    throw new VaultUnavailableError(`The vault ${config.vault} cannot be read: ${(error as Error).message}`);
  });
  if (config.command === 'serve') {
    if (config.reviewTags !== undefined) settings.reviewTags = config.reviewTags;
    if (config.noteCap !== undefined) settings.noteCap = config.noteCap;
  }
  const embedder = embedderSpec(config.model, outside?.cacheDir ?? cacheDir(found.root));
  // Serving keeps a core for answering tools; `index` may use them all.
  const cores = availableParallelism();
  const workers = config.command === 'index' ? cores : Math.max(1, cores - 1);
  return Runtime.open({
    vaultDir: config.vault,
    settings,
    shared: config.command === 'serve' ? config.shared : [],
    clock: systemClock,
    log,
    watch,
    ...(embedder ? { semantic: { embedder, workers } } : {}),
    ...(outside ? { readOnly: true, cacheDir: outside.cacheDir } : {}),
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
    log,
  });
  const puller = feedPuller(runtime, config.pullFeedsMinutes);
  const stop = stopSignals(runtime);
  // The SDK takes instructions when the server is built; the transport
  // writes them into the initialize answer instead, built at that moment.
  await Promise.race([serveStdio(server, () => buildInstructions(context.view, runtime.settings)), stop.signalled]);
  await stopServing(runtime, stop, puller);
}

/** `serve --http`: one process, many connections, each token its own scopes and boundary. */
async function serveOverHttp(config: ServeConfig, http: NonNullable<ServeConfig['http']>): Promise<void> {
  const runtime = await openRuntime(config);
  runtime.loaded.catch((error: unknown) => log(`Reading the vault failed: ${(error as Error).message}`));
  const tokens = new TokenStore(runtime.own.root);
  let handle;
  try {
    // Loaded only here, so that stdio start-up does not pay for the HTTP stack.
    const { serveHttp } = await import('../server/http.js');
    handle = await serveHttp({
      runtime,
      tokens,
      port: http.port,
      host: http.host,
      allowedOrigins: http.allowOrigins,
      tools: ALL_TOOLS,
      serverInfo: { name: 'dexi-vault', version: version() },
      log,
    });
  } catch (error) {
    await runtime.close();
    throw error;
  }
  log(`Serving ${runtime.own.root} over Streamable HTTP at ${handle.url} (version ${version()}); every request needs "Authorization: Bearer TOKEN".`);
  const known = await tokens.entries().catch(() => undefined);
  if (known?.length === 0) {
    log(runtime.own.readOnly ? 'There are no tokens, and none can be made in a vault folder that cannot be written, so every request is refused.' : 'There are no tokens yet, so every request is refused; create one with: dexi-vault token create --name NAME');
  }
  const puller = feedPuller(runtime, config.pullFeedsMinutes);
  const stop = stopSignals(runtime);
  await stop.signalled;
  log('Stopping: closing the sessions.');
  await handle.close();
  await stopServing(runtime, stop, puller);
}

async function index(config: IndexConfig): Promise<void> {
  const runtime = await openRuntime(config, false);
  const progress = progressReporter(process.stderr, 'Reading notes');
  const timer = setInterval(() => {
    const { done, total, phase } = runtime.own.progress;
    if (phase === 'reading') progress.update(done, total);
  }, 200);
  try {
    await runtime.loaded;
  } finally {
    clearInterval(timer);
  }
  progress.finish(`Read ${runtime.own.size.toLocaleString('en')} notes.`);
  const semantic = runtime.semantic;
  if (semantic) {
    // Two passes (semantic-indexer.ts): every note's opening, then the other windows of long notes.
    let embedding = progressReporter(process.stderr, 'Embedding notes');
    let passages = false;
    const started = Date.now();
    for (;;) {
      const state = semantic.progress();
      if (state.error) {
        embedding.finish(`Semantic search is unavailable: ${state.error}`);
        break;
      }
      // total is 0 until the notes are handed over after the read.
      if (state.ready && state.total >= runtime.own.size) {
        const seconds = (Date.now() - started) / 1000;
        const fresh = semantic.embeddedThisRun;
        embedding.finish(
          `${state.complete.toLocaleString('en')} notes have vectors; ${fresh.toLocaleString('en')} embedded now, in ${seconds.toFixed(1)} s` +
            `${state.failed > 0 ? ` (${state.failed} failed; see above)` : ''}.`,
        );
        break;
      }
      const total = Math.max(state.total, runtime.own.size);
      if (!passages && state.total >= runtime.own.size && state.embedded + state.failed >= total && state.complete < state.embedded) {
        passages = true;
        embedding.finish(`Every note is searchable by meaning after ${((Date.now() - started) / 1000).toFixed(1)} s; now embedding the rest of the long notes.`);
        embedding = progressReporter(process.stderr, 'Embedding passages');
      }
      embedding.update(passages ? state.complete : state.embedded, total);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  await runtime.close();
  log(`Indexed ${runtime.own.size.toLocaleString('en')} notes; the indexes are in ${runtime.own.cacheDir}.`);
}

/** The importers' words, on stderr: a progress line, a sentence per item not taken, the summary. */
function cliReport(label: string): ImportReport {
  const progress = progressReporter(process.stderr, label);
  return {
    progress: (done, total) => progress.update(done, total),
    problem: (sentence) => progress.say(`dexi-vault: ${sentence}`),
    finish: (summary) => progress.finish(summary),
  };
}

/**
 * Read the vault (from its cache when it has one) so that an import knows
 * what is there already; no watcher, no model. `refused` says what cannot
 * happen when the vault cannot be written.
 */
async function openForImport(vault: string, refused: string): Promise<{ runtime: Runtime; run: ImportRun }> {
  const folder = await openVaultFolder(vault, true);
  if (folder.readOnlyBecause !== undefined) throw cannotWrite(folder, refused);
  const runtime = await openRuntime({ command: 'index', vault, model: 'none' }, false, folder);
  try {
    await runtime.loaded;
    return { runtime, run: await ImportRun.start(runtime.own, { noteCap: runtime.settings.noteCap }) };
  } catch (error) {
    await runtime.close();
    throw error;
  }
}

async function importCommand(config: ImportConfig): Promise<void> {
  const { runtime, run } = await openForImport(config.vault, `no ${config.kind === 'bookmarks' ? 'bookmark' : 'message'} can be imported into it`);
  try {
    if (config.kind === 'bookmarks') await importBookmarks(run, { file: config.input, folder: config.folder, fetchPages: config.fetch }, cliReport('Importing bookmarks'));
    else await importEmail(run, { path: config.input, folder: config.folder }, cliReport('Importing messages'));
  } finally {
    await run.close();
    await runtime.close();
  }
}

async function feedsCommand(config: FeedsConfig): Promise<void> {
  const vault = path.resolve(config.vault);
  if (config.action === 'list' || config.action === 'remove') {
    const folder = await openVaultFolder(vault, config.action === 'remove');
    if (folder.readOnlyBecause !== undefined) throw cannotWrite(folder, 'its list of feeds cannot be changed');
  }
  if (config.action === 'list') {
    const feeds = await readSubscriptions(vault);
    if (feeds.length === 0) {
      log(`You follow no feeds in ${vault} yet; add one with: dexi-vault feeds add URL`);
      return;
    }
    process.stdout.write(
      columns([['NAME', 'FOLDER', 'LAST PULLED', 'URL'], ...feeds.map((feed) => [feed.name, feed.folder, feed.lastError === undefined ? (feed.lastPulled ?? 'never') : `failed: ${feed.lastError}`, feed.url])]),
    );
    return;
  }
  if (config.action === 'remove') {
    const gone = await removeFeed(vault, config.url);
    log(`No longer following "${gone.name}" (${gone.url}); its notes in ${gone.folder}/ stay.`);
    return;
  }
  const { runtime, run } = await openForImport(vault, config.action === 'add' ? 'no feed can be followed into it' : 'no feed can be pulled into it');
  try {
    if (config.action === 'add') await addFeed(run, config.url, config.folder, cliReport('Importing articles'), systemClock.now());
    else {
      const report = cliReport('Pulling feeds');
      report.finish(describePull(await pullFeeds(run, report, () => systemClock.now())));
    }
  } finally {
    await run.close();
    await runtime.close();
  }
}

/** The activity record of the vault at `dir`; `refused`, for undo, says what cannot happen when the vault cannot be written. */
async function activityLogOf(dir: string, refused?: string): Promise<ActivityLog> {
  const folder = await openVaultFolder(dir, refused !== undefined);
  if (refused !== undefined && folder.readOnlyBecause !== undefined) throw cannotWrite(folder, refused);
  return new ActivityLog(folder.root, systemClock, log);
}

/** `activity [--since WHEN]`: the record, as aligned columns on stdout. */
async function activityCommand(config: ActivityConfig): Promise<void> {
  const activity = await activityLogOf(config.vault);
  const since = config.since === undefined ? undefined : sinceTime(config.since, systemClock.now());
  if (config.since !== undefined && since === undefined) throw new UsageError(`--since takes a span such as 30m, 12h, 1d or 2w, or a date such as 2026-12-01; "${config.since}" is not a date.`);
  // A listing writes nothing: what a killed server left pending is judged from the files, and settled by the next start or undo.
  const rows = activityRows(await settledEntries(activity, { persist: false }), since);
  if (rows.length === 1) {
    log(config.since === undefined ? 'The assistant has changed nothing in this vault that is on record.' : `The assistant has changed nothing since ${config.since}.`);
    return;
  }
  process.stdout.write(columns(rows));
}

/** `undo NOTE|--last`. */
async function undoCommand(config: UndoConfig): Promise<void> {
  const activity = await activityLogOf(config.vault, 'nothing can be undone in it');
  const call = await undo(activity, config.target);
  const back = call.entries.length === 1 ? 'the note is back as it was before' : `its ${call.entries.length} files are back as they were before`;
  process.stdout.write(`Undid the assistant's ${describeCall(call)}: ${back}.\n`);
}

/** `serve --pull-feeds MINUTES`, unless the vault cannot be written. */
function feedPuller(runtime: Runtime, minutes: number | undefined): { stop(): Promise<void> } | undefined {
  if (minutes === undefined) return undefined;
  if (!runtime.own.readOnly) return pullFeedsWhileServing(runtime, minutes);
  log('The feeds are not pulled: their articles would be notes in a vault that cannot be written.');
  return undefined;
}

/**
 * `serve --pull-feeds MINUTES`: pull once the vault has been read, then
 * every MINUTES, one pull at a time; the articles arrive through the same
 * create as a tool's, so every connection sees them at once.
 */
function pullFeedsWhileServing(runtime: Runtime, minutes: number): { stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const report: ImportReport = { progress: () => undefined, problem: log, finish: log };
  const pull = async (): Promise<void> => {
    try {
      const run = await ImportRun.start(runtime.own, { noteCap: runtime.settings.noteCap });
      try {
        const summary = await pullFeeds(run, report, () => systemClock.now());
        if (summary.feeds > 0) log(describePull(summary));
      } finally {
        await run.close();
      }
    } catch (error) {
      log(`Pulling the feeds failed: ${(error as Error).message}`);
    }
  };
  const next = (): void => {
    if (stopped) return;
    running = pull().finally(() => {
      if (!stopped) timer = setTimeout(next, minutes * 60_000);
    });
  };
  runtime.loaded.then(next, () => undefined);
  log(`Pulling the feeds you follow every ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
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
        if (config.http) await serveOverHttp(config, config.http);
        else await serve(config);
        return 0;
      case 'token':
        await token(config, log);
        return 0;
      case 'import':
        await importCommand(config);
        return 0;
      case 'feeds':
        await feedsCommand(config);
        return 0;
      case 'activity':
        await activityCommand(config);
        return 0;
      case 'undo':
        await undoCommand(config);
        return 0;
    }
  } catch (error) {
    if (error instanceof UsageError) {
      log(error.message);
      return 2;
    }
    if (
      error instanceof VaultUnavailableError ||
      error instanceof SettingsError ||
      error instanceof TokenError ||
      error instanceof HttpStartError ||
      error instanceof BookmarksError ||
      error instanceof EmailError ||
      error instanceof FeedsError ||
      error instanceof ImportStoppedError ||
      error instanceof HistoryError ||
      error instanceof UndoError
    ) {
      log(error.message);
      return 1;
    }
    log(failureSentence(error, process.env.DEXI_DEBUG));
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
