import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { listTokens } from '../../access/tokens.js';
import { feedsFile, readSubscriptions } from '../../import/feeds.js';
import { readCachedRecords, type CachedRecords } from '../../index/cache.js';
import { replayMoves } from '../../index/moves-journal.js';
import { readSnapshotSummary } from '../../index/vectors/snapshot-meta.js';
import { cacheDir as ownCacheDir, dexiDir, outsideCacheDir, tokensFile, vectorsDir } from '../../storage/dexi-dir.js';
import { systemClock } from '../../vault/clock.js';
import { DexiError } from '../../vault/errors.js';
import type { NoteRecord } from '../../vault/note.js';
import { tableOf, tableRecords } from '../../vault/record-table.js';
import { settledEntries } from '../../vault/record/activity-settle.js';
import { activityFile, ActivityLog, historyDir } from '../../vault/record/activity.js';
import { recordSummary } from '../../vault/record/undo.js';
import { scanVault, type FileStat } from '../../vault/scan.js';
import { changeText } from '../activity.js';
import type { StatusConfig } from '../args.js';
import { log } from '../log.js';
import { indexDrift, statusJson, statusLines, type EmbeddingStatus, type FeedsStatus, type RecordStatus, type TextIndexStatus, type TokensStatus, type VaultStatus } from '../status.js';
import { describeCode, openVaultFolder, userCacheHome } from '../vault-folder.js';

/**
 * `status [--json]`: where the vault stands, gathered by reading only. It
 * writes nothing, in the notes or in `.dexi/`: no cache is saved, no
 * watcher started, no model loaded, no pending write of the record settled.
 * The notes are counted by a plain listing of the folders; the indexes are
 * judged from their files (the text index's records, the vector snapshot's
 * meta.json), never built.
 */
export async function statusCommand(config: StatusConfig): Promise<void> {
  const status = await gatherStatus(config.vault);
  if (config.json === true) process.stdout.write(`${JSON.stringify(statusJson(status), null, 2)}\n`);
  else process.stdout.write(`${statusLines(status, systemClock.now()).join('\n')}\n`);
}

/** Everything `status` says of the vault at `dir`, read from the disk. */
export async function gatherStatus(dir: string): Promise<VaultStatus> {
  const folder = await openVaultFolder(dir, 'look');
  const { root, readOnlyBecause } = folder;
  // A vault that cannot be written keeps its caches outside it (outsideCache in vault-folder.ts); the first start there begins from a copy of the vault's own.
  const outside = readOnlyBecause === undefined ? undefined : outsideCacheDir(userCacheHome(process.env, process.platform, homedir()), root);
  const [scan, found] = await Promise.all([scanVault(root, () => undefined), textIndexCache(root, outside)]);
  const { cacheDir, cached } = found;
  const records = cached.state === 'saved' ? tableRecords((await replayMoves(cacheDir, tableOf(cached.records))).records) : undefined;
  // A `.dexi` that is a file holds none of them; the Read-only line says why, once.
  const holdsNothing = (await stat(dexiDir(root)).catch(() => undefined))?.isDirectory() === false;
  const [embeddings, feeds, tokens, record] = await Promise.all([
    embeddingStatus(outside ?? cacheDir, scan.files, records),
    holdsNothing ? { count: 0, failing: [] } : feedsStatus(root),
    holdsNothing ? { count: 0, byScopes: {} } : tokensStatus(root),
    holdsNothing ? { changes: 0, undoable: 0, unkept: 0 } : recordStatus(root),
  ]);
  return {
    vault: root,
    notes: scan.files.length,
    folders: scan.folders.length,
    ...(readOnlyBecause === undefined ? {} : { readOnlyBecause }),
    cacheDir: outside ?? cacheDir,
    textIndex: textIndexStatus(cached, scan.files, records),
    embeddings,
    feeds,
    tokens,
    record,
  };
}

/** The text index cache the next start would load: the outside one of a read-only vault, else (or when it has none yet) the vault's own. */
async function textIndexCache(root: string, outside: string | undefined): Promise<{ cacheDir: string; cached: CachedRecords }> {
  if (outside !== undefined) {
    const cached = await readCachedRecords(outside);
    if (cached.state !== 'missing') return { cacheDir: outside, cached };
  }
  const cacheDir = ownCacheDir(root);
  // The vault's own cache of a vault this user cannot write may be private to its owner: then there is none to start from.
  const cached = await readCachedRecords(cacheDir).catch((error: unknown) => {
    if (outside === undefined) throw error;
    return { state: 'missing' } as const;
  });
  return { cacheDir, cached };
}

