import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { replaceFileAtomic } from '../../storage/atomic.js';
import { runGit, runGitCollect } from './git-command.js';
import { HistoryReplay, type GitFileDates } from './git-history-replay.js';
import { GIT_LOG_ARGS, GitLogParser, GitOutputError, LsTreeParser, NulSplitter } from './git-log-parser.js';
import { mayBeInRepository } from './repository-marker.js';

/*
 * Note dates from git history: find the vault's repository and HEAD, then
 * either take the dates from the cache file kept for that HEAD or list the
 * HEAD notes and replay the history over them (the rules of the replay are in
 * git-history-replay.ts, the reading of git's output in git-log-parser.ts,
 * how git is run in git-command.ts).
 */

export type { GitFileDates } from './git-history-replay.js';

/** Bump when what is cached, or how it is computed, changes: an older cache is rebuilt. */
export const GIT_HISTORY_CACHE_VERSION = 1;
export const GIT_HISTORY_CACHE_FILE = 'git-history.json';

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

interface Repository {
  head: string;
  prefix: string;
  objectFormat: GitObjectFormat;
}

type Located = { kind: 'repository'; repository: Repository } | { kind: 'none' } | { kind: 'no-git'; reason: string };

/** One `rev-parse` (none where git could find no repository: repository-marker.ts): whether the vault is in a work tree, where in it, and the HEAD commit. */
async function locateRepository(gitBinary: string, vaultRoot: string, log: (line: string) => void, signal?: AbortSignal): Promise<Located> {
  if (!(await mayBeInRepository(vaultRoot))) return { kind: 'none' };
  const { run, stdout } = await runGitCollect(gitBinary, ['rev-parse', '--is-inside-work-tree', '--show-prefix', '--verify', '--quiet', 'HEAD^{commit}'], vaultRoot, signal);
  if (run.kind === 'unavailable') return { kind: 'no-git', reason: run.reason };
  const [inside, prefix, head] = stdout.split('\n');
  if (run.code !== 0 || inside !== 'true' || head === undefined || !/^([0-9a-f]{40}|[0-9a-f]{64})$/.test(head)) {
    // Exit 1 in a work tree is a repository without commits, and not a repository is 128: both simply have no history.
    // git's refusal of a repository owned by someone else names the setting that allows it: worth telling.
    if (run.stderr.includes('safe.directory')) log(safeDirectorySentence(run.stderr));
    return { kind: 'none' };
  }
  return { kind: 'repository', repository: { head, prefix: prefix ?? '', objectFormat: head.length === 64 ? 'sha256' : 'sha1' } };
}

/**
 * git's refusal of a repository that belongs to another user (a colleague's
 * folder, a mounted snapshot), in a sentence: dates then come from the
 * files, and git's own command that would allow it is passed on, not run
 * (the check keeps a stranger's repository config from running programs).
 */
export function safeDirectorySentence(stderr: string): string {
  const allow = /git config --global --add safe\.directory \S.*/.exec(stderr)?.[0]?.trim();
  return `Git history skipped: git does not read a repository that belongs to another user, so dates come from the files' times${allow === undefined ? '' : `; if you trust it, "${allow}" lets it be read`}.`;
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
