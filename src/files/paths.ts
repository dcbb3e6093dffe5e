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
