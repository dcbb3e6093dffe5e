import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { replaceFileAtomic } from '../files/atomic.js';
import { isIgnoredPath, isNoteFileName } from './ignore.js';

/*
 * Note dates from git history (spec/vault.md, "Identity, dates and what the
 * server writes"): `created` falls back to the time of the commit that first
 * added the file, following renames; `updated` to the time of the file's last
 * commit while the file is unchanged since then. Both come from one pass over
 * the history, replayed oldest first, and are cached by HEAD commit.
 *
 * Rules of the replay (each commit's changes, parents before children):
 *
 * - A file's "lineage" starts where it is added and follows it through every
 *   rename git pairs (`-M`, similarity of 50% or more, so a rename with a
 *   small edit in the same commit still counts). `firstAddedMs` is the
 *   lineage's earliest commit time.
 * - A copy is a new file: copies are not detected (no `-C`), and a copy
 *   reported anyway starts its own lineage at the copying commit.
 * - A file deleted and later added again at the same path keeps its first
 *   add: "first added", and the way a vault loses and regains a note is a
 *   restore or a revert (this is also what `git log --follow` reports). A
 *   path a file was renamed away from is free instead: a new file there is a
 *   new note (the next "Untitled.md"). A delete or rename on one branch while
 *   another branch still changes the old path brings the lineage back there.
 * - The same path added on several branches: the earliest of the adds wins.
 * - Merges contribute only what the merge itself changed, i.e. what differs
 *   from every parent (git's combined diff, `-c`): conflict resolutions and
 *   files the merge added or removed by hand. Everything a side branch did is
 *   seen in the side branch's own commits, with their own times, so a note
 *   written on another device keeps the time it was committed there rather
 *   than the time of the merge.
 * - `lastCommitMs` is the latest commit, in the replay's order, that gave the
 *   path its HEAD content (a pure rename counts: it changed where the file
 *   is). Committer times are used throughout: they are when a change entered
 *   the history, and tests can set them.
 */

/** Bump when what is cached, or how it is computed, changes: an older cache is rebuilt. */
export const GIT_HISTORY_CACHE_VERSION = 1;
export const GIT_HISTORY_CACHE_FILE = 'git-history.json';

export interface GitFileDates {
  /** Committer time of the commit that first added the file, following renames. */
  firstAddedMs: number;
  /** Committer time of the last commit that gave the file its content at HEAD. */
  lastCommitMs: number;
  /** The file's blob id at HEAD: compare with `gitBlobId(content, history.objectFormat)`. */
  blob: string;
}

export type GitObjectFormat = 'sha1' | 'sha256';

export interface GitHistory {
  /** The HEAD commit the dates were computed for. */
  head: string;
  /** The repository's hash function, needed to compute blob ids that match `blob`. */
  objectFormat: GitObjectFormat;
  /** Notes present at HEAD, keyed by vault-relative path ('/' separators, Unicode NFC). */
  files: Map<string, GitFileDates>;
}

export interface ReadGitHistoryOptions {
  /** Where `git-history.json` is kept; the caller keeps the folder out of git (`.gitignore` of `*`). */
  cacheDir: string;
  log: (line: string) => void;
  signal?: AbortSignal;
  /** The git program; a setting, and how tests simulate a machine without git. */
  gitBinary?: string;
  /** The HEAD the caller already has dates for: if HEAD is still there, only `rev-parse` runs and the answer is 'unchanged'. */
  knownHead?: string | undefined;
}

/**
 * Git's blob id of a file's bytes, `hash("blob " + byteLength + "\0" + bytes)`,
 * so that a note's current content can be compared with HEAD without running
 * git. A file git stores through a filter (line-ending conversion, LFS) never
 * matches, and its `updated` falls back to the modification time: a mismatch
 * only ever costs precision, never gives a wrong commit time.
 */
