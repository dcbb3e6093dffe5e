/**
 * The write half of a connection's view (`VaultView`, view.ts): create,
 * update, edit, set properties, grading, move and delete, each deciding the
 * write's folder and tag boundary, and deciding it again under the note's
 * lock (`admitOwn`), so that a note moved out of the boundary meanwhile is
 * not written. Apart from view.ts, whose reads it uses (what the connection
 * sees, the folders it sees, the journal of a call), so that every rule a
 * write must pass is in one file. The view composes it: tools still call
 * the view.
 */
import { foldName, resolveName } from '../storage/names.js';
import { FolderNotFoundError, InvalidInputError, NoteNotFoundError } from '../vault/errors.js';
import { extractTags } from '../format/markdown.js';
import type { NoteRecord, NoteWithBody } from '../vault/note.js';
import { noteHasTag } from '../format/tags.js';
import { folderOf } from '../vault/parse.js';
import type { WriteJournal } from '../vault/record/activity.js';
import type { BodyEditRequest, BodyOperation } from '../vault/body-edits.js';
import type { Deleted, PropertiesRequest, UpdateRequest, Vault } from '../vault/vault.js';
import { askedName } from '../vault/move-target.js';
import type { CompleteTaskRequest } from '../vault/tasks.js';
import { checkProperties, type PropertyUpdates, type PropertyValue } from '../vault/properties.js';
import { folderInBoundary, isBounded, keepsBoundaryTag, type AccessPolicy } from './policy.js';
import { allowedTagRename, renameInNotes, type RenameConfirm, type RenameProgress, type TagRenameOutcome } from './tag-renaming.js';

/**
 * A new note's text with the boundary tag counted in it: as given when it
 * has the tag, else with the tag appended as a last paragraph. Text that
 * leaves a block open (a code fence, `<pre>`, `<script>`, an HTML comment)
 * would swallow an appended tag, so the tag then goes first instead; if it
 * still would not count, the create is refused. Pure.
 */
export function withBoundaryTag(body: string, tag: string | undefined): string {
  if (tag === undefined) return body;
  const counts = (text: string): boolean => noteHasTag(extractTags(text), [tag]);
  if (counts(body)) return body;
  if (body.trim() === '') return tag;
  const appended = `${body.replace(/\s+$/u, '')}\n\n${tag}`;
  if (counts(appended)) return appended;
  const prepended = `${tag}\n\n${body}`;
  if (counts(prepended)) return prepended;
  throw new InvalidInputError(`This connection is limited to the tag ${tag}, and the text would hide it (it leaves a block open); put ${tag} where it counts as a tag.`);
}

/**
 * The folder a move answers with: each folder of `landed` (where the note
 * went, spelt as on disk) that the connection saw before the move as it is,
 * (or a folder below it), each other one as the connection named it (`asked`, which folds alike
 * segment by segment). A folder it could not see, named in another case, is
 * moved into as it is spelt on disk (no look-alike is made beside it), and
 * the answer is the one it would be had that folder not been there. Pure.
 */
export function shownFolder(asked: string, landed: string, visible: ReadonlySet<string>): string {
  const wanted = asked.split('/');
  const spelt = landed.split('/');
  if (wanted.length !== spelt.length || foldName(asked) !== foldName(landed)) return landed;
  const seen = (folder: string): boolean => visible.has(folder) || [...visible].some((other) => other.startsWith(`${folder}/`));
  return spelt.map((segment, i) => (seen(spelt.slice(0, i + 1).join('/')) ? segment : (wanted[i] as string))).join('/');
}

/** What create_note asks for: `folder` as move_note names it, `properties` as set_properties takes them. */
export interface NewNote {
  title: string;
  text: string;
  noteCap: number | null;
  folder?: string | undefined;
  properties?: Readonly<Record<string, PropertyValue>> | undefined;
  /** The text opens with a frontmatter block of its own, kept (get_daily_note's template: CreateRequest.ownFrontmatter). */
  ownFrontmatter?: boolean;
}

/** What the writes read of the view they belong to. */
export interface WriterView {
  own: Vault;
  policy: AccessPolicy;
  /** Whether a note of the person's own vault is visible (`VaultView#seesOwn`). */
  seesOwn(record: NoteRecord): boolean;
  /** The note, when this connection may change it; else the refusal (`VaultView#writable`). */
  writable(id: string): NoteRecord;
  /** The folders this connection sees (`VaultView#folderCounts`). */
  visibleFolders(): Iterable<string>;
  /** The journal of one tool call's writes, when writes are recorded. */
  journal(tool: string): WriteJournal | undefined;
  /** The person's own notes this connection sees, of these tags when given (`VaultView#ownNotes`). */
  ownNotes(tagged?: readonly string[]): Iterable<NoteRecord>;
}

