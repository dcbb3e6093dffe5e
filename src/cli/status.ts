/**
 * `dexi-vault status`: where a vault stands, as the lines a person reads in
 * one screen and as one JSON object for scripts. Everything here is pure:
 * commands/status.ts gathers a `VaultStatus` from the disk, and these
 * functions only word it.
 */
import { counted } from '../format/counts.js';
import { formatLocal } from '../format/time.js';
import { sizeText } from '../import/enclosures.js';
import { printable } from '../storage/filenames.js';
import type { FileStat } from '../vault/scan.js';
import type { NoteRecord } from '../vault/note.js';
import { unchangedFile } from '../vault/loader.js';
import { columns } from './columns.js';

/** The text index cache: none, one the next start cannot use, or one with how far the notes have moved on since it was saved. */
export type TextIndexStatus =
  | { state: 'not-indexed' }
  | { state: 'other-version' | 'damaged'; bytes: number; savedMs: number }
  | ({ state: 'saved'; bytes: number; savedMs: number } & IndexDrift);

/** The vector snapshot: none, one the next start cannot use, or which notes it covers. */
export type EmbeddingStatus =
  | { state: 'not-embedded' }
  | { state: 'unusable'; problem: string }
  | { state: 'embedded'; model: string; dimensions: number; notesWithOpening: number; notesInFull: number; bytes: number; savedMs: number };

/** Feeds, tokens and the record are read from files a person may have edited: `problem`, a sentence, when one cannot be read. */
export interface FeedsStatus {
  count: number;
  lastPulled?: string;
  failing: { name: string; url: string; error: string }[];
  problem?: string;
}

export interface TokensStatus {
  count: number;
  /** Tokens by their scopes, joined with a comma as `token list` shows them. */
  byScopes: Record<string, number>;
  problem?: string;
}

export interface RecordStatus {
  /** Tool calls on record, undos included. */
  changes: number;
  /** Calls not undone yet whose earlier versions .dexi/history still keeps. */
  undoable: number;
  /** Calls not undone yet that can no longer be: a version they would put back was pruned. */
  unkept: number;
  last?: { time: string; tool: string; by: string; change: string };
  problem?: string;
}

export interface VaultStatus {
  vault: string;
  notes: number;
  folders: number;
  /** Why dexi-vault cannot write the vault; undefined when it can. */
  readOnlyBecause?: string;
  /** The cache folder the indexes were looked for in. */
  cacheDir: string;
  textIndex: TextIndexStatus;
  embeddings: EmbeddingStatus;
  feeds: FeedsStatus;
  tokens: TokensStatus;
  record: RecordStatus;
}

/** What the next start reads again: notes whose file is not as the cache saw it, new files, and notes the cache holds that are gone. */
export interface IndexDrift {
  changed: number;
  added: number;
  removed: number;
}

/** How the files on disk differ from the cached records, judged as the loader judges them (`unchangedFile`). Pure. */
export function indexDrift(files: readonly FileStat[], records: readonly NoteRecord[]): IndexDrift {
  const byPath = new Map(records.map((record) => [record.path, record]));
  let changed = 0;
  let added = 0;
  for (const file of files) {
    const known = byPath.get(file.path);
    if (known === undefined) added++;
    else if (!unchangedFile(file, known)) changed++;
  }
  const present = new Set(files.map((file) => file.path));
  const removed = records.filter((record) => !present.has(record.path)).length;
  return { changed, added, removed };
}

