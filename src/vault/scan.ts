import { lstatSync, type Dirent, type Stats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import path from 'node:path';
import { TEMP_PREFIX } from '../storage/atomic.js';
import { isIgnoredName, isNoteFileName, MAX_NOTE_BYTES } from './ignore.js';

/** About 10 ms of stats between two turns of the event loop. */
const STATS_PER_SLICE = 2000;

export interface FileStat {
  path: string;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  birthtimeMs: number;
}

export interface ScanResult {
  files: FileStat[];
  /** Every folder below the root, empty ones too, vault-relative. */
  folders: string[];
  /** Temporary files versions before 0.2 left beside the notes they replaced (`.dexi-tmp-…`), vault-relative. */
  leftovers: string[];
}

/** How a folder is named in a log line. */
function folderLabel(relDir: string): string {
  return relDir === '' ? "the vault's top folder" : relDir;
}

/**
 * The names in a folder that are not valid UTF-8, as Node hands them over
 * (each bad byte becomes U+FFFD), with how many real names decode to each:
 * such a decoded name leads to no file. Read only for a folder where a name
 * holds U+FFFD, so ordinary folders are listed once.
 */
async function undecodableNames(absDir: string): Promise<Map<string, number>> {
  const names = new Map<string, number>();
  const raw = await readdir(absDir, { encoding: 'buffer' }).catch(() => [] as Buffer[]);
  for (const bytes of raw) {
    const decoded = bytes.toString('utf8');
    if (!Buffer.from(decoded, 'utf8').equals(bytes)) names.set(decoded, (names.get(decoded) ?? 0) + 1);
  }
  return names;
}

/**
 * List the notes and folders of a vault. Symbolic links are neither followed
 * nor listed, so a link can never pull a file from outside into the vault.
 * A note or folder whose name is not valid UTF-8 cannot be opened by the
 * name Node gives it, so it is skipped with a line saying so.
 */
export async function scanVault(
  root: string,
  log: (line: string) => void,
  onOversize: (vaultPath: string, size: number) => void = (rel, size) => log(`Skipping ${rel}: ${size} bytes is over the 4 MiB note limit.`),
): Promise<ScanResult> {
  const files: FileStat[] = [];
  const folders: string[] = [];
  const leftovers: string[] = [];
  const pending: string[] = [''];
  // Joined by hand: path.join over 100,000 notes took some 70 ms of a 0.8 s scan (BENCHMARKS.md, issue 31).
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  let sinceYield = 0;
  while (pending.length > 0) {
    const relDir = pending.pop() as string;
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(root, relDir), { withFileTypes: true });
    } catch (error) {
      if (relDir === '') throw error;
      log(`Skipping folder ${relDir}: ${(error as Error).message}`);
      continue;
    }
    let undecodable: Map<string, number> | undefined;
    for (const entry of entries) {
      if (entry.name.startsWith(TEMP_PREFIX) && entry.isFile()) leftovers.push(relDir === '' ? entry.name : `${relDir}/${entry.name}`);
      if (isIgnoredName(entry.name) || entry.isSymbolicLink()) continue;
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      if (entry.name.includes('\uFFFD') && (entry.isDirectory() || (entry.isFile() && isNoteFileName(entry.name)))) {
        undecodable ??= await undecodableNames(path.join(root, relDir));
        const left = undecodable.get(entry.name) ?? 0;
        if (left > 0) {
          // One skip per undecodable name; a name that truly holds U+FFFD, and decodes the same, is read as usual.
          undecodable.set(entry.name, left - 1);
          const kind = entry.isDirectory() ? 'folder' : 'file';
          const what = entry.isDirectory() ? 'read the notes in it' : 'read it';
          log(`Skipped a ${kind} whose name is not valid UTF-8 (shown as "${entry.name}") in ${folderLabel(relDir)}: rename it to ${what}.`);
          continue;
        }
      }
      if (entry.isDirectory()) {
        folders.push(rel);
        pending.push(rel);
      } else if (entry.isFile() && isNoteFileName(entry.name)) {
        // Synchronous stats, a slice at a time with the event loop free in
        // between: at 100,000 notes the promise form took 2.0 s and 1.9 s of
        // CPU, lstatSync 0.42-0.54 s (BENCHMARKS.md, issue 17).
        if (++sinceYield >= STATS_PER_SLICE) {
          sinceYield = 0;
          await yieldToEventLoop();
        }
        let stat: Stats | undefined;
        try {
          stat = lstatSync(prefix + (path.sep === '/' ? rel : rel.replaceAll('/', path.sep)), { throwIfNoEntry: false });
        } catch (error) {
          log(`Skipping ${rel}: ${(error as Error).message}`);
          continue;
        }
        if (!stat?.isFile()) continue;
        if (stat.size > MAX_NOTE_BYTES) {
          onOversize(rel, stat.size);
          continue;
        }
        files.push({ path: rel, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino, birthtimeMs: stat.birthtimeMs });
      }
    }
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  folders.sort();
  return { files, folders, leftovers };
}
