import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, chmod, mkdir, stat, unlink, writeFile } from 'node:fs/promises';
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

/**
 * The vault's own cache folder, `.dexi/cache/`. A vault dexi-vault cannot
 * write keeps its caches outside instead (`outsideCacheDir`); the functions
 * below that take `cache` take whichever of the two the vault uses.
 */
export function cacheDir(vaultRoot: string): string {
  return path.join(dexiDir(vaultRoot), 'cache');
}

/** The index cache's file in a cache folder (src/index/cache.ts); version 2 was `notes.json`. */
export const INDEX_CACHE_FILE = 'index.bin';

/**
 * The cache folder of a vault that cannot be written, in the person's cache
 * directory (`cacheHome`, chosen by the CLI): `dexi-vault/<name>-<hash>`,
 * the folder's name for a person looking, and a hash of the vault's real
 * path so that two vaults of one name, or one vault reached by two paths,
 * never share or split a cache.
 */
export function outsideCacheDir(cacheHome: string, vaultRealRoot: string): string {
  const hash = createHash('sha256').update(vaultRealRoot).digest('hex').slice(0, 16);
  const name = path.basename(vaultRealRoot).replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^[-.]+|-+$/g, '').slice(0, 40);
  return path.join(cacheHome, 'dexi-vault', `${name === '' ? 'vault' : name}-${hash}`);
}

/**
 * What is cached of a teammate's vault (its git dates, its records and
 * full-text index) is kept in ours (`cache`): a teammate's vault is never
 * written, not even its `.dexi/` folder.
 */
export function teammateCacheDir(cache: string, owner: string): string {
  return path.join(sharedCacheDir(cache), encodeURIComponent(owner));
}

/** The folder holding every teammate's cache (`teammateCacheDir`). */
export function sharedCacheDir(cache: string): string {
  return path.join(cache, 'shared');
}

/** The vector snapshot of the semantic index (src/index/vectors/vector-snapshot.ts). */
export function vectorsDir(cache: string): string {
  return path.join(cache, 'vectors');
}

/** Where transformers.js keeps models it downloads from the hub. */
export function modelsDir(cache: string): string {
  return path.join(cache, 'models');
}

/**
 * Where a note's replacement is written before it is renamed over the note:
 * always in the vault, as a rename works only within one file system.
 */
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

/** Make a teammate's cache folder inside ours (`cache`), after ours ignores itself in git. */
export async function ensureTeammateCacheDir(cache: string, owner: string): Promise<string> {
  await ensureIgnoredDir(cache, '*\n', { private: true });
  const dir = teammateCacheDir(cache, owner);
  await mkdir(dir, { recursive: true });
  return dir;
}

export async function ensureTempDir(vaultRoot: string): Promise<string> {
  await ensureCacheDir(vaultRoot);
  const dir = tempDir(vaultRoot);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** Whether dexi-vault may write the vault; otherwise the error code that said no. */
export type Writability = { writable: true } | { writable: false; code: string };

/**
 * Whether the vault can be written, found by trying: the process often runs
 * as root, which mode bits do not stop, so only a real attempt tells (a
 * read-only mount answers EROFS, an immutable folder EPERM). `access` asks
 * about the vault folder itself without writing in it; the attempt is made
 * in `.dexi/`: a probe file, made and removed, or the folder itself when it
 * is missing (left there: serving makes it anyway).
 */
export async function probeWritable(vaultRoot: string): Promise<Writability> {
  const refused = (error: unknown): Writability => ({ writable: false, code: (error as NodeJS.ErrnoException).code ?? 'EACCES' });
  try {
    await access(vaultRoot, constants.W_OK);
  } catch (error) {
    return refused(error);
  }
  const dir = dexiDir(vaultRoot);
  try {
    // Made now when missing; EEXIST: there already, or made meanwhile by another process starting on the same vault.
    const made = await mkdir(dir).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') return false;
        throw error;
      },
    );
    if (made) return { writable: true };
    if (!(await stat(dir)).isDirectory()) return { writable: false, code: 'ENOTDIR' };
    const probe = path.join(dir, `.dexi-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
    await writeFile(probe, '', { flag: 'wx' });
    await unlink(probe);
    return { writable: true };
  } catch (error) {
    return refused(error);
  }
}

/**
 * Whether the vault looks writable, asked without writing anything (for
 * `dexi-vault status`, a read): `access` on the vault folder and on
 * `.dexi/` when it is there. Unlike `probeWritable` it cannot tell a folder
 * whose modes say yes but whose writes fail; that is left to the commands
 * that write.
 */
export async function lookWritable(vaultRoot: string): Promise<Writability> {
  const dir = dexiDir(vaultRoot);
  try {
    await access(vaultRoot, constants.W_OK);
    const inner = await stat(dir).catch(() => undefined);
    if (inner !== undefined && !inner.isDirectory()) return { writable: false, code: 'ENOTDIR' };
    if (inner !== undefined) await access(dir, constants.W_OK);
    return { writable: true };
  } catch (error) {
    return { writable: false, code: (error as NodeJS.ErrnoException).code ?? 'EACCES' };
  }
}

