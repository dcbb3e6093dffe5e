import type { NoteRecord } from '../vault/note.js';
import type { Vault } from '../vault/vault.js';

/** A note of one vault changed, appeared (`removed` false) or went (`removed` true). */
export type NoteChangeListener = (id: string, removed: boolean) => void;

/**
 * One vault's note changes, handed on to every connection that listens. The
 * vault gets one listener of each kind however many connections listen (a
 * listener each was a `MaxListenersExceededWarning` past ten, and HTTP takes
 * 1,000 sessions), and none while no connection listens; each connection's
 * own listener goes with it (`VaultView#watch`).
 */
class NoteChanges {
  private readonly listeners = new Set<NoteChangeListener>();
  private readonly onNote = (record: NoteRecord): void => this.tell(record.id, false);
  private readonly onRemoved = (record: NoteRecord): void => this.tell(record.id, true);

  constructor(private readonly vault: Vault) {}

  /** Start handing changes to `listener`; returns what stops it (once is enough, more are harmless). */
  listen(listener: NoteChangeListener): () => void {
    // A listener added twice would be released by its first stop: each gets a wrapper of its own.
    const own: NoteChangeListener = (id, removed) => listener(id, removed);
    if (this.listeners.size === 0) {
      this.vault.on('note', this.onNote);
      this.vault.on('removed', this.onRemoved);
    }
    this.listeners.add(own);
    return () => {
      if (!this.listeners.delete(own) || this.listeners.size > 0) return;
      this.vault.off('note', this.onNote);
      this.vault.off('removed', this.onRemoved);
    };
  }

  get size(): number {
    return this.listeners.size;
  }

  private tell(id: string, removed: boolean): void {
    // A listener that stops another meanwhile must not be skipped or told twice: the set is copied.
    for (const listener of [...this.listeners]) listener(id, removed);
  }
}

/** Each vault's `NoteChanges`, made on first use, shared by every view of it, and gone with the vault. */
const byVault = new WeakMap<Vault, NoteChanges>();

/** Listen to a vault's note changes through its one shared subscription; returns what stops listening. */
export function listenToNotes(vault: Vault, listener: NoteChangeListener): () => void {
  let changes = byVault.get(vault);
  if (!changes) byVault.set(vault, (changes = new NoteChanges(vault)));
  return changes.listen(listener);
}

/** How many connections listen to a vault's changes now: what the tests check that a closed connection let go by. */
export function noteListeners(vault: Vault): number {
  return byVault.get(vault)?.size ?? 0;
}

/**
 * What a connection hears of the notes' changes through its view
 * (`VaultView#watch`, through `watchNotes`).
 */
export interface NoteWatcher {
  /**
   * A note changed, appeared or went: `visible` says whether this connection
   * sees it now (a note removed is not visible). Told of a note it sees now,
   * and of one it cannot see only when `knows` names it: an id outside its
   * view that it was never given is never handed to it.
   */
  changed(id: string, visible: boolean): void;
  /** Whether the watcher was given this id before (a note it listed or follows). */
  knows(id: string): boolean;
}

/**
 * Tell `watcher` of changes to the notes of `vaults` that `sees` lets
 * through (and of one it knows leaving its view), until the function
 * returned is called.
 */
export function watchNotes(vaults: readonly Vault[], sees: (id: string) => boolean, watcher: NoteWatcher): () => void {
  const stops = vaults.map((vault) =>
    listenToNotes(vault, (id, removed) => {
      const visible = !removed && sees(id);
      if (visible || watcher.knows(id)) watcher.changed(id, visible);
    }),
  );
  return () => {
    for (const stop of stops.splice(0)) stop();
  };
}
