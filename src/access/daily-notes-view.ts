import type { DailySettings } from '../format/daily-notes.js';
import type { NoteRecord } from '../vault/note.js';
import type { Vault } from '../vault/vault.js';
import { folderInBoundary, isBounded, type AccessPolicy } from './policy.js';

/**
 * What get_daily_note reads through a connection's view: the vault's daily
 * notes settings, the day's note where the settings put it, and the
 * template's text, each only among the notes the connection sees (an
 * outside template gives an empty note, never its text). Apart from
 * view.ts, as its own job.
 */

/** What these reads take of the view they belong to. */
export interface DailyReaderView {
  own: Vault;
  policy: AccessPolicy;
  /** Whether a note of the person's own vault is visible (`VaultView#seesOwn`). */
  seesOwn(record: NoteRecord): boolean;
}

export class DailyNotesView {
  constructor(private readonly view: DailyReaderView) {}

  /** Obsidian's daily notes settings of the person's vault, as get_daily_note follows them. */
  settings(): Promise<DailySettings> {
    return this.view.own.dailySettings();
  }

  /**
   * The own note at a vault path (of plain segments), if this connection
   * sees it: spelt so, else in the folder of that name in another case (where
   * a create lands), looked for on the disk when the vault has not seen it
   * yet (a daily note made by hand a moment ago).
   */
  async ownNoteAt(vaultPath: string): Promise<NoteRecord | undefined> {
    if (vaultPath.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return undefined;
    const slash = vaultPath.lastIndexOf('/');
    const folder = slash < 0 ? null : (this.view.own.findFolder(vaultPath.slice(0, slash)) ?? vaultPath.slice(0, slash));
    const spelt = folder === null ? vaultPath : `${folder}/${vaultPath.slice(slash + 1)}`;
    let record = this.view.own.atPath(vaultPath) ?? this.view.own.atPath(spelt);
    if (record === undefined && folderInBoundary(this.view.policy, folder, this.view.own)) {
      await this.view.own.refresh(spelt);
      record = this.view.own.atPath(spelt);
    }
    return record !== undefined && this.view.seesOwn(record) ? record : undefined;
  }

  /** The whole file of the note a template setting names (as a link from the top of the vault), among the notes this connection sees. */
  templateText(linkPath: string): Promise<string | undefined> {
    return this.view.own.linkedFileText(linkPath, isBounded(this.view.policy) ? (record) => this.view.seesOwn(record) : undefined);
  }
}