/** A folder a move or a create names, as resolved, with the folders the connection saw then. */
interface AskedFolder {
  folder: string | null;
  visible: Set<string>;
}

/** One connection's writes, bounded by its policy; see the header. */
export class ViewWrites {
  constructor(private readonly view: WriterView) {}

  /**
   * Refuses a write to a note outside the boundary, decided on the note as
   * it is under its lock (it may have been moved out since the tool looked):
   * such a note is "not found", as everywhere else.
   */
  private readonly admitOwn = (record: NoteRecord): void => {
    if (!this.view.seesOwn(record)) throw new NoteNotFoundError();
  };

  /**
   * Create a note: filed into `folder` (named as `move` takes it, bounded
   * alike) or else the boundary folder, the boundary tag added to its text
   * when missing, with `properties` in its frontmatter from the start.
   */
  async create(request: NewNote, tool: string): Promise<NoteWithBody> {
    const { own, policy } = this.view;
    const properties = request.properties === undefined ? undefined : this.checkedProperties(request.properties);
    const { folder, tag } = policy;
    const journal = this.view.journal(tool);
    const asked = request.folder === undefined ? undefined : this.askedFolder(request.folder);
    const made = await own.create({
      title: request.title,
      text: withBoundaryTag(request.text, tag),
      folder: asked !== undefined ? asked.folder : folder === undefined ? null : (own.findFolder(folder) ?? folder),
      noteCap: request.noteCap,
      ...(properties ? { properties } : {}),
      ...(journal ? { journal } : {}),
      ...(request.ownFrontmatter ? { ownFrontmatter: true } : {}),
    });
    return asked === undefined ? made : shownIn(made, asked);
  }

  /** Change a note's body or title; an edit that would take away the boundary tag is refused, naming it. */
  update(id: string, request: Pick<UpdateRequest, 'mode' | 'text' | 'title'>, tool: string): Promise<NoteWithBody> {
    this.view.writable(id);
    const { tag } = this.view.policy;
    const edit: UpdateRequest = { ...request, admit: this.admitOwn };
    if (tag !== undefined) edit.guard = this.keepsTag;
    return this.view.own.update(id, edit, this.view.journal(tool));
  }

  /** Edit inside an own, visible note's body (`edit_note`); as with update, an edit that would take away the boundary tag is refused. */
  editBody(id: string, operation: BodyOperation, tool: string): Promise<NoteWithBody> {
    this.view.writable(id);
    const edit: BodyEditRequest = { operation, admit: this.admitOwn };
    if (this.view.policy.tag !== undefined) edit.guard = this.keepsTag;
    return this.view.own.editBody(id, edit, this.view.journal(tool));
  }

  /** Tick or untick a task of an own, visible note (`complete_task`, src/vault/tasks.ts): the text of a task holds no boundary tag it could take away. */
  completeTask(id: string, request: Omit<CompleteTaskRequest, 'admit'>, tool: string): Promise<NoteWithBody> {
    this.view.writable(id);
    return this.view.own.completeTask(id, { ...request, admit: this.admitOwn }, this.view.journal(tool));
  }

  /**
   * rename_tag over the own notes this connection sees (tag-renaming.ts: what
   * a boundary allows, and the walk); every note's write is one call's in the
   * record, undone together. Under a tag boundary each note is checked again,
   * under its lock, to keep the boundary tag.
   */
  async renameTag(from: string, to: string, tool: string, progress?: RenameProgress, confirm?: RenameConfirm): Promise<TagRenameOutcome> {
    const { policy } = this.view;
    const rename = allowedTagRename(policy, from, to);
    const journal = this.view.journal(tool);
    const request = { rename, admit: this.admitOwn, ...(policy.tag !== undefined ? { guard: this.keepsTag } : {}) };
    const notes = [...this.view.ownNotes([rename.from])];
    // The count asked about is of the notes this connection sees and may rename: nothing outside its boundary.
    if (confirm && notes.length > 0) await confirm(rename.from, rename.to, notes.length);
    return renameInNotes(rename, notes, (record) => this.view.own.renameTag(record.id, request, journal), progress);
  }

  /** Refuses the tags a note would have after an edit when the boundary tag is not among them, naming it. */
  private readonly keepsTag = (tagsAfter: string[]): void => {
    const { policy } = this.view;
    const { tag } = policy;
    if (tag !== undefined && !keepsBoundaryTag(policy, tagsAfter)) {
      throw new InvalidInputError(`This edit would remove the tag ${tag}, which this connection is limited to; keep ${tag} in the text.`);
    }
  };