function textIndexStatus(cached: CachedRecords, files: readonly FileStat[], records: readonly NoteRecord[] | undefined): TextIndexStatus {
  if (cached.state === 'missing') return { state: 'not-indexed' };
  if (cached.state !== 'saved') return { state: cached.state, bytes: cached.bytes, savedMs: cached.savedMs };
  return { state: 'saved', bytes: cached.bytes, savedMs: cached.savedMs, ...indexDrift(files, records ?? cached.records) };
}

/**
 * The notes the vector snapshot covers. With the text index's records, only
 * notes still in the vault count (the snapshot keeps ids, the records say
 * which ids are where); without them, every note the snapshot holds.
 */
async function embeddingStatus(cache: string, files: readonly FileStat[], records: readonly NoteRecord[] | undefined): Promise<EmbeddingStatus> {
  const summary = await readSnapshotSummary(vectorsDir(cache));
  if (summary === 'missing') return { state: 'not-embedded' };
  if ('problem' in summary) return { state: 'unusable', problem: summary.problem };
  const onDisk = new Set(files.map((file) => file.path));
  const present = records === undefined ? undefined : new Set(records.filter((item) => onDisk.has(item.path)).map((item) => item.id));
  const count = (ids: readonly string[]): number => (present === undefined ? ids.length : ids.filter((id) => present.has(id)).length);
  const notesInFull = count(summary.complete);
  return {
    state: 'embedded',
    model: summary.embedderId,
    dimensions: summary.dimensions,
    notesWithOpening: notesInFull + count(summary.opening),
    notesInFull,
    bytes: summary.bytes,
    savedMs: summary.savedMs,
  };
}

/**
 * A file that cannot be read (edited by hand, another user's, a `.dexi` that
 * is a file): said in its section, so the rest of the status still shows.
 */
function problemOf(error: unknown, file: string): string {
  if (error instanceof DexiError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined) return `${file} cannot be read (${describeCode(code)})`;
  throw error;
}

async function feedsStatus(root: string): Promise<FeedsStatus> {
  try {
    const feeds = await readSubscriptions(root);
    const pulls = feeds.map((feed) => feed.lastPulled).filter((time): time is string => time !== undefined).sort();
    const failing = feeds.filter((feed) => feed.lastError !== undefined).map((feed) => ({ name: feed.name, url: feed.url, error: feed.lastError as string }));
    const last = pulls.at(-1);
    return { count: feeds.length, ...(last === undefined ? {} : { lastPulled: last }), failing };
  } catch (error) {
    return { count: 0, failing: [], problem: problemOf(error, feedsFile(root)) };
  }
}

async function tokensStatus(root: string): Promise<TokensStatus> {
  try {
    const tokens = await listTokens(root);
    const byScopes: Record<string, number> = {};
    for (const token of tokens) {
      const scopes = token.scopes.join(',');
      byScopes[scopes] = (byScopes[scopes] ?? 0) + 1;
    }
    return { count: tokens.length, byScopes };
  } catch (error) {
    return { count: 0, byScopes: {}, problem: problemOf(error, tokensFile(root)) };
  }
}

async function recordStatus(root: string): Promise<RecordStatus> {
  try {
    // As `activity` lists it: what a killed server left pending is judged from the files, not settled.
    const activity = new ActivityLog(root, systemClock, log);
    const entries = await settledEntries(activity, { persist: false });
    const kept = await activity.keptVersions().catch((error: unknown) => {
      throw new DexiError(problemOf(error, historyDir(root)));
    });
    const { calls, undoable, unkept, last } = recordSummary(entries, kept);
    return { changes: calls, undoable, unkept, ...(last === undefined ? {} : { last: { time: last.time, tool: last.tool, by: last.by, change: changeText(last) } }) };
  } catch (error) {
    return { changes: 0, undoable: 0, unkept: 0, problem: problemOf(error, activityFile(root)) };
  }
}