export function gitBlobId(content: string | Uint8Array, objectFormat: GitObjectFormat = 'sha1'): string {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return createHash(objectFormat === 'sha256' ? 'sha256' : 'sha1')
    .update(`blob ${bytes.byteLength}\0`)
    .update(bytes)
    .digest('hex');
}

interface Lineage {
  firstAddedMs: number;
}

/** What the replay learns about one path present at HEAD (repository-relative). */
interface HeadFile {
  blob: string;
  /** The path's blob at the current point of the replay; undefined while the path does not exist. */
  current: string | undefined;
  /** When the replay last saw the path take its HEAD blob. */
  matchedMs: number | undefined;
  /** When the replay last saw any change to the path. */
  touchedMs: number | undefined;
}

/** Replays the history's changes, oldest first, over repository-relative NFC paths. */
class HistoryReplay {
  commits = 0;
  private timeMs = 0;
  /** Paths that exist at the current point of the replay. */
  private readonly live = new Map<string, Lineage>();
  /** Paths deleted: the same path added again (a restore, a revert) is the same file coming back. */
  private readonly deleted = new Map<string, Lineage>();
  /**
   * Paths renamed away: the lineage went with the rename, so a new file at
   * the old path is a new file; only a branch that still changes the old
   * path (made before the rename) brings the lineage back there.
   */
  private readonly movedAway = new Map<string, Lineage>();

  constructor(private readonly head: Map<string, HeadFile>) {}

  startCommit(timeMs: number): void {
    this.commits += 1;
    this.timeMs = timeMs;
  }

  added(file: string, blob: string): void {
    const lineage = this.live.get(file) ?? this.deleted.get(file);
    if (lineage) lineage.firstAddedMs = Math.min(lineage.firstAddedMs, this.timeMs);
    this.exists(file, lineage ?? { firstAddedMs: this.timeMs });
    this.sawBlob(file, blob);
  }

  changed(file: string, blob: string): void {
    this.exists(file, this.live.get(file) ?? this.deleted.get(file) ?? this.movedAway.get(file) ?? { firstAddedMs: this.timeMs });
    this.sawBlob(file, blob);
  }

  removed(file: string): void {
    const lineage = this.live.get(file);
    if (lineage) {
      this.live.delete(file);
      this.deleted.set(file, lineage);
    }
    this.sawBlob(file, undefined);
  }

  renamed(from: string, to: string, blob: string): void {
    const lineage = this.live.get(from) ?? this.deleted.get(from) ?? this.movedAway.get(from) ?? { firstAddedMs: this.timeMs };
    if (this.live.delete(from)) {
      this.deleted.delete(from);
      this.movedAway.set(from, lineage);
    }
    this.sawBlob(from, undefined);
    // Renamed onto a path that another branch already holds: one file now, the earlier of the two.
    const existing = this.live.get(to);
    if (existing && existing !== lineage) lineage.firstAddedMs = Math.min(lineage.firstAddedMs, existing.firstAddedMs);
    this.exists(to, lineage);
    this.sawBlob(to, blob);
  }

  private exists(file: string, lineage: Lineage): void {
    this.live.set(file, lineage);
    this.deleted.delete(file);
    this.movedAway.delete(file);
  }

  private sawBlob(file: string, blob: string | undefined): void {
    const headFile = this.head.get(file);
    if (!headFile) return;
    headFile.touchedMs = this.timeMs;
    if (blob === headFile.current) return;
    headFile.current = blob;
    if (blob === headFile.blob) headFile.matchedMs = this.timeMs;
  }

  /** The dates of the HEAD files under `prefix`, keyed by their path below it. */
  result(prefix: string): Map<string, GitFileDates> {
    const files = new Map<string, GitFileDates>();
    for (const [file, headFile] of this.head) {
      const lineage = this.live.get(file) ?? this.deleted.get(file) ?? this.movedAway.get(file);
      // A HEAD file the replay never saw (a history cut short): no date is better than a guess.
      if (!lineage) continue;
      const lastCommitMs = headFile.matchedMs ?? headFile.touchedMs ?? lineage.firstAddedMs;
      // Committer clocks can be skewed; a note is never created after its last change.
      files.set(file.slice(prefix.length), { firstAddedMs: Math.min(lineage.firstAddedMs, lastCommitMs), lastCommitMs, blob: headFile.blob });
    }
    return files;
  }
}

