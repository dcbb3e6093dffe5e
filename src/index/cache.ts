import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AsPlainObject } from 'minisearch';
import { replaceFileAtomic } from '../files/atomic.js';
import type { NoteRecord } from '../vault/note.js';

/**
 * Bump whenever what is stored, or how notes are parsed, changes: an older
 * snapshot is then rebuilt rather than trusted.
 */
export const CACHE_VERSION = 2;

export interface CacheSnapshot {
  records: NoteRecord[];
  fulltext: AsPlainObject;
}

interface StoredSnapshot {
  version: number;
  savedAt: string;
  records: unknown[];
  fulltext: AsPlainObject;
}

export function cacheDir(vaultRoot: string): string {
  return path.join(vaultRoot, '.dexi', 'cache');
}

/** Make the cache folder, with a `.gitignore` so that a git-synced vault never commits it. */
export async function ensureCacheDir(vaultRoot: string): Promise<string> {
  const dir = cacheDir(vaultRoot);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, '.gitignore'), '*\n', { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  return dir;
}

function reviveRecord(raw: unknown): NoteRecord | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const record = raw as NoteRecord & { review?: { due: unknown } };
  const valid =
    typeof record.id === 'string' &&
    typeof record.path === 'string' &&
    typeof record.hash === 'string' &&
    typeof record.title === 'string' &&
    typeof record.size === 'number' &&
    typeof record.mtimeMs === 'number' &&
    typeof record.createdMs === 'number' &&
    typeof record.updatedMs === 'number' &&
    Array.isArray(record.tags);
  if (!valid) return undefined;
  if (record.review) {
    const due = new Date(String(record.review.due));
    if (Number.isNaN(due.getTime())) return undefined;
    record.review = { ...record.review, due };
  }
  return record;
}

/**
 * Load the saved snapshot, or undefined when there is none, it is from
 * another version, or anything in it does not look right.
 */
export async function loadSnapshot(vaultRoot: string, log: (line: string) => void): Promise<CacheSnapshot | undefined> {
  const file = path.join(cacheDir(vaultRoot), 'notes.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const stored = JSON.parse(text) as StoredSnapshot;
    if (stored.version !== CACHE_VERSION) {
      log(`The index cache is from another version; rebuilding it.`);
      return undefined;
    }
    if (!Array.isArray(stored.records) || typeof stored.fulltext !== 'object' || stored.fulltext === null) throw new Error('bad shape');
    const records: NoteRecord[] = [];
    for (const raw of stored.records) {
      const record = reviveRecord(raw);
      if (!record) throw new Error('bad record');
      records.push(record);
    }
    return { records, fulltext: stored.fulltext };
  } catch {
    log('The index cache is damaged; rebuilding it.');
    return undefined;
  }
}

export async function saveSnapshot(vaultRoot: string, snapshot: CacheSnapshot): Promise<void> {
  const dir = await ensureCacheDir(vaultRoot);
  const stored: StoredSnapshot = {
    version: CACHE_VERSION,
    savedAt: new Date().toISOString(),
    records: snapshot.records,
    fulltext: snapshot.fulltext,
  };
  await replaceFileAtomic(path.join(dir, 'notes.json'), JSON.stringify(stored));
}
