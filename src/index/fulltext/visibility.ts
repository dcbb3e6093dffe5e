/**
 * Which notes of one index a connection sees, as a search is handed it.
 *
 * An index keeps the ranking statistics of a visible set (`RankedMiniSearch`,
 * O(notes) to make) until its notes change, and keeps them by `key`: an
 * explicit value, not the identity of a function, so that every connection
 * with the same boundary shares one set of statistics, and a cache entry
 * never outlives the meaning its key was given.
 */
export interface Visibility {
  /**
   * Names the set of notes seen: two visibilities with one key see the same
   * notes of an index for as long as its notes are unchanged. Made from the
   * access policy and what it resolves to now (`boundaryKey` in
   * src/access/policy.ts), never from anything that names a connection.
   */
  readonly key: string;
  /** Whether the connection sees the note; asked only while statistics are made. */
  sees(id: string): boolean;
}

/**
 * A search's visible set as given: a `Visibility`, a bare test (what tests
 * and benchmarks pass: its statistics are made for that one search and not
 * kept), or undefined for every note.
 */
export type VisibleSet = Visibility | ((id: string) => boolean) | undefined;

/** The test of a visible set, and the key its statistics are kept by (none for a bare test). Pure. */
export function visibleParts(visible: Exclude<VisibleSet, undefined>): { sees: (id: string) => boolean; key: string | undefined } {
  return typeof visible === 'function' ? { sees: visible, key: undefined } : { sees: (id) => visible.sees(id), key: visible.key };
}

/**
 * Visible sets an index keeps statistics for: one per boundary in use (each
 * a byte and a few numbers per note: 100 KB at 100,000 notes), however many
 * connections share it.
 */
const KEPT_SETS = 32;

/**
 * What an index works out for a visible set (its ranking statistics), kept
 * by the set's key while the index is at the version it was made for: a
 * key's entry from before a change is stale and dropped at the next look.
 * At most `most` are kept, the least recently used let go first.
 */
export class KeptPerVisibleSet<T extends { version: number }> {
  private readonly kept = new Map<string, T>();

  constructor(private readonly most = KEPT_SETS) {}

  /** The entry of `key` made at `version`; none for a bare test (no key). */
  get(key: string | undefined, version: number): T | undefined {
    if (key === undefined) return undefined;
    const entry = this.kept.get(key);
    if (entry === undefined) return undefined;
    this.kept.delete(key);
    if (entry.version !== version) {
      // The index changed: every entry made before is stale.
      for (const [other, { version: made }] of this.kept) if (made !== version) this.kept.delete(other);
      return undefined;
    }
    // Put back last: the Map's order is the order of use.
    this.kept.set(key, entry);
    return entry;
  }

  set(key: string | undefined, entry: T): void {
    if (key === undefined) return;
    this.kept.delete(key);
    this.kept.set(key, entry);
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= this.most) break;
      this.kept.delete(oldest);
    }
  }

  get size(): number {
    return this.kept.size;
  }
}
