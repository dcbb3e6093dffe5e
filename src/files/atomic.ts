import { randomBytes } from 'node:crypto';
import { link, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Temporary files start with a dot so that the vault scanner and the watcher
 * (which skip dot-files) can never take one for a note, even if a crash
 * leaves it behind.
 */
export const TEMP_PREFIX = '.dexi-tmp-';

export function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `${TEMP_PREFIX}${randomBytes(6).toString('hex')}-${path.basename(target)}`);
}

async function writeTemp(temp: string, data: string | Uint8Array, mode?: number): Promise<void> {
  const handle = await open(temp, 'wx', mode ?? 0o644);
  try {
    await handle.writeFile(data);
    // Security: flush before the rename so a crash never leaves a renamed
    // but empty file where the person's note was.
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Replace a file atomically: a crash leaves either the old or the new
 * content, never half of one. `beforeRename` runs just before the rename and
 * may throw to abandon the write (used to detect an editor's concurrent
 * change).
 */
export async function replaceFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: { mode?: number; beforeRename?: () => Promise<void> } = {},
): Promise<void> {
  const temp = tempPathFor(target);
  await writeTemp(temp, data, options.mode);
  try {
    await options.beforeRename?.();
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/**
 * Create a file that must not exist yet, atomically: the content is written
 * to a temporary file and hard-linked into place, which fails with EEXIST
 * instead of overwriting a file that appeared in the meantime.
 */
export async function createFileExclusive(target: string, data: string | Uint8Array): Promise<void> {
  const temp = tempPathFor(target);
  await writeTemp(temp, data);
  try {
    await link(temp, target);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}