/** Splits git's `-z` output into UTF-8 strings, across chunk boundaries, decoding each whole (a character split between chunks stays intact). */
class NulSplitter {
  private rest: Buffer | undefined;

  constructor(private readonly onToken: (token: string) => void) {}

  push(chunk: Uint8Array): void {
    let buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.rest) {
      buffer = Buffer.concat([this.rest, buffer]);
      this.rest = undefined;
    }
    let start = 0;
    for (let end = buffer.indexOf(0, start); end !== -1; end = buffer.indexOf(0, start)) {
      this.onToken(buffer.toString('utf8', start, end));
      start = end + 1;
    }
    if (start < buffer.length) this.rest = Buffer.from(buffer.subarray(start));
  }

  end(): void {
    if (this.rest) this.onToken(this.rest.toString('utf8'));
    this.rest = undefined;
  }
}

class GitOutputError extends Error {}

const COMMIT_MARK = '\x01';

/** A raw diff line (`:old new oldblob newblob status`) waiting for the paths that follow it. */
interface PendingChange {
  status: string;
  blob: string;
  /** For a merge's combined line: whether the path is new relative to every parent. */
  addedInMerge: boolean;
  pathsNeeded: number;
  paths: string[];
}

/**
 * Parses `git log -z --raw --format=%x01%ct` output (combined lines `::…` for
 * merges) and feeds the replay. Paths are NFC-normalised here, once.
 */
class GitLogParser {
  private pending: PendingChange | undefined;

  constructor(private readonly replay: HistoryReplay) {}

  token(token: string): void {
    if (this.pending) {
      this.pending.paths.push(token.normalize('NFC'));
      if (this.pending.paths.length === this.pending.pathsNeeded) {
        this.apply(this.pending);
        this.pending = undefined;
      }
      return;
    }
    // git separates a commit's header from its first diff line with a newline, and sometimes with an empty field.
    const field = token.startsWith('\n') ? token.slice(1) : token;
    if (field === '') return;
    if (field.startsWith(COMMIT_MARK)) {
      const seconds = Number(field.slice(1).trim());
      if (!Number.isFinite(seconds)) throw new GitOutputError(`unexpected commit line ${JSON.stringify(field)}`);
      this.replay.startCommit(seconds * 1000);
    } else if (field.startsWith(':')) {
      this.pending = parseRawLine(field);
    } else {
      throw new GitOutputError(`unexpected field ${JSON.stringify(field.slice(0, 80))}`);
    }
  }

  end(): void {
    if (this.pending) throw new GitOutputError('git log output ended inside a change');
  }

  private apply(change: PendingChange): void {
    const [first, second] = change.paths as [string, string | undefined];
    const kind = change.status[0];
    if (kind === 'R' && second !== undefined) this.replay.renamed(first, second, change.blob);
    else if (kind === 'C' && second !== undefined) this.replay.added(second, change.blob);
    else if (kind === 'D') this.replay.removed(first);
    else if (kind === 'A' || change.addedInMerge) this.replay.added(first, change.blob);
    else if (kind === 'M' || kind === 'T') this.replay.changed(first, change.blob);
    // 'U' (unmerged) and 'X' (unknown) do not occur in a log of commits; nothing to learn from them.
  }
}