  /**
   * set_properties on an own, visible note (properties.ts: what may be set, and how); under a tag boundary, a change
   * that would take the boundary tag away (from `tags`, with no copy of it
   * in the body) is refused, naming it.
   */
  setProperties(id: string, properties: Readonly<Record<string, PropertyValue>>, tool: string): Promise<NoteWithBody> {
    // Checked before the note is looked up: the same answer for every id, and nothing written.
    const request: PropertiesRequest = { properties: this.checkedProperties(properties), admit: this.admitOwn };
    this.view.writable(id);
    const { policy } = this.view;
    const { tag } = policy;
    if (tag !== undefined) {
      request.guard = (tagsAfter) => {
        if (!keepsBoundaryTag(policy, tagsAfter)) {
          throw new InvalidInputError(`This change would remove the tag ${tag}, which this connection is limited to; keep ${tag} in tags.`);
        }
      };
    }
    return this.view.own.setProperties(id, request, this.view.journal(tool));
  }

  /**
   * checkProperties, and under a boundary no removal of `title`. Security:
   * the title would then come from the file name, which is numbered (` 2`)
   * where a note the connection cannot see held the name when it was made
   * or moved; a title given instead tells nothing.
   */
  private checkedProperties(properties: Readonly<Record<string, PropertyValue>>): PropertyUpdates {
    const updates = checkProperties(properties);
    if (isBounded(this.view.policy) && Object.hasOwn(updates, 'title') && updates.title === undefined) {
      throw new InvalidInputError('This connection cannot remove the title property; set it to the title wanted instead.');
    }
    return updates;
  }

  /** Write frontmatter keys of an own, visible note (a card's review block). */
  setFrontmatter(id: string, updates: Record<string, unknown>, tool: string): Promise<NoteRecord> {
    this.view.writable(id);
    return this.view.own.setFrontmatter(id, updates, this.admitOwn, this.view.journal(tool));
  }

  /**
   * Move an own, visible note into a folder (`"unfiled"`: the vault's top
   * level; left out: where it is), made when missing, and/or rename it
   * (`newName`, checked by `askedName`). The folder is named as list_folders names it
   * (any case); a name that is none of the folders this connection sees is
   * a new folder of that spelling. Under a folder boundary the folder must
   * lie inside it, else it is "Folder not found", as a folder outside is
   * everywhere else.
   */
  async move(id: string, folderName: string | undefined, tool: string, newName?: string): Promise<NoteWithBody> {
    this.view.writable(id);
    const name = newName === undefined ? undefined : askedName(newName);
    const asked = folderName === undefined ? undefined : this.askedFolder(folderName);
    const seen = isBounded(this.view.policy) ? (record: NoteRecord): boolean => this.view.seesOwn(record) : undefined;
    const target = name === undefined ? { folder: asked?.folder } : { folder: asked?.folder, name };
    const moved = await this.view.own.move(id, target, this.admitOwn, this.view.journal(tool), seen);
    return asked === undefined ? moved : shownIn(moved, asked);
  }

  /**
   * The folder a move or a create names (`"unfiled"`: the top level), as
   * `move` resolves it, with the folders this connection sees; "Folder not
   * found" for one outside its boundary.
   */
  private askedFolder(folderName: string): AskedFolder {
    const trimmed = folderName.trim().replace(/^\/+|\/+$/g, '');
    let folder: string | null = null;
    // Resolved among the folders this connection sees, so that a look-alike spelling outside its view is never revealed.
    const visible = new Set(this.view.visibleFolders());
    if (trimmed.toLowerCase() !== 'unfiled') folder = resolveName(trimmed, visible) ?? trimmed;
    if (!folderInBoundary(this.view.policy, folder, this.view.own)) throw new FolderNotFoundError(folderName);
    return { folder, visible };
  }

  /** Delete an own, visible note, and its attachment where the boundary admits it (see `admitAttachment`). */
  delete(id: string, tool: string): Promise<Deleted> {
    this.view.writable(id);
    return this.view.own.delete(id, this.admitOwn, this.admitAttachment, this.view.journal(tool));
  }

  /**
   * An attachment is inside the boundary when its folder is inside the
   * boundary folder; under a tag boundary (attachments have no tags), when it
   * lies in its note's own folder or below it.
   */
  private readonly admitAttachment = (attachmentPath: string, note: NoteRecord): boolean => {
    const { policy, own } = this.view;
    const folder = folderOf(attachmentPath);
    if (!folderInBoundary(policy, folder, own)) return false;
    if (policy.tag === undefined || note.folder === null) return true;
    return folder !== null && (folder === note.folder || folder.startsWith(`${note.folder}/`));
  };
}

/** A note that landed in the folder asked for, with that folder as the connection knows it (see `shownFolder`). */
function shownIn(note: NoteWithBody, asked: AskedFolder): NoteWithBody {
  const landed = note.record.folder;
  if (asked.folder === null || landed === null || landed === asked.folder) return note;
  return { ...note, record: { ...note.record, folder: shownFolder(asked.folder, landed, asked.visible) } };
}
