import { isIgnoredPath, isNoteFileName } from './ignore.js';
import type { VaultParts } from './vault-parts.js';

/**
 * What the watcher (and a reconcile after a period nobody watched) reports
 * to the model: a path added or changed, a path gone, a folder gone. The
 * watcher only says which paths to look at again; these decide, each under
 * the path's lock, what the change means, and announce it.
 */

/** A file added or changed: read again, unless it is not a note. */
export async function refreshPath(parts: VaultParts, vaultPath: string): Promise<void> {
  if (isIgnoredPath(vaultPath) || !isNoteFileName(vaultPath.slice(vaultPath.lastIndexOf('/') + 1))) return;
  await parts.lock.run(vaultPath, () => parts.ingest.ingest(vaultPath));
}

/** A file disappeared: its note is dropped only if the file is really gone. */
export async function forgetPath(parts: VaultParts, vaultPath: string): Promise<void> {
  const { catalog } = parts;
  await parts.lock.run(vaultPath, async () => {
    const record = catalog.atPath(vaultPath);
    if (!record) return;
    if (await parts.files.exists(vaultPath)) return;
    catalog.unplace(record);
    catalog.rememberGone(record);
    parts.announce.removed(record);
  });
}

/**
 * A folder (or a file that is not a note) disappeared: if no folder is
 * there now, it, the folders below it and the notes in them go, each note
 * only if its file is really gone.
 */
export async function forgetFolder(parts: VaultParts, folder: string): Promise<void> {
  const { catalog } = parts;
  // Most such events are other files (an image saved): only a folder the model holds can take notes with it.
  if (!catalog.hasFolder(folder) || (await parts.files.isFolder(folder))) return;
  catalog.removeFolder(folder);
  const prefix = `${folder}/`;
  const inside = [...catalog.all()].filter((record) => record.path.startsWith(prefix));
  await Promise.all(inside.map((record) => forgetPath(parts, record.path)));
}