function parseRawLine(line: string): PendingChange {
  let parents = 0;
  while (line[parents] === ':') parents += 1;
  const fields = line.slice(parents).split(' ');
  // One mode and one blob per parent plus the result's, then the status (one letter per parent for a merge).
  if (fields.length !== 2 * parents + 3) throw new GitOutputError(`unexpected change line ${JSON.stringify(line)}`);
  const resultMode = fields[parents] as string;
  const blob = fields[2 * parents + 1] as string;
  const status = fields[2 * parents + 2] as string;
  if (parents === 1) {
    const kind = status[0];
    return { status, blob, addedInMerge: false, pathsNeeded: kind === 'R' || kind === 'C' ? 2 : 1, paths: [] };
  }
  // A combined line: a path the merge removed has no result; one new to every parent was added by the merge.
  const removed = /^0+$/.test(resultMode);
  return { status: removed ? 'D' : 'M', blob, addedInMerge: !removed && /^A+$/.test(status), pathsNeeded: 1, paths: [] };
}

/**
 * The HEAD files from `git ls-tree -r -z --full-name`, keyed by repository
 * path (NFC). Only notes under `prefix` are kept: the rest of a repository
 * (attachments, code beside a docs folder) would only take memory and cache.
 */
class LsTreeParser {
  readonly files = new Map<string, HeadFile>();

  constructor(private readonly prefix: string) {}

  token(token: string): void {
    if (token === '') return;
    const tab = token.indexOf('\t');
    const [mode, type, blob] = token.slice(0, tab).split(' ');
    if (tab === -1 || blob === undefined) throw new GitOutputError(`unexpected ls-tree line ${JSON.stringify(token.slice(0, 80))}`);
    // Regular files only: the vault scanner never follows a symbolic link, and a submodule is no note.
    if (type !== 'blob' || (mode !== '100644' && mode !== '100755')) return;
    const file = token.slice(tab + 1).normalize('NFC');
    if (!file.startsWith(this.prefix)) return;
    const inVault = file.slice(this.prefix.length);
    if (!isNoteFileName(path.posix.basename(inVault)) || isIgnoredPath(inVault)) return;
    this.files.set(file, { blob, current: undefined, matchedMs: undefined, touchedMs: undefined });
  }
}

/** git's output whole, or in the chunks it arrived in. */
export type GitOutput = string | Uint8Array | readonly Uint8Array[];

/**
 * Pure: turn the output of `git ls-tree -r -z --full-name <head>` and of the
 * one `git log` pass (GIT_LOG_ARGS) into the dates of the notes at HEAD.
 * Paths in both outputs are repository-relative; `prefix` is the vault's
 * folder inside the repository ('' or ending in '/', as `git rev-parse
 * --show-prefix` gives it) and is removed from the keys. Throws on output
 * that is not in that shape.
 */
export function parseGitLog(logOutput: GitOutput, lsTreeOutput: GitOutput, prefix = ''): Map<string, GitFileDates> {
  const vaultPrefix = prefix.normalize('NFC');
  const lsTree = new LsTreeParser(vaultPrefix);
  const tree = new NulSplitter((token) => lsTree.token(token));
  for (const chunk of chunksOf(lsTreeOutput)) tree.push(chunk);
  tree.end();
  const replay = new HistoryReplay(lsTree.files);
  const parser = new GitLogParser(replay);
  const log = new NulSplitter((token) => parser.token(token));
  for (const chunk of chunksOf(logOutput)) log.push(chunk);
  log.end();
  parser.end();
  return replay.result(vaultPrefix);
}

function chunksOf(output: GitOutput): readonly Uint8Array[] {
  if (typeof output === 'string') return [Buffer.from(output, 'utf8')];
  return output instanceof Uint8Array ? [output] : output;
}

/*
 * Safety of running git on the person's repository. Only read commands run
 * (rev-parse, ls-tree, log; never `status`, which refreshes the index), with
 * optional locks off, and with every setting that could make them start
 * another program or change the output's shape pinned on the command line:
 * no pager, no fsmonitor hook, no signature checks (gpg), no external diff
 * or text conversion, no colour, paths from the repository root.
 */
const GIT_SAFETY_ARGS = [
  '--no-pager',
  '-c', 'core.fsmonitor=false',
  '-c', 'log.showSignature=false',
  '-c', 'diff.relative=false',
  '-c', 'color.ui=false',
];

