import { randomUUID } from 'node:crypto';
import { mkdir, readdir, realpath, unlink } from 'node:fs/promises';
import path from 'node:path';
import { fileNameForTitle, folderNameProblem, numberedName, printable } from '../storage/filenames.js';
import { resolveName } from '../storage/names.js';
import { setFrontmatterKeys } from '../format/frontmatter-edit.js';
import { splitFrontmatter } from '../format/frontmatter.js';
import { folderPathProblem, inLinkedFolder, isWithin, PathOutsideVaultError, resolveInside, samePath } from '../storage/paths.js';
import { recorded, type WriteJournal } from './record/activity.js';
import type { Catalog } from './catalog.js';
import type { Clock } from './clock.js';
import { DexiError, InvalidInputError, NoteCapError, NoteTooLargeError } from './errors.js';
import { MAX_NOTE_BYTES } from './ignore.js';
import type { Ingest } from './ingest.js';
import type { KeyedLock } from './lock.js';
import type { NoteFiles } from './note-files.js';
import type { NoteRecord, NoteWithBody } from './note.js';
import { hashContent, parseNoteFile } from './parse.js';
import { withPropertiesOf, type PropertyUpdates } from './properties.js';
import { formatIso } from '../format/time.js';

export interface CreateRequest {
  title: string;
  text: string;
  /** Vault-relative, made if missing; null or absent: the vault's root. */
  folder?: string | null;
  noteCap?: number | null;
  /** What an importer adds: see `ImportedNote`. */
  imported?: ImportedNote;
  /** Frontmatter keys the caller sets (properties.ts, checkProperties), after the ones made here; undefined removes one of those. */
  properties?: PropertyUpdates;
  /** Where a tool's create is recorded. */
  journal?: WriteJournal;
  /**
   * `text` may open with a frontmatter block of its own (a daily note's
   * template), which the note keeps as written, with the keys made here set
   * in it; otherwise text that begins with `---` stays body.
   */
  ownFrontmatter?: boolean;
}

/**
 * A note made from an imported item (a bookmark, an e-mail, a feed article).
 * Its id is made from the item's own identity, so that importing the item
 * again, on any machine, finds the same note instead of making another.
 */
export interface ImportedNote {
  id: string;
  /** The item's own date; a date after the import is taken as the import's, so that `created` is never after `updated`. */
  created?: Date;
  /** Frontmatter keys written after `id` and `title`, in this order (`source`, `source_url`, …). */
  fields: Record<string, unknown>;
  /** The original, kept beside the note under the note's name with this extension and named by its `attachment` key. */
  attachment?: { extension: string; bytes: Buffer };
}

/** A write that would make a note larger than a note may be is refused before anything is written (it would be skipped, and vanish). */
export function assertFits(content: string): void {
  const bytes = Buffer.byteLength(content);
  if (bytes > MAX_NOTE_BYTES) throw new NoteTooLargeError(bytes, MAX_NOTE_BYTES);
}

/**
 * `create_note`: a new file `<folder>/<title>.md` with `id`, `created` and
 * `updated` (and `title` where the file name cannot hold it), never over an
 * existing file.
 */
