import { existsSync, statSync } from 'node:fs';
import { availableParallelism, homedir } from 'node:os';
import path from 'node:path';
import { cacheDir, modelsDir } from '../storage/dexi-dir.js';
import type { EmbedderSpec } from '../index/vectors/embedder.js';
import { ImportRun } from '../import/import-run.js';
import { ServedVault } from '../server/served-vault.js';
import type { EarlyScan } from '../vault/workers/scan-pool.js';
import { systemClock } from '../vault/clock.js';
import { readSettings, SettingsError } from '../vault/settings.js';
import { VaultUnavailableError } from '../vault/vault.js';
import type { IndexConfig, ServeConfig } from './args.js';
import { log } from './log.js';
import { cannotWrite, openVaultFolder, outsideCache, userCacheHome, type VaultFolder } from './vault-folder.js';

/** Windows a worker embeds at a time for `dexi-vault index` (see openServedVault). */
const INDEX_BATCH = 8;

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
 * served read-only with its caches outside it, said once in the log. This is
 * where the configuration is read, once, and handed down: the settings file,
 * overridden by `serve`'s flags, the model and the number of workers.
 */
export async function openServedVault(config: ServeConfig | IndexConfig, watch = true, folder?: VaultFolder, earlyScan?: EarlyScan): Promise<ServedVault> {
  const found = folder ?? (await openVaultFolder(config.vault, true));
  const because = found.readOnlyBecause;
  const outside = because === undefined ? undefined : await outsideCache({ ...found, readOnlyBecause: because }, userCacheHome(process.env, process.platform, homedir()), config.command);
  if (outside) log(outside.notice);
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
  // A server's query waits behind the call a worker is in, so its calls stay
  // small (the pool's default); `index` answers no query. Full windows cost
  // 86.5–90.3 ms each in calls of 2 and 82.0–82.7 in calls of 8 (one idle core).
  const batchSize = config.command === 'index' ? INDEX_BATCH : undefined;
  return ServedVault.open({
    vaultDir: config.vault,
    settings,
    shared: config.command === 'serve' ? config.shared : [],
    clock: systemClock,
    log,
    watch,
    ...(embedder ? { semantic: { embedder, workers, ...(batchSize === undefined ? {} : { batchSize }) } } : {}),
    ...(outside ? { readOnly: true, cacheDir: outside.cacheDir } : {}),
    earlyScan,
  });
}

/**
 * Read the vault (from its cache when it has one) so that an import knows
 * what is there already; no watcher, no model. `refused` says what cannot
 * happen when the vault cannot be written.
 */
export async function openForImport(vault: string, refused: string): Promise<{ runtime: ServedVault; run: ImportRun }> {
  const folder = await openVaultFolder(vault, true);
  if (folder.readOnlyBecause !== undefined) throw cannotWrite(folder, refused);
  const runtime = await openServedVault({ command: 'index', vault, model: 'none' }, false, folder);
  try {
    await runtime.loaded;
    return { runtime, run: await ImportRun.start(runtime.own, { noteCap: runtime.settings.noteCap }) };
  } catch (error) {
    await runtime.close();
    throw error;
  }
}
