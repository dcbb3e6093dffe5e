import { realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * Path containment, decided on whole path segments so that a sibling whose
 * name merely starts with the root's name (`/vault-evil` beside `/vault`) is
 * never taken for a child.
 */
export function isWithin(root: string, candidate: string): boolean {
  const rel = path.relative(path.resolve(root), path.resolve(candidate));
  if (rel === '') return true;
  if (path.isAbsolute(rel)) return false; // another drive on Windows
  const first = rel.split(path.sep)[0];
  return first !== '..';
}

/** A vault-relative path always uses `/`, whatever the platform. */
export function toVaultPath(root: string, absolute: string): string {
  return path.relative(root, absolute).split(path.sep).join('/');
}

export class PathOutsideVaultError extends Error {
  constructor(readonly requested: string) {
    super(`The path ${JSON.stringify(requested)} is outside the vault.`);
    this.name = 'PathOutsideVaultError';
  }
}

/**
 * Resolve a vault-relative path to an absolute one that is guaranteed to stay
 * inside the vault, even through symbolic links: the deepest part of the path
 * that exists is resolved with realpath and checked again, so a link inside
 * the vault that points outside cannot be used to write there.
 *
 * `realRoot` must already be the realpath of the vault root.
 */
export async function resolveInside(realRoot: string, vaultPath: string): Promise<string> {
  if (vaultPath.includes('\0')) throw new PathOutsideVaultError(vaultPath);
  const target = path.resolve(realRoot, vaultPath);
  if (!isWithin(realRoot, target)) throw new PathOutsideVaultError(vaultPath);

  // Walk up to the deepest existing ancestor and resolve links there.
  let existing = target;
  const missing: string[] = [];
  for (;;) {
    try {
      const real = await realpath(existing);
      const resolved = path.join(real, ...missing.reverse());
      if (!isWithin(realRoot, resolved)) throw new PathOutsideVaultError(vaultPath);
      return resolved;
    } catch (error) {
      if (error instanceof PathOutsideVaultError) throw error;
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const parent = path.dirname(existing);
      if (parent === existing) throw error;
      missing.push(path.basename(existing));
      existing = parent;
    }
  }
}

/**
 * Why a vault-relative folder path cannot be created as given, or undefined
 * when it can. Pure: whole segments, no `.`/`..`, no hidden or control
 * characters, no absolute paths, no backslashes (a separator on Windows).
 */
export function folderPathProblem(folder: string): string | undefined {
  if (folder === '') return 'it is empty';
  if (path.isAbsolute(folder) || /^[A-Za-z]:/.test(folder)) return 'it is an absolute path';
  if (folder.includes('\\')) return 'it contains a backslash';
  if (/[\u0000-\u001f\u007f]/.test(folder)) return 'it contains control characters';
  if (Buffer.byteLength(folder) > 1024) return 'it is longer than 1024 bytes';
  for (const segment of folder.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') return 'it is not a plain path of folder names';
    if (Buffer.byteLength(segment) > 255) return 'a folder name in it is longer than 255 bytes, more than file systems allow';
    if (segment.startsWith('.') || segment === 'node_modules') return 'it names a hidden folder, which is not part of the vault';
  }
  return undefined;
}

const CASE_INSENSITIVE = process.platform === 'darwin' || process.platform === 'win32';

/** Whether two absolute paths name the same place, compared as the platform's usual file system compares names. */
export function samePath(a: string, b: string): boolean {
  return CASE_INSENSITIVE ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/**
 * Whether the folder holding `absolute` is reached through a symbolic link
 * (any segment below the root): its real path differs from the path itself.
 * `realRoot` must already be a real path. A missing folder is not a link.
 */
export async function inLinkedFolder(realRoot: string, absolute: string): Promise<boolean> {
  const dir = path.dirname(absolute);
  if (dir === realRoot) return false;
  let real: string;
  try {
    real = await realpath(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw error;
  }
  return !samePath(real, dir);
}
