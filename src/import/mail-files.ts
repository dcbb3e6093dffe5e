import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/** A file under the folder the user named that may hold mail, or a folder that could not be read. */
export type MailFile = { rel: string; abs: string } | { rel: string; error: string };

/** A failed read as a sentence: what happened to which file, no codes or stack. */
export function readError(label: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return `${label} could not be read: permission denied.`;
    case 'ENOENT':
      return `${label} could not be read: it disappeared while the import was running.`;
    case 'EISDIR':
      return `${label} is a folder, not an e-mail file.`;
    case 'EIO':
      return `${label} could not be read: the disk reported an input/output error.`;
    case 'ERR_FS_FILE_TOO_LARGE':
      return `${label} is too large to be a single e-mail message.`;
    default:
      return `${label} could not be read${code ? ` (${code})` : ''}.`;
  }
}

/**
 * Mail folders that hold what the person threw away or the server judged
 * junk, which are not their mail: left out where a walk finds them (as a
 * folder, `[Gmail]/Trash`, or as a Maildir++ subfolder, `.Trash`,
 * `.Trash.2019`), read when the person names one.
 */
const DISCARDED_FOLDERS = new Set(['trash', 'deleted messages', 'deleted items', 'junk', 'spam']);

function isDiscardedFolder(name: string): boolean {
  return name
    .replace(/^\./, '')
    .split('.')
    .some((part) => DISCARDED_FOLDERS.has(part.toLowerCase()));
}

/**
 * A Maildir message's flags are the letters after `:2,` at the end of its
 * name (`!2,` or `;2,` where a file system forbids `:`); `T` marks a
 * message the person deleted and their mail program has yet to remove.
 */
function isTrashed(name: string): boolean {
  const flags = /[:!;]2,([A-Za-z]*)$/.exec(name)?.[1] ?? '';
  return flags.includes('T');
}

async function isFolder(abs: string): Promise<boolean> {
  try {
    return (await lstat(abs)).isDirectory();
  } catch {
    return false;
  }
}

/** A Maildir: a folder with `cur/` and `new/` (and `tmp/`, where messages are still being delivered). */
async function isMaildir(abs: string, names: ReadonlySet<string>): Promise<boolean> {
  return names.has('cur') && names.has('new') && (await isFolder(path.join(abs, 'cur'))) && (await isFolder(path.join(abs, 'new')));
}

/** The messages of a Maildir's `cur/` or `new/`: every file not starting with a dot, but those marked deleted. */
async function maildirMessages(root: string, rel: string, out: MailFile[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(path.join(root, rel), { withFileTypes: true });
  } catch (error) {
    out.push({ rel, error: readError(`The folder ${rel}`, error) });
    return;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.') || !entry.isFile() || isTrashed(entry.name)) continue;
    const child = `${rel}/${entry.name}`;
    out.push({ rel: child, abs: path.join(root, child) });
  }
}

/**
 * Every mail file under `root/rel`: `.eml` files in any folder, and the
 * messages of every Maildir (its `cur/` and `new/`, never `tmp/`) and of its
 * Maildir++ subfolders, but those for deleted and junk mail. Other dot-folders
 * are tool state (.git, .obsidian, .Trash) and links could lead out of the
 * folder or round in circles, so neither is followed.
 */
export async function walkMailFolder(root: string, rel: string, out: MailFile[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(path.join(root, rel), { withFileTypes: true });
  } catch (error) {
    out.push({ rel, error: readError(`The folder ${rel || root}`, error) });
    return;
  }
  const folders = new Set(entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name));
  const maildir = await isMaildir(path.join(root, rel), folders);
  if (maildir && rel !== '' && isDiscardedFolder(path.basename(rel))) return;
  for (const entry of entries) {
    if (entry.isSymbolicLink()) continue;
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.name.startsWith('.')) {
      if (maildir && entry.isDirectory()) {
        const inner = await readdir(path.join(root, child)).catch(() => [] as string[]);
        if (await isMaildir(path.join(root, child), new Set(inner))) await walkMailFolder(root, child, out);
      }
      continue;
    }
    if (maildir && entry.isDirectory() && (entry.name === 'cur' || entry.name === 'new')) await maildirMessages(root, child, out);
    else if (maildir && entry.name === 'tmp') continue;
    else if (entry.name.toLowerCase().endsWith('.eml')) out.push({ rel: child, abs: path.join(root, child) });
    else if (entry.isDirectory()) await walkMailFolder(root, child, out);
  }
}