/** How long ago `thenMs` was, in the largest whole unit: "just now", "5 minutes ago", "1 day ago". Pure. */
export function ageText(thenMs: number, nowMs: number): string {
  const seconds = Math.floor((nowMs - thenMs) / 1000);
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${counted(minutes, 'minute')} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${counted(hours, 'hour')} ago`;
  return `${counted(Math.floor(hours / 24), 'day')} ago`;
}

function when(iso: string, nowMs: number): string {
  const date = new Date(iso);
  return `${formatLocal(date, 'minute')} (${ageText(date.getTime(), nowMs)})`;
}

function textIndexLine(status: VaultStatus, nowMs: number): string {
  const index = status.textIndex;
  if (index.state === 'not-indexed') return 'not indexed yet; run dexi-vault index';
  const age = ageText(index.savedMs, nowMs);
  const size = sizeText(index.bytes);
  if (index.state !== 'saved') return `${index.state === 'damaged' ? 'damaged' : 'made by another version'} (saved ${age}, ${size}); the next start or index rebuilds it`;
  const drift = [
    index.changed > 0 ? `${counted(index.changed, 'note')} changed` : '',
    index.added > 0 ? `${counted(index.added, 'note')} added` : '',
    index.removed > 0 ? `${counted(index.removed, 'note')} removed` : '',
  ].filter(Boolean);
  if (drift.length === 0) return `up to date (saved ${age}, ${size})`;
  return `out of date: ${drift.join(', ')} since it was saved ${age} (${size}); the next start or index catches up`;
}

function embeddingsLine(status: VaultStatus, nowMs: number): string {
  const vectors = status.embeddings;
  if (vectors.state === 'not-embedded') return 'not embedded yet; run dexi-vault index (with --model none there is no semantic search)';
  if (vectors.state === 'unusable') return `cannot be used (${vectors.problem}); the next start with a model embeds every note again`;
  const opening = `${vectors.notesWithOpening.toLocaleString('en')} of ${counted(status.notes, 'note')} with their opening embedded, ${vectors.notesInFull.toLocaleString('en')} in full`;
  return `${printable(vectors.model)}: ${opening} (saved ${ageText(vectors.savedMs, nowMs)}, ${sizeText(vectors.bytes)})`;
}

/** At most this many failing feeds are named; the rest are counted. */
const FAILING_NAMED = 3;

function feedsLine(feeds: FeedsStatus, nowMs: number): string {
  if (feeds.problem !== undefined) return printable(feeds.problem);
  if (feeds.count === 0) return 'none; follow one with dexi-vault feeds add URL';
  const pulled = feeds.lastPulled === undefined ? 'never pulled' : `last pulled ${when(feeds.lastPulled, nowMs)}`;
  if (feeds.failing.length === 0) return `${counted(feeds.count, 'feed')}, ${pulled}`;
  const named = feeds.failing.slice(0, FAILING_NAMED).map((feed) => `${printable(feed.name)} (${printable(feed.error)})`);
  const more = feeds.failing.length > FAILING_NAMED ? ` and ${(feeds.failing.length - FAILING_NAMED).toLocaleString('en')} more` : '';
  const verb = feeds.failing.length === 1 ? 'failed its last pull' : 'failed their last pull';
  return `${counted(feeds.count, 'feed')}, ${pulled}; ${feeds.failing.length.toLocaleString('en')} ${verb}: ${named.join('; ')}${more}`;
}

function tokensLine(tokens: TokensStatus): string {
  if (tokens.problem !== undefined) return printable(tokens.problem);
  if (tokens.count === 0) return 'none; make one for serve --http with dexi-vault token create --name NAME';
  const kinds = Object.entries(tokens.byScopes)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([scopes, count]) => `${count.toLocaleString('en')} ${scopes}`);
  return `${counted(tokens.count, 'token')}: ${kinds.join(', ')}`;
}

function recordLine(record: RecordStatus, nowMs: number): string {
  if (record.problem !== undefined) return printable(record.problem);
  if (record.last === undefined) return 'none on record';
  const { time, tool, by, change } = record.last;
  const undoable = record.undoable === 0 ? 'none can be undone' : `${record.undoable.toLocaleString('en')} can be undone`;
  const unkept = record.unkept === 0 ? '' : ` (${record.unkept.toLocaleString('en')} more cannot be: .dexi/history no longer keeps what they replaced)`;
  return `${when(time, nowMs)} ${printable(tool)} ${printable(change)}, by ${printable(by)}; ${counted(record.changes, 'change')} on record, ${undoable}${unkept}`;
}

function readOnlyLine(status: VaultStatus): string {
  if (status.readOnlyBecause === undefined) return 'no';
  return `yes: the folder cannot be written (${status.readOnlyBecause}), so it is served read-only, its caches in ${printable(status.cacheDir)}`;
}

/** The lines `dexi-vault status` prints, a label and what it says of the vault. Pure. */
export function statusLines(status: VaultStatus, now: Date): string[] {
  const nowMs = now.getTime();
  const rows = [
    ['Vault', printable(status.vault)],
    ['Notes', `${counted(status.notes, 'note')} in ${counted(status.folders, 'folder')}`],
    ['Text index', textIndexLine(status, nowMs)],
    ['Embeddings', embeddingsLine(status, nowMs)],
    ['Feeds', feedsLine(status.feeds, nowMs)],
    ['Tokens', tokensLine(status.tokens)],
    ['Last change', recordLine(status.record, nowMs)],
    ['Read-only', readOnlyLine(status)],
  ];
  return columns(rows).trimEnd().split('\n');
}

/** `status --json`: every key always there (null where there is nothing to say), times in UTC as ISO 8601 (as the record of writes keeps them). Pure. */
export function statusJson(status: VaultStatus): Record<string, unknown> {
  const index = status.textIndex;
  const vectors = status.embeddings;
  const saved = index.state === 'not-indexed' ? undefined : index;
  const drift = index.state === 'saved' ? index : undefined;
  const embedded = vectors.state === 'embedded' ? vectors : undefined;
  return {
    vault: status.vault,
    notes: status.notes,
    folders: status.folders,
    readOnly: status.readOnlyBecause !== undefined,
    readOnlyBecause: status.readOnlyBecause ?? null,
    cacheDir: status.cacheDir,
    textIndex: {
      state: drift === undefined ? index.state : drift.changed + drift.added + drift.removed === 0 ? 'up-to-date' : 'out-of-date',
      bytes: saved?.bytes ?? null,
      savedAt: saved === undefined ? null : new Date(saved.savedMs).toISOString(),
      changed: drift?.changed ?? null,
      added: drift?.added ?? null,
      removed: drift?.removed ?? null,
    },
    embeddings: {
      state: vectors.state,
      model: embedded?.model ?? null,
      dimensions: embedded?.dimensions ?? null,
      notesWithOpening: embedded?.notesWithOpening ?? 0,
      notesInFull: embedded?.notesInFull ?? 0,
      of: status.notes,
      bytes: embedded?.bytes ?? null,
      savedAt: embedded === undefined ? null : new Date(embedded.savedMs).toISOString(),
      problem: vectors.state === 'unusable' ? vectors.problem : null,
    },
    feeds: { count: status.feeds.count, lastPulled: status.feeds.lastPulled ?? null, failing: status.feeds.failing, problem: status.feeds.problem ?? null },
    tokens: { count: status.tokens.count, byScopes: status.tokens.byScopes, problem: status.tokens.problem ?? null },
    activity: { changes: status.record.changes, undoable: status.record.undoable, unkept: status.record.unkept, last: status.record.last ?? null, problem: status.record.problem ?? null },
  };
}
