import { splitFrontmatter } from '../format/frontmatter.js';
import type { Catalog } from './catalog.js';
import { challengerKeepsId } from '../format/identity.js';
import type { NoteFile } from './note-file-read.js';
import type { NoteFiles } from './note-files.js';
import type { NoteRecord } from './note.js';
import { folderOf, parseNoteFile, type FileFacts } from './parse.js';
import type { NoteParse, ParsePool } from './workers/parse-pool.js';

export interface IngestEvents {
  /** A note was added or changed; `plain` is its search text when it is already made. */
  note(record: NoteRecord, body: string, plain?: string): void;
  removed(record: NoteRecord): void;
}

/** A note's Markdown body: after the frontmatter, or the whole file when its frontmatter cannot be read. */
export function bodyOf(content: string, record: NoteRecord): string {
  return record.broken ? content : splitFrontmatter(content).body;
}

/**
 * From a file to what the server knows of it: read, parse, decide its
 * identity (new, changed, moved or copied), and place it in the catalog.
 * Reading never writes. Every call runs under the file's lock.
 */
export class Ingest {
  /** During a first read with many notes to parse only. */
  parsePool: ParsePool | undefined;
  /**
   * During the first read only: paths whose frontmatter id was placed without
   * the cache vouching for it. Two files claiming one id are settled by
   * identity.ts's rule, which needs to know who held the id before.
   */
  provisional: Set<string> | undefined;
  /** Paths to read again once the first read is done (they lost an id to another file). */
  readonly reingestLater: string[] = [];

  constructor(
    private readonly catalog: Catalog,
    private readonly files: NoteFiles,
    private readonly events: IngestEvents,
    /** Read a path again later, under its own lock (a copy that lost its id while the server runs). */
    private readonly reread: (vaultPath: string) => void,
  ) {}

  /** Read one file and bring the catalog in step with it. */
  async ingest(vaultPath: string, cached?: NoteRecord): Promise<NoteRecord | undefined> {
    const atPath = this.catalog.atPath(vaultPath);
    // The note as last read is the measure of a half-written version (see NoteFiles.open).
    const file = await this.files.open(vaultPath, atPath ?? cached);
    if (!file) {
      if (atPath) {
        this.catalog.unplace(atPath);
        this.catalog.rememberGone(atPath);
        this.events.removed(atPath);
      }
      return undefined;
    }
    try {
      return await this.ingestFile(vaultPath, file, atPath, cached);
    } finally {
      await file.file.handle.close();
    }
  }

  private async ingestFile(vaultPath: string, file: NoteFile, atPath: NoteRecord | undefined, cached: NoteRecord | undefined): Promise<NoteRecord> {
    const { hash } = file;
    const known = atPath ?? cached;
    const fileStats = { size: file.size, mtimeMs: file.mtimeMs, ctimeMs: file.ctimeMs, ino: file.ino, birthtimeMs: file.birthtimeMs };
    // Same content and time as last seen, and the id still free for it: only
    // the file's other stats moved (a move, a copy back). A new modification
    // time is read afresh, since a note's `updated` may come from it.
    if (known && known.hash === hash && known.mtimeMs === file.mtimeMs && (atPath !== undefined || this.catalog.get(known.id) === undefined)) {
      const same: NoteRecord = { ...known, path: vaultPath, folder: folderOf(vaultPath), ...fileStats };
      this.catalog.place(same);
      if (!atPath) this.events.note(same, bodyOf(file.content, same));
      return same;
    }

    const facts: FileFacts = { path: vaultPath, content: file.content, ...fileStats };
    let plain: string | undefined;
    let parsed: NoteParse;
    if (this.parsePool) ({ parsed, plain } = await this.parsePool.parse(facts));
    else {
      parsed = parseNoteFile(facts);
      plain = parsed.searchText;
    }
    if (!file.valid) {
      parsed.record.broken = true;
      // Not UTF-8: the text is a lossy decoding, so the hash must be of the bytes themselves.
      parsed.record.hash = hash;
    }

    const { id, movedFrom } = await this.decideId(vaultPath, parsed, hash, known, cached);
    const record: NoteRecord = { ...parsed.record, id };
    if (atPath && atPath.id !== id) {
      this.catalog.unplace(atPath);
      this.events.removed(atPath);
    }
    // What the note was before, for its dates: placed under its id, else where it was moved from, else as cached here.
    this.catalog.place(record, this.catalog.get(id) ?? movedFrom ?? (known?.id === id ? known : undefined));
    if (this.provisional) {
      if (parsed.id !== undefined && cached?.id !== this.catalog.noteIdOf(parsed.id)) this.provisional.add(vaultPath);
      else this.provisional.delete(vaultPath);
    }
    this.events.note(record, parsed.body, plain);
    return record;
  }

  /**
   * Which id a file read afresh has. Its frontmatter `id` if it has one (two
   * files claiming one id: identity.ts's rule); else the id it had at this
   * path; else, for a path new to the server, the id of a note whose file
   * just went with the same content (a move); else its path id.
   */
  private async decideId(
    vaultPath: string,
    parsed: NoteParse,
    hash: string,
    known: NoteRecord | undefined,
    cached: NoteRecord | undefined,
  ): Promise<{ id: string; movedFrom?: NoteRecord }> {
    const claimed = parsed.record.broken || parsed.id === undefined ? undefined : this.catalog.noteIdOf(parsed.id);
    if (claimed !== undefined) {
      const holder = this.catalog.get(claimed);
      if (!holder || holder.path === vaultPath || !(await this.files.exists(holder.path))) return { id: claimed };
      const challenger = { path: vaultPath, established: this.provisional !== undefined && cached?.id === claimed && cached.path === vaultPath };
      if (!challengerKeepsId(challenger, { path: holder.path, established: !this.provisional?.has(holder.path) })) return { id: this.catalog.freePathId(vaultPath) };
      // The holder is the copy: it becomes a note of its own, read again once this one is placed.
      this.catalog.unplace(holder);
      this.events.removed(holder);
      if (this.provisional) this.reingestLater.push(holder.path);
      else this.reread(holder.path);
      return { id: claimed };
    }
    if (known) {
      const holder = this.catalog.get(known.id);
      if (!holder || holder.path === vaultPath) return { id: known.id };
    } else if (parsed.record.size > 0) {
      // Moved: the note that held this content is gone from its old path (the
      // watcher may report the new path before the old one's removal).
      const holder = this.catalog.holderOfContent(hash);
      if (holder && holder.path !== vaultPath && !(await this.files.exists(holder.path))) return { id: holder.id, movedFrom: holder };
      const gone = this.catalog.takeGone(hash);
      if (gone !== undefined) return { id: gone.id, movedFrom: gone };
    }
    return { id: this.catalog.freePathId(vaultPath) };
  }
}
