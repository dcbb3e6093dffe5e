import { InvalidInputError, NoteNotFoundError, NotReadyError, ReadOnlyNoteError } from '../vault/errors.js';
import { extractTags } from '../vault/markdown.js';
import type { NoteRecord, NoteWithBody } from '../vault/note.js';
import { noteHasTag } from '../vault/tags.js';
import type { UpdateRequest, Vault } from '../vault/vault.js';
import { folderVisible, isBounded, keepsBoundaryTag, noteInBoundary, sharedNotesVisible, type AccessPolicy } from './policy.js';

/** Append the boundary tag to a new note's text when the text lacks it. Pure. */
export function withBoundaryTag(body: string, tag: string | undefined): string {
  if (tag === undefined || noteHasTag(extractTags(body), [tag])) return body;
  if (body.trim() === '') return tag;
  return `${body.replace(/\s+$/u, '')}\n\n${tag}`;
}

/** How long a tool call waits for the first read of the vault before saying it is not ready. */
const READY_WAIT_MS = 2000;

/** A note as one connection sees it, with the vault it came from. */
export interface VisibleNote {
  record: NoteRecord;
  /** Set on a teammate's shared note. */
  owner?: string;
}

/**
 * The vault as one connection may see it. Every tool reads and writes through
 * a view, so the access policy is applied in this one place: a note outside
 * the boundary is indistinguishable from one that does not exist.
 */
export class VaultView {
  constructor(
    readonly own: Vault,
    readonly teammates: readonly Vault[],
    readonly policy: AccessPolicy,
  ) {}

  /**
   * Tools call this first. A call that arrives while the vault is still being
   * read waits a moment (a small vault is read in well under a second), then
   * says how far along the read is rather than hang.
   */
  async assertReady(what = 'The vault is still being read'): Promise<void> {
    if (await this.own.whenReady(READY_WAIT_MS)) return;
    const { done, total, phase } = this.own.progress;
    const where = phase === 'reading' && total > 0 ? ` (${done.toLocaleString('en')} of ${total.toLocaleString('en')} notes read)` : '';
    throw new NotReadyError(`${what}${where}; try again in a few seconds.`);
  }

  /** Whether a note of the person's own vault is visible. */
  seesOwn(record: NoteRecord): boolean {
    return noteInBoundary(this.policy, record);
  }

  /** The person's own in-boundary notes: the personal views (tags, folders, reviews, filters). */
  *ownNotes(): Generator<NoteRecord> {
    for (const record of this.own.all()) if (this.seesOwn(record)) yield record;
  }

  /** Teammates' shared notes, where this connection may see them. */
  *sharedNotes(): Generator<VisibleNote> {
    if (!sharedNotesVisible(this.policy)) return;
    for (const vault of this.teammates) {
      for (const record of vault.all()) if (record.shared) yield { record, owner: vault.owner ?? 'teammate' };
    }
  }

  /** Own and shared notes: what list_notes and the searches cover. */
  *allNotes(): Generator<VisibleNote> {
    for (const record of this.ownNotes()) yield { record };
    yield* this.sharedNotes();
  }

  /** Find a visible note by id, own first, then shared. */
  find(id: string): VisibleNote | undefined {
    const own = this.own.get(id);
    if (own) return this.seesOwn(own) ? { record: own } : undefined;
    if (!sharedNotesVisible(this.policy)) return undefined;
    for (const vault of this.teammates) {
      const record = vault.get(id);
      if (record?.shared) return { record, owner: vault.owner ?? 'teammate' };
    }
    return undefined;
  }

  /** The vaults this connection may search: its own, and teammates' where shared notes are visible. */
  searchableVaults(): Vault[] {
    return sharedNotesVisible(this.policy) ? [this.own, ...this.teammates] : [this.own];
  }

  /** Whether this connection may see a note of a given vault: `visibleIn` without building the answer. */
  canSee(vault: Vault, id: string): boolean {
    const record = vault.get(id);
    if (!record) return false;
    if (vault === this.own) return this.seesOwn(record);
    return record.shared && sharedNotesVisible(this.policy);
  }

  /**
   * `canSee` for one vault, for code that tests many notes at once; undefined
   * when this connection sees every note of it (its own vault, with no
   * boundary), so that such code can skip the test.
   */
  visibilityTest(vault: Vault): ((id: string) => boolean) | undefined {
    if (vault === this.own && !isBounded(this.policy)) return undefined;
    return (id) => this.canSee(vault, id);
  }