/**
 * The one pass over the history: oldest first (`--reverse`) in date order,
 * which still puts every parent before its children; every commit's changes
 * as raw lines with full blob ids; renames paired (`-M`); merges as combined
 * lines (`-c`, only what differs from every parent); the root commit's files
 * as added (`--root`, whatever log.showRoot says); `-z` so that any path
 * comes through byte for byte.
 */
export const GIT_LOG_ARGS = [
  'log', '--reverse', '--date-order', '--root', '--raw', '--no-abbrev', '-M', '-c', '-z',
  '--no-ext-diff', '--no-textconv', '--no-color', '--format=%x01%ct',
];

// The vault, not variables the server happened to inherit (from a git hook or
// an editor's terminal), decides which repository is read and how.
const INHERITED_GIT_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_PREFIX', 'GIT_NAMESPACE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_EXTERNAL_DIFF'];

function gitEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of INHERITED_GIT_VARIABLES) delete env[name];
  // No index.lock or other optional writes into .git for reading.
  env.GIT_OPTIONAL_LOCKS = '0';
  env.GIT_PAGER = 'cat';
  env.GIT_TERMINAL_PROMPT = '0';
  // A partial clone would otherwise fetch missing blobs for rename detection (git 2.44 and later honour this).
  env.GIT_NO_LAZY_FETCH = '1';
  return env;
}

type GitRun = { kind: 'exited'; code: number; stderr: string } | { kind: 'unavailable'; reason: string };

const STDERR_KEPT = 4096;

/**
 * Run git, handing its output to `onStdout` as it arrives (a history of tens
 * of thousands of commits is tens of megabytes: never buffered whole). git
 * that cannot be started at all (not installed: ENOENT) is "unavailable"; an
 * exception from `onStdout` stops git and rejects, and so does an abort.
 */
function runGit(gitBinary: string, args: string[], cwd: string, onStdout: (chunk: Buffer) => void, signal?: AbortSignal): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(gitBinary, [...GIT_SAFETY_ARGS, ...args], {
      cwd,
      env: gitEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      ...(signal ? { signal } : {}),
    });
    let stderr = '';
    let failure: unknown;
    child.stdout.on('data', (chunk: Buffer) => {
      if (failure !== undefined) return;
      try {
        onStdout(chunk);
      } catch (error) {
        failure = error;
        child.kill();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_KEPT) stderr += chunk.toString('utf8');
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (failure !== undefined) return;
      failure = error;
      if (signal?.aborted) reject(signal.reason);
      else if (error.code === 'ENOENT') resolve({ kind: 'unavailable', reason: 'git is not installed' });
      else resolve({ kind: 'unavailable', reason: `git could not be started: ${error.message}` });
    });
    child.on('close', (code) => {
      if (failure === undefined) resolve({ kind: 'exited', code: code ?? -1, stderr: stderr.trim() });
      else reject(signal?.aborted ? signal.reason : failure);
    });
  });
}

async function runGitCollect(gitBinary: string, args: string[], cwd: string, signal?: AbortSignal): Promise<{ run: GitRun; stdout: string }> {
  const chunks: Buffer[] = [];
  const run = await runGit(gitBinary, args, cwd, (chunk) => chunks.push(chunk), signal);
  return { run, stdout: Buffer.concat(chunks).toString('utf8') };
}

interface Repository {
  head: string;
  prefix: string;
  objectFormat: GitObjectFormat;
}

type Located = { kind: 'repository'; repository: Repository } | { kind: 'none' } | { kind: 'no-git'; reason: string };

