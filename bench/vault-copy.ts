/**
 * The copy `npm run bench -- --vault DIR` works on: the benchmark deletes
 * the copy's index cache, edits its notes and lets the server write its
 * `.dexi/` folder, none of which may happen to the person's vault. Only what
 * the server reads is copied, by the server's own rules (src/vault/scan.ts):
 * the folders and the `.md` notes, without dot-folders (`.git`, `.dexi`,
 * `.obsidian`), `node_modules`, symbolic links or notes over the size limit.
 */

import type { Dir } from 'node:fs';
import { copyFile, mkdir, opendir, readdir, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { isIgnoredName, isNoteFileName, MAX_NOTE_BYTES } from '../src/vault/ignore.js';

export interface VaultCopy {
  notes: number;
  folders: number;
  bytes: number;
  /** notes and folders left out as the server leaves them out: over its size limit, or unreadable */
  skipped: string[];
}

/** Notes copied at once: enough to keep the disk busy, few enough to stay under any open-files limit. */
const COPIES_IN_FLIGHT = 16;

/**
 * Copy the notes and folders of `source` into the new folder `target`,
 * keeping each note's modification time (the server's "updated" date, which
 * `list_notes` sorts by, when a note states none).
 */
export async function copyVault(source: string, target: string): Promise<VaultCopy> {
  const notes: string[] = [];
  const skipped: string[] = [];
  let folders = 0;
  const pending = [''];
  await mkdir(target);
  while (pending.length > 0) {
    const rel = pending.pop() as string;
    let entries;
    try {
      entries = await readdir(path.join(source, rel), { withFileTypes: true });
    } catch (error) {
      // As the server does: an unreadable folder is left out, unless it is the vault itself.
      if (rel === '') throw error;
      skipped.push(`${rel}${path.sep} (${(error as Error).message})`);
      continue;
    }
    for (const entry of entries) {
      if (isIgnoredName(entry.name) || entry.isSymbolicLink()) continue;
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) {
        await mkdir(path.join(target, child));
        folders++;
        pending.push(child);
      } else if (entry.isFile() && isNoteFileName(entry.name)) {
        notes.push(child);
      }
    }
  }
  let bytes = 0;
  let skippedNotes = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < notes.length) {
      const rel = notes[next++] as string;
      const from = path.join(source, rel);
      try {
        const info = await stat(from);
        if (info.size > MAX_NOTE_BYTES) {
          skipped.push(`${rel} (${info.size} bytes, over the server's 4 MiB note limit)`);
          skippedNotes++;
          continue;
        }
        const to = path.join(target, rel);
        await copyFile(from, to);
        await utimes(to, info.atime, info.mtime);
        bytes += info.size;
      } catch (error) {
        skipped.push(`${rel} (${(error as Error).message})`);
        skippedNotes++;
      }
    }
  };
  await Promise.all(Array.from({ length: COPIES_IN_FLIGHT }, worker));
  return { notes: notes.length - skippedNotes, folders, bytes, skipped: skipped.sort() };
}

/** Whether a folder holds at least one note the server would read (stops at the first). */
async function holdsNote(dir: string): Promise<boolean> {
  let handle: Dir;
  try {
    handle = await opendir(dir);
  } catch {
    return false;
  }
  const folders: string[] = [];
  for await (const entry of handle) {
    if (isIgnoredName(entry.name) || entry.isSymbolicLink()) continue;
    if (entry.isFile() && isNoteFileName(entry.name)) return true;
    if (entry.isDirectory()) folders.push(path.join(dir, entry.name));
  }
  for (const folder of folders) if (await holdsNote(folder)) return true;
  return false;
}

/** Why `dir` cannot be benchmarked, as a sentence for the person who named it; undefined when it can. */
export async function vaultFolderProblem(dir: string): Promise<string | undefined> {
  let info;
  try {
    info = await stat(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `There is no folder ${dir}.` : `Cannot read ${dir}: ${(error as Error).message}.`;
  }
  if (!info.isDirectory()) return `${dir} is a file, not a folder of notes.`;
  try {
    await (await opendir(dir)).close();
  } catch (error) {
    return `Cannot read the folder ${dir}: ${(error as Error).message}.`;
  }
  if (!(await holdsNote(dir))) return `${dir} holds no Markdown notes (.md files outside dot-folders such as .git and .obsidian), so there is nothing to benchmark.`;
  return undefined;
}
