import type { NoteWatcher, VaultView } from '../access/view.js';

/** Notes appearing or vanishing within this long are told as one `list_changed`. */
export const LIST_CHANGED_DEBOUNCE_MS = 500;

/** How a connection's client is told: `resources/updated` of one note, and `resources/list_changed`. */
export interface ResourceNotices {
  updated(id: string): void;
  listChanged(): void;
}

/**
 * What one connection's client is told of the changes to its notes. Once it
 * has listed, a note that comes into its view or leaves it is told as
 * `list_changed`, a burst of them as one. A note it follows
 * (`resources/subscribe`) is told as updated when it changes; one that
 * leaves its view (deleted, moved or retagged out of the boundary) is told
 * once, as updated, and then no longer followed.
 *
 * It hears of changes through the connection's view (`VaultView#watch`),
 * from the client's first list or subscription until `stop`, when the
 * connection closes: a client that does neither costs nothing per change,
 * and a closed one leaves nothing listening.
 */
export class ResourceChanges {
  /** The ids the client may see, kept only for a client that listed at all. */
  private listed: Set<string> | undefined;
  /** The ids of the notes it follows: only notes it may see. */
  private readonly followed = new Set<string>();
  private listTimer: NodeJS.Timeout | undefined;
  private stopWatching: (() => void) | undefined;
  private stopped = false;

  constructor(
    private readonly view: VaultView,
    private readonly notices: ResourceNotices,
  ) {}

  /**
   * The client lists. At its first list, returns what records each id it is
   * given (every note it sees, as the list is made); undefined after.
   */
  listing(): ((id: string) => void) | undefined {
    if (this.listed !== undefined || this.stopped) return undefined;
    const listed = new Set<string>();
    this.listed = listed;
    this.watch();
    return (id) => listed.add(id);
  }

  /** Follow a note the client may see (the caller checked). */
  follow(id: string): void {
    if (this.stopped) return;
    this.followed.add(id);
    this.watch();
  }

  unfollow(id: string): void {
    this.followed.delete(id);
  }

  /** The connection closed: nothing more is told, and the view's listener goes. */
  stop(): void {
    this.stopped = true;
    this.stopWatching?.();
    this.stopWatching = undefined;
    this.followed.clear();
    this.listed = undefined;
    if (this.listTimer) clearTimeout(this.listTimer);
    this.listTimer = undefined;
  }

  private watch(): void {
    if (this.stopWatching) return;
    const watcher: NoteWatcher = {
      changed: (id, visible) => this.changed(id, visible),
      knows: (id) => this.listed?.has(id) === true || this.followed.has(id),
    };
    this.stopWatching = this.view.watch(watcher);
  }

  private changed(id: string, visible: boolean): void {
    const listed = this.listed;
    if (listed !== undefined && visible !== listed.has(id)) {
      if (visible) listed.add(id);
      else listed.delete(id);
      this.listChanged();
    }
    if (!this.followed.has(id)) return;
    if (!visible) this.followed.delete(id);
    this.notices.updated(id);
  }

  private listChanged(): void {
    this.listTimer ??= setTimeout(() => {
      this.listTimer = undefined;
      this.notices.listChanged();
    }, LIST_CHANGED_DEBOUNCE_MS);
  }
}
