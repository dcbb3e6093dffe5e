import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { NoteRecord } from './note.js';

/** An index over the catalog's notes, kept in step one note at a time. */
export interface RecordIndex {
  /** Index `record` in place of `old`, the object indexed for that note before, if any. */
  put(record: NoteRecord, old?: NoteRecord): void;
  /** Forget `record`, the very object indexed. */
  remove(record: NoteRecord): void;
}

/** Notes indexed between two turns of the event loop: some 25 ms at 100,000 notes for the tag index. */
const RECORDS_PER_STEP = 5000;

/**
 * An index the catalog makes after the first read rather than as it places
 * each note (a warm start places 100,000 notes in some 260 ms, which every
 * index made on the way would add to), either a slice at a time with the
 * event loop free in between (`makeInSteps`) or at once when a query needs
 * it first (`now`). Changes meanwhile go to the index under way, and a note
 * changed or gone before its turn is put in (or left out) as it is.
 */
export class DeferredIndex<I extends RecordIndex> {
  private made: I | undefined;
  private underWay: { index: I; steps: Generator<void, void> } | undefined;

  constructor(
    private readonly make: () => I,
    /** The catalog's notes now, and whether a record is still the current one of its note. */
    private readonly records: () => Iterable<NoteRecord>,
    private readonly isCurrent: (record: NoteRecord) => boolean,
  ) {}

  /** The index, made now (or finished, if under way) when it is not yet. */
  now(): I {
    if (this.made) return this.made;
    const underWay = this.underWay ?? this.begin();
    while (!underWay.steps.next().done);
    return this.made ?? underWay.index;
  }

  /** The index that changes must be applied to: the one made, or the one under way; undefined before either. */
  get live(): I | undefined {
    return this.made ?? this.underWay?.index;
  }

  /** Make the index a slice at a time, with the event loop free in between. */
  async makeInSteps(): Promise<void> {
    if (this.made) return;
    const underWay = this.underWay ?? this.begin();
    while (!this.made) {
      await yieldToEventLoop();
      if (this.underWay !== underWay) return;
      underWay.steps.next();
    }
  }

  private begin(): { index: I; steps: Generator<void, void> } {
    const index = this.make();
    this.underWay = { index, steps: this.steps(index, [...this.records()]) };
    return this.underWay;
  }

  private *steps(index: I, records: readonly NoteRecord[]): Generator<void, void> {
    let done = 0;
    for (const record of records) {
      if (this.isCurrent(record)) index.put(record);
      if (++done % RECORDS_PER_STEP === 0) yield;
    }
    this.made = index;
    this.underWay = undefined;
  }
}
