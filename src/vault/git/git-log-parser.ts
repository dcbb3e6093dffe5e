import path from 'node:path';
import { HistoryReplay, type GitFileDates, type HeadFile } from './git-history-replay.js';
import { isIgnoredPath, isNoteFileName } from '../ignore.js';

/*
 * Reading git's output, pure: the NUL-separated fields of `-z`, the raw diff
 * lines of the one `git log` pass, and the HEAD files of `git ls-tree`. The
 * changes read go to the replay (git-history-replay.ts). git-history.ts
 * runs git (through git-command.ts) and hands its output here.
 */

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

/** Splits git's `-z` output into UTF-8 strings, across chunk boundaries, decoding each whole (a character split between chunks stays intact). */
export class NulSplitter {
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

/** Output not in the shape these parsers read; readGitHistory then skips the history and logs why. */
export class GitOutputError extends Error {}

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
export class GitLogParser {
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
export class LsTreeParser {
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

