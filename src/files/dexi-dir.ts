import { chmod, mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The server's own folder inside a vault, `.dexi/`: the only place it writes
 * on its own account. Caches, indexes and temporary files go in
 * `.dexi/cache/`, whose `.gitignore` of `*` keeps a git-synced vault's
 * `git status` clean (the `.gitignore` ignores itself too).
 */
export function dexiDir(vaultRoot: string): string {
  return path.join(vaultRoot, '.dexi');
}

/** The vault's settings (review decks, note cap), kept by the person: `.dexi/settings.json`. */
export function settingsFile(vaultRoot: string): string {
  return path.join(dexiDir(vaultRoot), 'settings.json');
}

/** The HTTP tokens, hashed: `.dexi/tokens.json`. */
export function tokensFile(vaultRoot: string): string {
  return path.join(dexiDir(vaultRoot), 'tokens.json');
}

export function cacheDir(vaultRoot: string): string {
  return path.join(dexiDir(vaultRoot), 'cache');
}

/**
 * What is cached of a teammate's vault (its git dates, its records and
 * full-text index) is kept in ours: a teammate's vault is never written, not
 * even its `.dexi/` folder.
 */
export function teammateCacheDir(vaultRoot: string, owner: string): string {
  return path.join(sharedCacheDir(vaultRoot), encodeURIComponent(owner));
}

/** The folder holding every teammate's cache (`teammateCacheDir`). */
export function sharedCacheDir(vaultRoot: string): string {
  return path.join(cacheDir(vaultRoot), 'shared');
}

/** Where transformers.js keeps models it downloads from the hub. */
export function modelsDir(vaultRoot: string): string {
  return path.join(cacheDir(vaultRoot), 'models');
}

/** Where a note's replacement is written before it is renamed over the note. */
export function tempDir(vaultRoot: string): string {
  return path.join(cacheDir(vaultRoot), 'tmp');
}

/** The mode of the folders that hold copies of note text: their owner's alone. */
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Make `dir` with a `.gitignore` holding `ignore`, unless one is there
 * already: that one is left as it is (it may be the person's). A `private`
 * folder is made (or narrowed to) PRIVATE_DIR_MODE.
 */
export async function ensureIgnoredDir(dir: string, ignore = '*\n', options: { private?: boolean } = {}): Promise<string> {
  if (options.private) await ensurePrivateDir(dir);
  else await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, '.gitignore'), ignore, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  return dir;
}

/**
 * Make `dir` readable, writable and enterable by its owner alone. Security:
 * what such a folder holds (the index's words, kept versions) is note text,
 * and a `0600` note must not be readable through it. Its parents are made as
 * any folder. A folder made by an older version (`0755`) is narrowed; one the
 * server cannot narrow (another user's) is used as it is, as before.
 */
async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(path.dirname(dir), { recursive: true });
  await mkdir(dir, { mode: PRIVATE_DIR_MODE }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  // Windows has no such modes: chmod there only sets or clears read-only.
  if (process.platform === 'win32') return;
  // The umask may have narrowed the mode given to mkdir further; an existing folder may be wider.
  if (((await stat(dir)).mode & 0o777) !== PRIVATE_DIR_MODE) await chmod(dir, PRIVATE_DIR_MODE).catch(() => undefined);
}

/**
 * Make the cache folder, with its `.gitignore`. Private: the index holds the
 * words of every note, and note replacements wait in its `tmp/`.
 */
export function ensureCacheDir(vaultRoot: string): Promise<string> {
  return ensureIgnoredDir(cacheDir(vaultRoot), '*\n', { private: true });
}

/** Make a teammate's cache folder inside ours, after ours ignores itself in git. */
export async function ensureTeammateCacheDir(vaultRoot: string, owner: string): Promise<string> {
  await ensureCacheDir(vaultRoot);
  const dir = teammateCacheDir(vaultRoot, owner);
  await mkdir(dir, { recursive: true });
  return dir;
}

export async function ensureTempDir(vaultRoot: string): Promise<string> {
  await ensureCacheDir(vaultRoot);
  const dir = tempDir(vaultRoot);
  await mkdir(dir, { recursive: true });
  return dir;
}