export function createNote(
  parts: { root: string; catalog: Catalog; files: NoteFiles; ingest: Ingest; lock: KeyedLock; clock: Clock },
  request: CreateRequest,
): Promise<NoteWithBody> {
  const { catalog, files, ingest, lock, clock } = parts;
  // Creates are serialised so that two at once cannot both slip under the note cap.
  return lock.run('\0create', async () => {
    if (request.noteCap !== undefined && request.noteCap !== null && catalog.size >= request.noteCap) {
      throw new NoteCapError(request.noteCap);
    }
    const made: { dir: string; folder: string | null; made?: string } =
      request.folder === undefined || request.folder === null ? { dir: parts.root, folder: null } : await ensureNoteFolder(parts.root, files, request.folder, 'create a note in');
    const { folder, dir: realDir } = made;

    const name = fileNameForTitle(request.title);
    const now = formatIso(clock.now());
    for (let attempt = 1; attempt < 10_000; attempt++) {
      const base = numberedName(name.base, attempt);
      const inFolder = (fileName: string): string => (folder === null ? fileName : `${folder}/${fileName}`);
      const vaultPath = inFolder(`${base}.md`);
      // Case-insensitive file systems (macOS, Windows) would see these as one file.
      if (catalog.pathTakenIgnoringCase(vaultPath)) continue;
      const imported = request.imported;
      const frontmatter: Record<string, unknown> = { id: imported?.id ?? randomUUID() };
      // The title goes into the frontmatter only where the file name cannot hold it.
      if (request.title !== '' && base !== request.title) frontmatter.title = request.title;
      Object.assign(frontmatter, imported?.fields);
      const createdAt = imported?.created;
      frontmatter.created = createdAt !== undefined && createdAt.getTime() < clock.now().getTime() ? formatIso(createdAt) : now;
      frontmatter.updated = now;
      const attachment = imported?.attachment;
      const attachmentName = attachment === undefined ? undefined : `${base}.${attachment.extension}`;
      if (attachmentName !== undefined) frontmatter.attachment = inFolder(attachmentName);
      // In the one write that makes the note: a value given replaces the one made here, null leaves it out.
      for (const [key, value] of Object.entries(request.properties ?? {})) {
        if (value === undefined) delete frontmatter[key];
        else frontmatter[key] = value;
      }
      // A fresh block, so that text which itself begins with `---` stays body.
      const content = request.ownFrontmatter ? setFrontmatterKeys(request.text, frontmatter) : setFrontmatterKeys('', frontmatter) + request.text;
      assertFits(content);
      const attachmentFile = attachmentName === undefined ? undefined : path.join(realDir, attachmentName);
      const write = { action: 'created', id: frontmatter.id as string, path: vaultPath, after: hashContent(content), ...(made.made ? { madeFolder: made.made } : {}) } as const;
      try {
        // Recorded ahead of the file, settled once it is there (or not).
        await recorded(request.journal, write, async () => {
          // The original first, so that a note never names an attachment that is not there.
          if (attachmentFile !== undefined && attachment !== undefined) await files.createExclusive(attachmentFile, attachment.bytes);
          try {
            await files.createExclusive(path.join(realDir, `${base}.md`), content);
          } catch (error) {
            if (attachmentFile !== undefined) await unlink(attachmentFile).catch(() => undefined);
            throw error;
          }
        }, () => true);
      } catch (error) {
        // A name taken by the note or its attachment: the next numbered name.
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw error;
      }
      let record: NoteRecord | undefined = await lock.run(vaultPath, () => ingest.ingest(vaultPath));
      if (record === undefined || record.id !== frontmatter.id) {
        // Another program moved or removed the new file at once (the watcher
        // will report where it went). It was created: say so, with what was written.
        const nowMs = clock.now().getTime();
        const size = Buffer.byteLength(content);
        const parsed = parseNoteFile({ path: vaultPath, content, size, mtimeMs: nowMs, ctimeMs: nowMs, ino: 0, birthtimeMs: nowMs });
        record = { ...parsed.record, id: frontmatter.id as string };
      }
      return withPropertiesOf(content, { record, body: request.ownFrontmatter ? splitFrontmatter(request.text).body : request.text });
    }
    throw new DexiError('Could not find a free file name for this title; choose another title.');
  });
}

/**
 * The real path of a folder to put a note in (`doing`: "create a note in",
 * "move the note into"), made if missing. Security:
 * the folder must be a plain path inside the vault with no symbolic link
 * anywhere along it (links are never followed, so a note written through
 * one would be invisible at best and outside the vault at worst).
 */
export async function ensureNoteFolder(root: string, files: NoteFiles, asked: string, doing: string): Promise<{ dir: string; folder: string; made?: string }> {
  const shown = printable(asked);
  const problem = folderPathProblem(asked) ?? folderNameProblem(asked);
  if (problem) throw new InvalidInputError(`Cannot ${doing} the folder "${shown}": ${problem}.`);
  const folder = await spelledOnDisk(root, asked);
  const hidden = folderPathProblem(folder);
  if (hidden) throw new InvalidInputError(`Cannot ${doing} the folder "${shown}": ${hidden}.`);
  const linked = new InvalidInputError(`Cannot ${doing} the folder "${shown}": it is reached through a symbolic link, and the server does not follow links.`);
  let dirAbs: string;
  try {
    dirAbs = await resolveInside(root, folder);
  } catch (error) {
    if (error instanceof PathOutsideVaultError) throw linked;
    throw error;
  }
  const lexical = files.absolute(folder);
  // Before creating anything: an existing part of the path that is a link is refused.
  if (!samePath(dirAbs, lexical)) throw linked;
  // The first folder made, if any: an undo of the write removes what it made, once empty.
  const first = await mkdir(dirAbs, { recursive: true });
  // And after: a link that raced in while the folders were made.
  const realDir = await realpath(dirAbs);
  if (!isWithin(root, realDir) || (await inLinkedFolder(root, path.join(dirAbs, 'x.md')))) throw linked;
  return first === undefined ? { dir: dirAbs, folder } : { dir: dirAbs, folder, made: path.relative(root, first).split(path.sep).join('/') };
}

/**
 * `folder` with each of its folders that exists in another case spelt as on
 * disk (`resolveName`: the one spelt exactly so, else the only one that
 * folds alike; none of several look-alikes), so that no look-alike of an
 * existing folder is made beside it, whether the catalog has seen that
 * folder or not (an empty one, one made a moment ago). The rest as given.
 */
async function spelledOnDisk(root: string, folder: string): Promise<string> {
  const spelt: string[] = [];
  let missing = false;
  for (const segment of folder.split('/')) {
    let names: string[] = [];
    if (!missing) {
      try {
        const entries = await readdir(path.join(root, ...spelt), { withFileTypes: true });
        // A link too: moving into it is then refused as for its own spelling, never made beside it.
        names = entries.filter((entry) => entry.isDirectory() || entry.isSymbolicLink()).map((entry) => entry.name);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      }
    }
    const name = resolveName(segment, names);
    missing ||= name === undefined;
    spelt.push(name ?? segment);
  }
  return spelt.join('/');
}