/** One `rev-parse`: whether the vault is in a work tree, where in it, and the HEAD commit. */
async function locateRepository(gitBinary: string, vaultRoot: string, log: (line: string) => void, signal?: AbortSignal): Promise<Located> {
  const { run, stdout } = await runGitCollect(gitBinary, ['rev-parse', '--is-inside-work-tree', '--show-prefix', '--verify', '--quiet', 'HEAD^{commit}'], vaultRoot, signal);
  if (run.kind === 'unavailable') return { kind: 'no-git', reason: run.reason };
  const [inside, prefix, head] = stdout.split('\n');
  if (run.code !== 0 || inside !== 'true' || head === undefined || !/^([0-9a-f]{40}|[0-9a-f]{64})$/.test(head)) {
    // Exit 1 in a work tree is a repository without commits, and not a repository is 128: both simply have no history.
    // git's refusal of a repository owned by someone else names the setting that allows it: worth telling.
    if (run.stderr.includes('safe.directory')) log(`Git history skipped: ${run.stderr.split('\n')[0]}`);
    return { kind: 'none' };
  }
  return { kind: 'repository', repository: { head, prefix: prefix ?? '', objectFormat: head.length === 64 ? 'sha256' : 'sha1' } };
}

interface CacheFile {
  version: number;
  head: string;
  prefix: string;
  objectFormat: GitObjectFormat;
  /** [vault path, firstAddedMs, lastCommitMs, blob] */
  files: Array<[string, number, number, string]>;
}

async function loadCache(file: string, repository: Repository): Promise<Map<string, GitFileDates> | 'missing' | 'stale' | 'damaged'> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  let cache: CacheFile;
  try {
    cache = JSON.parse(text) as CacheFile;
  } catch {
    return 'damaged';
  }
  if (typeof cache !== 'object' || cache === null || !Array.isArray(cache.files)) return 'damaged';
  if (cache.version !== GIT_HISTORY_CACHE_VERSION || cache.head !== repository.head || cache.prefix !== repository.prefix || cache.objectFormat !== repository.objectFormat) return 'stale';
  const files = new Map<string, GitFileDates>();
  for (const entry of cache.files as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 4) return 'damaged';
    const [file, firstAddedMs, lastCommitMs, blob] = entry as unknown[];
    if (typeof file !== 'string' || typeof blob !== 'string' || !Number.isFinite(firstAddedMs) || !Number.isFinite(lastCommitMs)) return 'damaged';
    files.set(file, { firstAddedMs: firstAddedMs as number, lastCommitMs: lastCommitMs as number, blob });
  }
  return files;
}

async function saveCache(cacheDir: string, repository: Repository, files: Map<string, GitFileDates>): Promise<void> {
  const cache: CacheFile = {
    version: GIT_HISTORY_CACHE_VERSION,
    head: repository.head,
    prefix: repository.prefix,
    objectFormat: repository.objectFormat,
    files: [...files].map(([file, dates]) => [file, dates.firstAddedMs, dates.lastCommitMs, dates.blob]),
  };
  await mkdir(cacheDir, { recursive: true });
  // A temporary file in the same folder, renamed over the old cache: a crash leaves the old cache or the new, never half.
  await replaceFileAtomic(path.join(cacheDir, GIT_HISTORY_CACHE_FILE), JSON.stringify(cache));
}

/** Read the HEAD notes and replay the history over them. */
type Computed = { files: Map<string, GitFileDates>; commits: number; warnings: string } | { failed: string };

