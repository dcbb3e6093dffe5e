import { constants } from 'node:fs';
import { access, copyFile, mkdir, opendir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { cacheDir as ownCacheDir, dexiDir, lookWritable, outsideCacheDir, probeWritable } from '../storage/dexi-dir.js';
import { cacheFile } from '../index/cache.js';
import { GIT_HISTORY_CACHE_FILE } from '../vault/git/git-history.js';
import { VaultUnavailableError } from '../vault/vault.js';

/**
 * The vault folder a command is about, as found before the command runs:
 * there, a folder, readable, and (when asked) whether it can be written.
 * Every command passes here first, so that a vault that is missing, a file,
 * unreadable or read-only is named as the vault in one sentence, never as
 * some file inside it, and never with a stack trace.
 */
export interface VaultFolder {
  /** The vault's real path. */
  root: string;
  /** Why the vault cannot be written, in a few words ("permission denied"); undefined when it can be, or when not asked. */
  readOnlyBecause?: string;
}

const ASK_AGAIN = 'give the vault with --vault DIR (or $DEXI_VAULT)';

/** A few words for an error code met on a file or folder; the code itself for one without words here. */
export function describeCode(code: string | undefined): string {
  switch (code) {
    case 'EACCES':
      return 'permission denied';
    case 'EPERM':
      return 'not permitted';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOSPC':
      return 'the disk is full';
    case 'ENOENT':
      return 'it does not exist';
    case 'ENOTDIR':
      return 'a part of the path is not a folder';
    case 'EISDIR':
      return 'it is a folder';
    case 'ELOOP':
      return 'too many symbolic links';
    default:
      return code ?? 'unknown error';
  }
}

/**
 * Why a vault whose write probe failed with `code` is to be served
 * read-only, or undefined when the failure says nothing lasting about the
 * folder: a full disk or an I/O error refuses this write, and the next may
 * pass, so each write is left to say so itself.
 */
export function readOnlyReason(code: string): string | undefined {
  if (code === 'ENOTDIR') return 'its .dexi is a file, not a folder';
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return describeCode(code);
  return undefined;
}

/**
 * Where the person's caches go, from the environment the CLI was given:
 * `$XDG_CACHE_HOME` when it is an absolute path (the XDG spec ignores a
 * relative one), else the platform's own place under the home folder.
 */
export function userCacheHome(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && path.isAbsolute(xdg)) return xdg;
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches');
  if (platform === 'win32') return env.LOCALAPPDATA !== undefined && path.isAbsolute(env.LOCALAPPDATA) ? env.LOCALAPPDATA : path.join(home, 'AppData', 'Local');
  return path.join(home, '.cache');
}

/** Turns a failure to reach the vault folder into the sentence naming it. */
function unavailable(shown: string, error: unknown): VaultUnavailableError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new VaultUnavailableError(`The vault folder ${shown} does not exist; ${ASK_AGAIN}.`);
  if (code === 'EACCES' || code === 'EPERM') return new VaultUnavailableError(`The vault folder ${shown} cannot be read (permission denied); make it readable for the user running dexi-vault, or ${ASK_AGAIN}.`);
  return new VaultUnavailableError(`The vault folder ${shown} cannot be opened (${describeCode(code)}); ${ASK_AGAIN}.`);
}

/**
 * Find the vault folder `dir` names; with `probe`, also try whether it can
 * be written (`probeWritable`, which may make an empty `.dexi/` in it), or
 * with `'look'` only ask (`lookWritable`, which writes nothing: `status`).
 * Throws a `VaultUnavailableError` naming the vault when it is missing, a
 * file or unreadable; the vault's `.dexi/` folder is named when only that
 * cannot be read.
 */
export async function openVaultFolder(dir: string, probe: boolean | 'look'): Promise<VaultFolder> {
  const shown = path.resolve(dir);
  let root: string;
  try {
    root = await realpath(shown);
    if (!(await stat(root)).isDirectory()) throw new VaultUnavailableError(`The vault ${shown} is not a folder; ${ASK_AGAIN}.`);
    await (await opendir(root)).close();
  } catch (error) {
    if (error instanceof VaultUnavailableError) throw error;
    throw unavailable(shown, error);
  }
  const dexi = dexiDir(root);
  const inner = await stat(dexi).catch(() => undefined);
  if (inner?.isDirectory()) {
    await access(dexi, constants.R_OK | constants.X_OK).catch((error: NodeJS.ErrnoException) => {
      throw new VaultUnavailableError(`The vault's own folder ${dexi} cannot be read (${describeCode(error.code)}); make it readable for the user running dexi-vault.`);
    });
  }
  if (!probe) return { root };
  const writability = probe === 'look' ? await lookWritable(root) : await probeWritable(root);
  if (writability.writable) return { root };
  const why = readOnlyReason(writability.code);
  return why === undefined ? { root } : { root, readOnlyBecause: why };
}

/** The refusal of a command that would write into a vault that cannot be written. */
export function cannotWrite(folder: VaultFolder, consequence: string): VaultUnavailableError {
  return new VaultUnavailableError(
    `The vault folder ${folder.root} cannot be written (${folder.readOnlyBecause ?? 'permission denied'}), so ${consequence}; nothing was changed. Reading it (serve, index, activity) works.`,
  );
}

/** Where a read-only vault's caches go, and the one line that says so at start. */
export interface OutsideCache {
  cacheDir: string;
  notice: string;
}

/**
 * The caches of a vault that cannot be written go to the person's cache
 * directory (`outsideCacheDir`), made now. When even that cannot be made,
 * the vault is still served, read from the notes at every start, and the
 * line says how to give it a place.
 */
export async function outsideCache(folder: VaultFolder & { readOnlyBecause: string }, cacheHome: string, doing: 'serve' | 'index'): Promise<OutsideCache> {
  const cacheDir = outsideCacheDir(cacheHome, folder.root);
  const opening = `The vault folder ${folder.root} cannot be written (${folder.readOnlyBecause}), so`;
  const what = doing === 'serve' ? 'it is served read-only (no tool can change a note), with its caches in' : 'its indexes are kept in';
  try {
    // 0700, as XDG asks: the caches hold the notes' text, which the vault's own folder may not show to everyone.
    await mkdir(cacheDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    return {
      cacheDir,
      notice: `${opening} ${what} ${cacheDir}; that folder cannot be made either (${describeCode((error as NodeJS.ErrnoException).code)}), so every start reads every note again: set XDG_CACHE_HOME to a folder you can write.`,
    };
  }
  await seedFromVault(folder.root, cacheDir);
  return { cacheDir, notice: `${opening} ${what} ${cacheDir}; nothing in the vault is changed.` };
}

/**
 * A vault that was served before it became read-only (a snapshot, a mount
 * made read-only) has caches in its `.dexi/cache/`: they start the outside
 * cache when it has none, so a first start need not read every note again.
 * Copies, checked like any cache when loaded; the vault's are not touched.
 */
async function seedFromVault(root: string, cacheDir: string): Promise<void> {
  const inside = ownCacheDir(root);
  for (const [from, to] of [
    [cacheFile(inside), cacheFile(cacheDir)],
    [path.join(inside, GIT_HISTORY_CACHE_FILE), path.join(cacheDir, GIT_HISTORY_CACHE_FILE)],
  ] as const) {
    // COPYFILE_EXCL: a cache already outside is newer than the vault's.
    await copyFile(from, to, constants.COPYFILE_EXCL).catch(() => undefined);
  }
}
