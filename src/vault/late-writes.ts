import type { BigIntStats } from 'node:fs';
import { readWhole, type OpenedFile } from '../storage/atomic.js';
import { looksHalfWritten, shapeOf, type FileShape } from '../format/half-written.js';

/**
 * Another program still writing a note: how long to wait for it, which
 * version of the note to measure a half-written one against, and the watch
 * over an old file that program may still be writing into after the server
 * replaced or removed it. NoteFiles uses these; they know nothing of notes.
 */

/**
 * A version that looks half-written (looksHalfWritten: empty, frontmatter
 * left open, cut mid-line, a third shorter) must stay quiet this long before
 * it is built on: a writer pausing mid-save finishes meanwhile, and a person
 * who cut the note down on purpose only waits a moment longer. After
 * MAX_BUSY_WAIT_MS the server gives up with a plain "being written" error
 * rather than guess.
 */
export const HALF_WRITTEN_QUIET_MS = 1500;
export const MAX_BUSY_WAIT_MS = 2500;
/**
 * An old file is watched TAIL_MS after its last change (at most TAIL_MAX_MS):
 * a writer pausing up to 3 s mid-save is covered. Its text is brought back
 * once it has been quiet TAIL_QUIET_MS (HALF_WRITTEN_QUIET_MS while it looks
 * half-written).
 */
const TAIL_POLL_MS = 50;
const TAIL_QUIET_MS = 150;
const TAIL_MS = 3000;
const TAIL_MAX_MS = 30_000;
/** How many notes' last complete shapes are remembered (the most recently seen). */
const SHAPES_KEPT = 4096;

const LOSSY = new TextDecoder('utf-8', { ignoreBOM: true });
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What to do with text a program wrote into a file after the server had
 * replaced or removed it: bring it back. `plausible` is false when it still
 * looks half-written but the watch is ending (it is then kept as it is,
 * never built on).
 */
export type LateWrite = (theirs: Buffer, plausible: boolean) => Promise<void>;

function shapeOfBytes(bytes: Buffer): FileShape {
  return shapeOf(bytes, LOSSY.decode(bytes));
}

/**
 * The shape of the last complete version seen of each note changed while
 * the server runs, to tell a half-written version from it (the catalog's
 * size stands in for a note not seen since the first read).
 */
export class CompleteShapes {
  private readonly shapes = new Map<string, FileShape>();

  /**
   * Why this version of a note, written `ctimeMs` by another program (not
   * `own`), looks half-written; undefined when it does not, and then it is
   * remembered as the measure of later versions. A version quiet for
   * HALF_WRITTEN_QUIET_MS is taken as meant.
   */
  judge(vaultPath: string, version: { bytes: Buffer; content: string; ctimeMs: number; own: boolean }, known: { size: number } | undefined): string | undefined {
    const shape = shapeOf(version.bytes, version.content);
    const last = this.shapes.get(vaultPath) ?? (known ? { size: known.size } : undefined);
    const recent = Date.now() - version.ctimeMs < HALF_WRITTEN_QUIET_MS && !version.own;
    const why = last && recent ? looksHalfWritten(shape, last) : undefined;
    if (why === undefined) this.remember(vaultPath, shape);
    // The catalog may take the half-written version in meanwhile: the complete one stays the measure.
    else if (!this.shapes.has(vaultPath) && last) this.remember(vaultPath, last);
    return why;
  }

  /** What the server itself wrote at a path is complete. */
  written(vaultPath: string, bytes: Buffer): void {
    this.remember(vaultPath, shapeOfBytes(bytes));
  }

  moved(from: string, to: string): void {
    const shape = this.shapes.get(from);
    this.shapes.delete(from);
    if (shape) this.remember(to, shape);
  }

  forget(vaultPath: string): void {
    this.shapes.delete(vaultPath);
  }

  private remember(vaultPath: string, shape: FileShape): void {
    this.shapes.delete(vaultPath);
    this.shapes.set(vaultPath, shape);
    if (this.shapes.size > SHAPES_KEPT) this.shapes.delete(this.shapes.keys().next().value as string);
  }
}

/**
 * What the old file `base` holds once its writer has finished: a program
 * that wrote into it just as it was replaced is often mid-save (truncated,
 * half written). It is taken once it looks complete and has been quiet a
 * moment (or looked half-written for HALF_WRITTEN_QUIET_MS), waiting
 * MAX_BUSY_WAIT_MS at most: never the half of a save. `bytes`: what it held
 * when first looked at.
 */
export async function whenComplete(base: OpenedFile, bytes: Buffer): Promise<Buffer> {
  const measure = shapeOfBytes(base.bytes);
  const deadline = Date.now() + MAX_BUSY_WAIT_MS;
  let current = bytes;
  let last = await base.handle.stat({ bigint: true });
  let lastChange = Date.now();
  for (;;) {
    const complete = looksHalfWritten(shapeOfBytes(current), measure) === undefined;
    const quietFor = Date.now() - lastChange;
    if ((complete && quietFor >= TAIL_QUIET_MS) || quietFor >= HALF_WRITTEN_QUIET_MS || Date.now() >= deadline) return current;
    await sleep(TAIL_POLL_MS);
    const now = await base.handle.stat({ bigint: true });
    if (now.size !== last.size || now.mtimeNs !== last.mtimeNs) {
      last = now;
      lastChange = Date.now();
      current = (await readWhole(base.handle, Number(now.size), Number.MAX_SAFE_INTEGER)) as Buffer;
    }
  }
}

/**
 * Watch an old file, replaced or removed, that a program may still hold
 * open (a script writing with pauses, an editor saving in place, a `>>` loop
 * on one descriptor): each time it has written and gone quiet, `late` brings
 * its version back; a version that looks half-written is waited for longer,
 * and handed over as not plausible only when the watch ends (`closing`: at
 * once, with one last look). Resolves when the watch is over; the caller
 * closes the handle.
 */
export async function followOldFile(base: OpenedFile, late: LateWrite, closing: () => boolean): Promise<void> {
  const { handle } = base;
  let seen: Buffer = base.bytes;
  let measure = shapeOfBytes(base.bytes);
  let last: BigIntStats = base.stats;
  const started = Date.now();
  let lastChange = started;
  let pending = false;
  for (;;) {
    const done = closing() || Date.now() - lastChange >= TAIL_MS || Date.now() - started >= TAIL_MAX_MS;
    if (!done) await sleep(TAIL_POLL_MS);
    const now = await handle.stat({ bigint: true });
    if (now.size !== last.size || now.mtimeNs !== last.mtimeNs) {
      last = now;
      lastChange = Date.now();
      pending = true;
    }
    const quietFor = Date.now() - lastChange;
    if (pending && (done || quietFor >= TAIL_QUIET_MS)) {
      const theirs = (await readWhole(handle, Number(now.size), Number.MAX_SAFE_INTEGER)) as Buffer;
      const shape = shapeOfBytes(theirs);
      const complete = looksHalfWritten(shape, measure) === undefined || quietFor >= HALF_WRITTEN_QUIET_MS;
      if (theirs.equals(seen)) pending = false;
      else if (complete || done) {
        pending = false;
        seen = theirs;
        if (complete) measure = shape;
        await late(theirs, complete);
      }
    }
    if (done) return;
  }
}
