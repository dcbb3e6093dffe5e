import { linkKey, resolveLink } from '../format/links.js';
import type { NoteRecord } from './note.js';

/**
 * The vault's links both ways, kept in step with the notes: the notes by the
 * key links name them by (`linkKey`: the folded file name), and the notes
 * that hold a link with each key. Resolving a link reads the notes of its
 * key only; finding a note's backlinks reads the notes holding a link with
 * its key, and keeps those whose link resolves to it. Nothing resolved is
 * stored, so a note added, moved or gone changes what every link means at
 * once, as in Obsidian, without a pass over the vault.
 *
 * The groups are arrays: most keys have one note, and a Set per key cost
 * more memory than the scans of a few entries cost time.
 */
/** Whether a connection may see a note. */
export type Visible = (record: NoteRecord) => boolean;

export class LinkIndex {
  private readonly notesByKey = new Map<string, NoteRecord[]>();
  private readonly linkersByKey = new Map<string, NoteRecord[]>();

  put(record: NoteRecord, old?: NoteRecord): void {
    if (old) this.remove(old);
    add(this.notesByKey, linkKey(record.path), record);
    for (const key of linkKeysOf(record)) add(this.linkersByKey, key, record);
  }

  remove(record: NoteRecord): void {
    drop(this.notesByKey, linkKey(record.path), record);
    for (const key of linkKeysOf(record)) drop(this.linkersByKey, key, record);
  }

  /**
   * The note a link path written in the note at `sourcePath` stands for
   * (links.ts), or undefined; with `visible`, chosen among the notes it
   * admits only, as if the others did not exist.
   */
  resolve(linkPath: string, sourcePath: string, visible?: Visible): NoteRecord | undefined {
    const group = this.notesByKey.get(linkKey(linkPath));
    if (!group) return undefined;
    const notes = visible ? group.filter(visible) : group;
    const found = resolveLink(linkPath, sourcePath, notes.map((note) => note.path));
    return found === undefined ? undefined : notes.find((note) => note.path === found);
  }

  /**
   * The notes holding a link that resolves to `target`, `target` itself
   * among them when it links to itself (as Obsidian lists it), in no
   * particular order; with `visible`, among the notes it admits,
   * each link resolved as `resolve` does with it.
   */
  *backlinks(target: NoteRecord, visible?: Visible): Generator<NoteRecord> {
    const key = linkKey(target.path);
    for (const source of this.linkersByKey.get(key) ?? []) {
      if (visible && !visible(source)) continue;
      for (const link of source.links ?? []) {
        if (linkKey(link) === key && this.resolve(link, source.path, visible)?.id === target.id) {
          yield source;
          break;
        }
      }
    }
  }

  /** The notes whose file name folds like that of `notePath` (its `linkKey`), in no particular order. */
  named(notePath: string): readonly NoteRecord[] {
    return this.notesByKey.get(linkKey(notePath)) ?? [];
  }

  /** The notes holding a link with the key of `notePath` (what may resolve to a note there), in no particular order. */
  linkersOfKey(notePath: string): readonly NoteRecord[] {
    return this.linkersByKey.get(linkKey(notePath)) ?? [];
  }
}

function linkKeysOf(record: NoteRecord): Set<string> {
  const keys = new Set<string>();
  for (const link of record.links ?? []) keys.add(linkKey(link));
  return keys;
}

function add(groups: Map<string, NoteRecord[]>, key: string, record: NoteRecord): void {
  const group = groups.get(key);
  if (group) group.push(record);
  else groups.set(key, [record]);
}

function drop(groups: Map<string, NoteRecord[]>, key: string, record: NoteRecord): void {
  const group = groups.get(key);
  if (!group) return;
  const at = group.indexOf(record);
  if (at < 0) return;
  if (group.length === 1) groups.delete(key);
  else {
    group[at] = group[group.length - 1] as NoteRecord;
    group.pop();
  }
}
