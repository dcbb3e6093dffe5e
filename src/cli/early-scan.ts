import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { cacheDir, INDEX_CACHE_FILE } from '../storage/dexi-dir.js';
import { beginScan, type EarlyScan } from '../vault/workers/scan-pool.js';

/**
 * An index cache this large holds some 20,000 notes or more (2.7 KB a note
 * at 100,000 generated notes). The early listing's worker starts while the
 * command's modules load, and costs `initialize` its share of the cores:
 * at 10,000 notes 390 ms against 329 (median of 9 spawns), where the warm
 * start (0.8 s) never waited for the listing anyway.
 */
const EARLY_SCAN_MIN_CACHE_BYTES = 50 * 1024 * 1024;

/**
 * The first read's listing of a large vault's files, begun on its worker
 * before `serve` loads the rest of its modules (the MCP SDK, the tools, the
 * vault model), and handed down to the vault's first read: at 100,000 notes
 * the listing (0.8 s of CPU, most of it 100,000 `lstat` calls) ended after
 * everything else a warm start does, and began 0.3 s after the process
 * did (BENCHMARKS.md, issue 31). Undefined for a small vault, one whose
 * cache is kept outside it, or a folder that cannot be looked at: the first
 * read lists the files itself then, as always.
 */
export function beginEarlyScan(vault: string): EarlyScan | undefined {
  try {
    const root = realpathSync(vault);
    const cache = statSync(path.join(cacheDir(root), INDEX_CACHE_FILE), { throwIfNoEntry: false });
    if (cache?.isFile() !== true || cache.size < EARLY_SCAN_MIN_CACHE_BYTES) return undefined;
    return { root, packed: beginScan(root, undefined, false) };
  } catch {
    return undefined;
  }
}
