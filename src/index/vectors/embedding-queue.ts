/**
 * The notes waiting to be embedded, in the order they are embedded, for the
 * semantic indexer (semantic-indexer.ts), which decides what is waiting and
 * sends each group it takes to the workers. Apart from it because the
 * order is a job of its own: two passes, each newest first, and entries of
 * notes changed or removed since they were queued skipped when they come up.
 */
import { PriorityQueue } from '../priority-queue.js';

export interface PendingNote {
  id: string;
  hash: string;
  text: string;
  turn: number;
  updatedMs: number;
}

/** A note whose opening window is embedded and whose other windows wait their turn. */
export interface OpenedNote extends PendingNote {
  windows: number;
}

/** A group of notes sent to the workers together: openings (one window a note) or the rest of opened notes. */
export type Group = { kind: 'openings'; notes: PendingNote[] } | { kind: 'passages'; notes: OpenedNote[] };

export class EmbeddingQueue {
  /** Texts waiting to be embedded, with the place each holds in `queue`. */
  private readonly pending = new Map<string, { text: string; turn: number; updatedMs: number }>();
  /**
   * The order they are embedded in: the most recently updated note first,
   * so that the notes a person is most likely to ask about are searchable by
   * meaning first (a cold start of 10,000 notes embeds for many minutes).
   * Entries for notes since changed or removed are skipped when they come up.
   *
   * Embedding runs in two passes: first every note's opening window (its
   * title and first 65–75 words), then the other windows of long notes, in
   * the same order. A vault is searchable by meaning once the first pass is
   * done, at one model call a note; the second adds the passages.
   */
  private readonly queue = new PriorityQueue<{ id: string; turn: number }>();
  /** Notes whose opening is embedded and whose other windows wait, with their place in `passageQueue`. */
  private readonly passages = new Map<string, OpenedNote>();
  private readonly passageQueue = new PriorityQueue<{ id: string; turn: number }>();
  private turns = 0;

  /** Notes waiting, in either pass. */
  get size(): number {
    return this.pending.size + this.passages.size;
  }

  /** Notes waiting for their opening (the first pass). */
  get openingsWaiting(): number {
    return this.pending.size;
  }

  /** A note's text to embed from its opening on, in place of anything of it waiting; `updatedMs` decides its turn (newest first). */
  add(id: string, text: string, updatedMs: number): void {
    this.passages.delete(id);
    const turn = ++this.turns;
    this.pending.set(id, { text, turn, updatedMs });
    this.queue.push({ id, turn }, updatedMs);
  }

  /** Nothing of the note waits any more. */
  forget(id: string): void {
    this.pending.delete(id);
    this.passages.delete(id);
  }

  /** The notes waiting for their opening. */
  pendingIds(): string[] {
    return [...this.pending.keys()];
  }

  /** The note no longer waits for its opening (the snapshot holds its text). */
  dropPending(id: string): void {
    this.pending.delete(id);
  }

  clear(): void {
    this.pending.clear();
    this.queue.clear();
    this.passages.clear();
    this.passageQueue.clear();
  }

  /** A note waiting for its opening, whose opening (of `windows`, for text `hash`) the snapshot already holds, waits for the rest only. */
  skipToPassages(id: string, hash: string, windows: number): void {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.pending.delete(id);
    this.passages.set(id, { id, hash, windows, ...waiting });
    this.passageQueue.push({ id, turn: waiting.turn }, waiting.updatedMs);
  }

  /** A note whose opening was just embedded waits for its other windows, in its turn. */
  addPassages(note: OpenedNote): void {
    this.passages.set(note.id, note);
    this.passageQueue.push({ id: note.id, turn: note.turn }, note.updatedMs);
  }

  /**
   * Openings first (one window a note), then passages; about `target`
   * windows a group. `hashOf` is a note's current hash (a note without one
   * is gone); `blank` is told of a blank note, which has nothing to embed.
   */
  take(target: number, hashOf: (id: string) => string | undefined, blank: (id: string, hash: string) => void): Group {
    if (this.pending.size > 0) {
      const notes: PendingNote[] = [];
      while (notes.length < target) {
        const next = this.queue.pop();
        if (!next) break;
        const waiting = this.pending.get(next.id);
        if (waiting?.turn !== next.turn) continue; // changed again since, or gone
        this.pending.delete(next.id);
        const hash = hashOf(next.id);
        if (hash === undefined) continue;
        // A blank note has nothing to embed: it is done, and matches nothing.
        if (waiting.text.trim() === '') blank(next.id, hash);
        else notes.push({ id: next.id, hash, ...waiting });
      }
      // What is left in the queue then is only entries of notes since changed or gone.
      if (this.pending.size === 0) this.queue.clear();
      return { kind: 'openings', notes };
    }
    const notes: OpenedNote[] = [];
    let windows = 0;
    while (windows < target) {
      const next = this.passageQueue.pop();
      if (!next) break;
      const opened = this.passages.get(next.id);
      if (opened?.turn !== next.turn) continue;
      this.passages.delete(next.id);
      notes.push(opened);
      windows += opened.windows - 1;
    }
    if (this.passages.size === 0) this.passageQueue.clear();
    return { kind: 'passages', notes };
  }
}