async function computeDates(gitBinary: string, vaultRoot: string, repository: Repository, signal?: AbortSignal): Promise<Computed> {
  const lsTree = new LsTreeParser(repository.prefix.normalize('NFC'));
  const tree = new NulSplitter((token) => lsTree.token(token));
  // The commit id, not HEAD, so that a commit made meanwhile cannot mix two states.
  const listed = await runGit(gitBinary, ['ls-tree', '-r', '-z', '--full-name', repository.head, '--', '.'], vaultRoot, (chunk) => tree.push(chunk), signal);
  if (listed.kind === 'unavailable') return { failed: listed.reason };
  if (listed.code !== 0) return { failed: `git ls-tree failed: ${listed.stderr}` };
  tree.end();
  // No notes at HEAD (a vault in an ignored folder of a larger repository): nothing to date, no history to read.
  if (lsTree.files.size === 0) return { files: new Map(), commits: 0, warnings: '' };

  const pass = async (args: readonly string[]): Promise<Computed> => {
    const replay = new HistoryReplay(lsTree.files);
    const parser = new GitLogParser(replay);
    const history = new NulSplitter((token) => parser.token(token));
    const logged = await runGit(gitBinary, [...args, repository.head, '--'], vaultRoot, (chunk) => history.push(chunk), signal);
    if (logged.kind === 'unavailable') return { failed: logged.reason };
    if (logged.code !== 0) return { failed: `git log failed: ${logged.stderr}` };
    history.end();
    parser.end();
    // git still succeeds when, say, a commit moved more files than its rename limit lets it pair: those renames start new lineages.
    return { files: replay.result(repository.prefix.normalize('NFC')), commits: replay.commits, warnings: logged.stderr };
  };
  const first = await pass(GIT_LOG_ARGS);
  if (!('failed' in first) || !MISSING_OBJECT.test(first.failed)) return first;
  // Pairing renames needs the files' contents; a partial or incomplete clone
  // lacks some. Trees alone still date every note, renames then starting anew.
  const second = await pass(GIT_LOG_ARGS.map((arg) => (arg === '-M' ? '--no-renames' : arg)));
  if ('failed' in second) return second;
  return { ...second, warnings: `renames not followed, the clone lacks objects they need (${first.failed.trim()})${second.warnings === '' ? '' : `\n${second.warnings}`}` };
}

/** git's words for an object the repository does not have. */
const MISSING_OBJECT = /unable to read|missing (blob|tree|object)|could not read|bad object|promisor/i;

function count(n: number, noun: string): string {
  return `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * The git dates of the vault's notes at HEAD. Undefined when the vault is not
 * in a git work tree, git is not installed, the repository has no commit yet
 * or git fails on it (logged): dates then fall back to the file system, so
 * none of these throws. Only an abort through `signal` rejects.
 *
 * While HEAD stays the same the result comes from `<cacheDir>/git-history.json`
 * and only `git rev-parse` runs; a damaged cache is rebuilt.
 */
export async function readGitHistory(vaultRoot: string, options: ReadGitHistoryOptions): Promise<GitHistory | 'unchanged' | undefined> {
  const { cacheDir, log, signal } = options;
  const gitBinary = options.gitBinary ?? 'git';
  signal?.throwIfAborted();
  const located = await locateRepository(gitBinary, vaultRoot, log, signal);
  if (located.kind === 'no-git') {
    log(`Note dates from git history are skipped: ${located.reason}.`);
    return undefined;
  }
  if (located.kind === 'none') return undefined;
  const { repository } = located;
  if (options.knownHead === repository.head) return 'unchanged';

  const cacheFile = path.join(cacheDir, GIT_HISTORY_CACHE_FILE);
  const cached = await loadCache(cacheFile, repository).catch(() => 'damaged' as const);
  if (cached instanceof Map) return { head: repository.head, objectFormat: repository.objectFormat, files: cached };
  if (cached === 'damaged') log(`The git history cache ${cacheFile} is damaged or unreadable; reading the history again.`);

  signal?.throwIfAborted();
  const started = performance.now();
  let computed: Awaited<ReturnType<typeof computeDates>>;
  try {
    computed = await computeDates(gitBinary, vaultRoot, repository, signal);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (!(error instanceof GitOutputError)) throw error;
    computed = { failed: `unexpected output from git: ${error.message}` };
  }
  if ('failed' in computed) {
    log(`Git history skipped: ${computed.failed}`);
    return undefined;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (computed.warnings !== '') log(`git: ${computed.warnings.split('\n')[0]}`);
  log(`Read the git history: ${count(computed.commits, 'commit')}, dates for ${count(computed.files.size, 'note')}, in ${seconds} s.`);
  await saveCache(cacheDir, repository, computed.files).catch((error: Error) => log(`Could not save the git history cache: ${error.message}`));
  return { head: repository.head, objectFormat: repository.objectFormat, files: computed.files };
}
