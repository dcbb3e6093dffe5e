/** One note's entry: the labels of its chunk vectors, in chunk order, and the hash it was given with them. */
export interface NoteEntry {
  labels: number[];
  hash: string;
}

/**
 * The vector index's bookkeeping: which chunk vectors (each under a numeric
 * label, the id the HNSW graph knows it by) belong to which note. New labels
 * count up from one past the highest given or restored, so a label never
 * stands for two vectors at once. Maps keep insertion order, and a replaced
 * note keeps its place: that is the order of a snapshot's rows.
 */
export class ChunkStore {
  private readonly entries = new Map<string, NoteEntry>();
  // Kept though hnswlib holds its own copy: reading one back (getPoint) took 50–91 µs, so an exact scan of 20,000 chunks took 0.9–1.1 s against 29–40 ms (BENCHMARKS.md).
  private readonly vectorsByLabel = new Map<number, Float32Array>();
  private readonly ownersByLabel = new Map<number, string>();
  readonly notes: ReadonlyMap<string, NoteEntry> = this.entries;
  /** Each label's vector, at unit length. */
  readonly vectors: ReadonlyMap<number, Float32Array> = this.vectorsByLabel;
  /** Each label's note. */
  readonly owners: ReadonlyMap<number, string> = this.ownersByLabel;
  private nextLabel = 0;
  private withVectors = 0;
  /**
   * The block a snapshot's vectors were read into (restoreAll): labels below
   * `labelEnd` are views of it, and it stays whole while `live` of them are
   * still here.
   */
  private loaded: { floats: number; labelEnd: number; live: number } | undefined;

  get chunkCount(): number {
    return this.vectorsByLabel.size;
  }

  /** The loaded block's size in floats and how many of its vectors are still in the store; undefined once none is. */
  get loadedBlock(): { floats: number; live: number } | undefined {
    return this.loaded && { floats: this.loaded.floats, live: this.loaded.live };
  }

  /** Notes with at least one chunk: the notes a search can find. */
  get vectorNotes(): number {
    return this.withVectors;
  }

  /** The vector of a label that is in the store. */
  vector(label: number): Float32Array {
    return this.vectorsByLabel.get(label) as Float32Array;
  }

  chunksOf(noteId: string): Float32Array[] {
    return (this.entries.get(noteId)?.labels ?? []).map((label) => this.vector(label));
  }

  /**
   * Gives the note `vectors` (at unit length) under new labels, in place of
   * what it had; returns the labels it lost and the ones it got, for the
   * graph to follow.
   */
  replace(noteId: string, vectors: Float32Array[], hash: string): { dropped: number[]; added: number[] } {
    const dropped = this.dropVectors(noteId);
    const added = vectors.map((vector) => {
      const label = this.nextLabel++;
      this.vectorsByLabel.set(label, vector);
      this.ownersByLabel.set(label, noteId);
      return label;
    });
    this.entries.set(noteId, { labels: added, hash });
    if (added.length > 0) this.withVectors++;
    return { dropped, added };
  }

  /** Forgets the note; returns the labels it lost, or undefined when it was not there. */
  delete(noteId: string): number[] | undefined {
    if (!this.entries.has(noteId)) return undefined;
    const dropped = this.dropVectors(noteId);
    this.entries.delete(noteId);
    return dropped;
  }

  /**
   * Puts back the notes of a snapshot, into an empty store, under their saved
   * labels: `rows` are [note id, hash, labels], and each label's vector is the
   * next `dimensions` floats of `block`, in row order. The vectors are views
   * of the block, not copies.
   */
  restoreAll(rows: Iterable<readonly [string, string, number[]]>, block: Float32Array, dimensions: number): void {
    if (this.entries.size > 0) throw new Error('restoreAll needs an empty store');
    let offset = 0;
    for (const [noteId, hash, labels] of rows) {
      for (const label of labels) {
        this.vectorsByLabel.set(label, block.subarray(offset, offset + dimensions));
        offset += dimensions;
        this.ownersByLabel.set(label, noteId);
        this.nextLabel = Math.max(this.nextLabel, label + 1);
      }
      this.entries.set(noteId, { labels, hash });
      if (labels.length > 0) this.withVectors++;
    }
    const live = this.vectorsByLabel.size;
    this.loaded = live > 0 ? { floats: block.length, labelEnd: this.nextLabel, live } : undefined;
  }

  /** Drops the note's vectors but keeps its entry, so that a replaced note keeps its place. */
  private dropVectors(noteId: string): number[] {
    const note = this.entries.get(noteId);
    if (!note) return [];
    if (note.labels.length > 0) this.withVectors--;
    for (const label of note.labels) {
      this.vectorsByLabel.delete(label);
      this.ownersByLabel.delete(label);
      // Labels given after the load count up from labelEnd: any below it came from the block.
      if (this.loaded && label < this.loaded.labelEnd && --this.loaded.live === 0) this.loaded = undefined;
    }
    return note.labels;
  }
}
