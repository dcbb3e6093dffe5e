import { appendFile, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { processIsAlive } from '../storage/atomic.js';
import { dexiDir } from '../storage/dexi-dir.js';
import { DexiError, NoteCapError } from '../vault/errors.js';
import { importedItemId } from '../format/identity.js';
import type { ImportedNote } from '../vault/create.js';
import type { Source } from '../vault/note.js';
import type { Vault } from '../vault/vault.js';
import { BODY_LIMIT_BYTES, cutBody } from './cut-body.js';

export type ImportKind = Exclude<Source, 'note'>;

/** One item to become a note: what every importer hands to `ImportRun.add`. */
export interface ImportItem {
  kind: ImportKind;
  /** The item's own identity (a bookmark's address, a Message-ID, a feed article's id): the same item gives the same note id. */
  key: string;
  title: string;
  /** Markdown. */
  body: string;
  /** Vault-relative; made if missing. */
  folder: string;
  /** Frontmatter after `id` and `title`, in order. */
  fields: Record<string, unknown>;
  created?: Date;
  attachment?: ImportedNote['attachment'];
  /** When `body` is only the start of the item's text (an importer spared itself converting the rest), the size of the whole in bytes. */
  wholeBodyBytes?: number;
}

/** Where an item stands before it is imported. */
export type ItemState = 'new' | 'present' | 'deleted';

/** The record of every note an import made, by id, one per line: `.dexi/imported.txt`. */
export function importedListFile(vaultRoot: string): string {
  return path.join(dexiDir(vaultRoot), 'imported.txt');
}

export class ImportStoppedError extends DexiError {}

/** Where the whole of a body that is cut (cut-body.ts) can still be read: the file kept beside the note, or the address it came from. */
function wholeAt(item: ImportItem): string {
  if (item.attachment !== undefined) return `it is kept whole in the attached .${item.attachment.extension} file`;
  const url = item.fields.source_url;
  if (typeof url === 'string') return `the whole of it is at ${url}`;
  return 'the rest was left out';
}

export function importLockFile(vaultRoot: string): string {
  return path.join(dexiDir(vaultRoot), 'import.lock');
}

/**
 * `.dexi/import.lock`, holding the importing process's id. Two processes
 * importing the same items at once (a `feeds pull` beside a server that
 * pulls) would each find an article new and write it twice, as two files
 * with one id; within one process the vault's create lock orders them. A
 * lock whose process is gone (a crash) is taken over.
 */
async function holdImportLock(vaultRoot: string): Promise<void> {
  const file = importLockFile(vaultRoot);
  await mkdir(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(file, `${process.pid}\n`, { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number((await readFile(file, 'utf8').catch(() => '')).trim());
    if (holder === process.pid) return;
    if (Number.isInteger(holder) && holder > 0 && processIsAlive(holder)) {
      throw new ImportStoppedError(`Another dexi-vault command (process ${holder}) is importing into this vault; try again when it has finished.`);
    }
    await unlink(file).catch(() => undefined);
  }
  throw new ImportStoppedError(`Could not take ${file}; if no dexi-vault command is importing, delete it and try again.`);
}

async function releaseImportLock(vaultRoot: string): Promise<void> {
  const file = importLockFile(vaultRoot);
  const holder = Number((await readFile(file, 'utf8').catch(() => '')).trim());
  if (holder === process.pid) await unlink(file).catch(() => undefined);
}

/**
 * One run of an importer over the vault. It decides, for every item, whether
 * it is new: an item whose note is in the vault (by the id made from the
 * item, wherever the note has been moved; for a bookmark also a note of the
 * same address, such as one saved by Obsidian Web Clipper) is left as it is,
 * so a note the person has edited is never overwritten; an item whose note
 * an earlier import made and the person has deleted since stays deleted
 * (`.dexi/imported.txt` remembers it), so pulling a feed again does not
 * bring back the articles they threw away. Every note is written through
 * the vault's own create: atomic, never over a file, within the note cap.
 */
export class ImportRun {
  readonly counts = { added: 0, present: 0, deleted: 0, failed: 0 };
  private urls: Set<string> | undefined;

  private constructor(
    private readonly vault: Vault,
    private readonly imported: Set<string>,
    private readonly options: { noteCap: number | null },
  ) {}

  get root(): string {
    return this.vault.root;
  }

  /**
   * Start a run on a vault that has been read. One process imports into a
   * vault at a time (see `holdImportLock`); `close` lets the next one in.
   */
  static async start(vault: Vault, options: { noteCap: number | null }): Promise<ImportRun> {
    await holdImportLock(vault.root);
    let text: string;
    try {
      text = await readFile(importedListFile(vault.root), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        await releaseImportLock(vault.root);
        throw error;
      }
      text = '';
    }
    const ids = new Set(text.split('\n').filter((line) => line.length > 0));
    return new ImportRun(vault, ids, options);
  }

  /** The run is over: another process may import into the vault. */
  async close(): Promise<void> {
    await releaseImportLock(this.vault.root);
  }

  /**
   * Whether the item still needs importing; asked before costly work such as
   * fetching a bookmark's page. A bookmark's key is its address, which any
   * bookmark note of the vault may hold already.
   */
  state(kind: ImportKind, key: string): ItemState {
    const id = importedItemId(kind, key);
    if (this.vault.get(id) !== undefined) return 'present';
    if (kind === 'bookmark' && this.bookmarkedUrls().has(key)) return 'present';
    if (this.imported.has(id)) return 'deleted';
    return 'new';
  }

  /** Every address the vault's bookmarks point at, Web Clipper's included; gathered once a run. */
  private bookmarkedUrls(): Set<string> {
    if (this.urls) return this.urls;
    this.urls = new Set();
    for (const record of this.vault.all()) {
      if (record.source !== 'bookmark' || record.sourceUrl === undefined) continue;
      this.urls.add(record.sourceUrl);
      try {
        this.urls.add(new URL(record.sourceUrl).href);
      } catch {
        // Not an address URL can read: compared as written.
      }
    }
    return this.urls;
  }

  /**
   * Import one item, unless it is present or was deleted. A note the vault
   * refuses (too large, an unusable folder) is counted as failed and its
   * reason returned; reaching the note cap stops the run.
   */
  async add(item: ImportItem): Promise<{ problem?: string }> {
    const state = this.state(item.kind, item.key);
    if (state !== 'new') {
      this.counts[state]++;
      return {};
    }
    const id = importedItemId(item.kind, item.key);
    const imported: ImportedNote = { id, fields: item.fields };
    if (item.created !== undefined) imported.created = item.created;
    if (item.attachment !== undefined) imported.attachment = item.attachment;
    try {
      await this.vault.create({ title: item.title, text: cutBody(item.body, wholeAt(item), BODY_LIMIT_BYTES, item.wholeBodyBytes), folder: item.folder, noteCap: this.options.noteCap, imported });
    } catch (error) {
      if (error instanceof NoteCapError) throw new ImportStoppedError(`Stopped after ${this.describeCounts()}: ${error.message}`);
      if (!(error instanceof DexiError)) throw error;
      this.counts.failed++;
      return { problem: error.message };
    }
    this.imported.add(id);
    if (item.kind === 'bookmark') this.urls?.add(item.key);
    // Appended at once, so that a run stopped halfway still knows what it made (.dexi/ exists: it holds the lock).
    await appendFile(importedListFile(this.vault.root), `${id}\n`);
    this.counts.added++;
    return {};
  }

  /** An item that could not even be read (a file that is not an e-mail): counted with those the vault refused. */
  countFailure(): void {
    this.counts.failed++;
  }

  /** "3 new notes, 2 already in the vault, 1 deleted since an earlier import and left deleted, 1 could not be imported" (the parts after the first only when not zero). */
  describeCounts(): string {
    const { added, present, deleted, failed } = this.counts;
    const parts = [`${added.toLocaleString('en')} new ${added === 1 ? 'note' : 'notes'}`];
    if (present > 0) parts.push(`${present.toLocaleString('en')} already in the vault`);
    if (deleted > 0) parts.push(`${deleted.toLocaleString('en')} deleted since an earlier import and left deleted`);
    if (failed > 0) parts.push(`${failed.toLocaleString('en')} could not be imported`);
    return parts.join(', ');
  }
}