  /** A note of a given vault if this connection may see it. */
  visibleIn(vault: Vault, id: string): VisibleNote | undefined {
    const record = vault.get(id);
    if (!record || !this.canSee(vault, id)) return undefined;
    return vault === this.own ? { record } : { record, owner: vault.owner ?? 'teammate' };
  }

  /** Read a visible note with its body; invisible and unknown ids alike are "Note not found". */
  async read(id: string): Promise<NoteWithBody & { owner?: string }> {
    const found = this.find(id);
    if (!found) throw new NoteNotFoundError();
    const vault = found.owner === undefined ? this.own : this.teammateOf(id);
    const note = await vault.read(id);
    // The file may have changed since it was listed: visibility is decided on what was read.
    if (found.owner === undefined ? !this.seesOwn(note.record) : !note.record.shared) throw new NoteNotFoundError();
    return found.owner === undefined ? note : { ...note, owner: found.owner };
  }

  /** A note this connection may change: own and in-boundary. Shared notes are refused plainly. */
  writable(id: string): NoteRecord {
    const found = this.find(id);
    if (!found) throw new NoteNotFoundError();
    if (found.owner !== undefined) throw new ReadOnlyNoteError(`This note is shared by ${found.owner}; it can be read but not changed.`);
    return found.record;
  }

  /**
   * Refuses a write to a note outside the boundary, decided on the note as
   * it is under its lock (it may have been moved out since the tool looked):
   * such a note is "not found", as everywhere else.
   */
  private readonly admitOwn = (record: NoteRecord): void => {
    if (!this.seesOwn(record)) throw new NoteNotFoundError();
  };

  /** Create a note: filed into the boundary folder, the boundary tag added to its text when missing. */
  create(request: { title: string; text: string; noteCap: number | null }): Promise<NoteWithBody> {
    const { folder, tag } = this.policy;
    return this.own.create({
      title: request.title,
      text: withBoundaryTag(request.text, tag),
      folder: folder === undefined ? null : (this.own.findFolder(folder) ?? folder),
      noteCap: request.noteCap,
    });
  }

  /** Change a note's body or title; an edit that would take away the boundary tag is refused, naming it. */
  update(id: string, request: Pick<UpdateRequest, 'mode' | 'text' | 'title'>): Promise<NoteWithBody> {
    this.writable(id);
    const { tag } = this.policy;
    const edit: UpdateRequest = { ...request, admit: this.admitOwn };
    if (tag !== undefined) {
      edit.guard = (tagsAfter) => {
        if (!keepsBoundaryTag(this.policy, tagsAfter)) {
          throw new InvalidInputError(`This edit would remove the tag ${tag}, which this connection is limited to; keep ${tag} in the text.`);
        }
      };
    }
    return this.own.update(id, edit);
  }

  /** Write frontmatter keys of an own, visible note (a card's review block). */
  setFrontmatter(id: string, updates: Record<string, unknown>): Promise<NoteRecord> {
    this.writable(id);
    return this.own.setFrontmatter(id, updates, this.admitOwn);
  }

  delete(id: string): Promise<NoteRecord> {
    this.writable(id);
    return this.own.delete(id, this.admitOwn);
  }

  private teammateOf(id: string): Vault {
    const vault = this.teammates.find((candidate) => candidate.get(id) !== undefined);
    if (!vault) throw new NoteNotFoundError();
    return vault;
  }

  /** Folders this connection may see, with the in-boundary notes directly inside each. */
  folderCounts(): { folders: Map<string, number>; unfiled: number } {
    const counts = new Map<string, number>();
    let unfiled = 0;
    for (const record of this.ownNotes()) {
      if (record.folder === null) unfiled++;
      else counts.set(record.folder, (counts.get(record.folder) ?? 0) + 1);
    }
    const folders = new Map<string, number>();
    for (const folder of this.own.folders()) {
      const count = counts.get(folder) ?? 0;
      if (folderVisible(this.policy, folder, count > 0)) folders.set(folder, count);
    }
    // A note may sit in a folder the scan has not reported yet (watcher lag).
    for (const [folder, count] of counts) if (!folders.has(folder) && folderVisible(this.policy, folder, true)) folders.set(folder, count);
    return { folders, unfiled };
  }

  /** The canonical name of a visible folder given in any case. */
  findFolder(name: string): string | undefined {
    const wanted = name.replace(/^\/+|\/+$/g, '').toLowerCase();
    for (const folder of this.folderCounts().folders.keys()) if (folder.toLowerCase() === wanted) return folder;
    return undefined;
  }
}
