import { DexiError } from '../storage/errors.js';
import { counted } from '../format/counts.js';

/**
 * Domain errors. Each carries the plain sentence an assistant will read; the
 * tool layer turns any DexiError into a tool error with exactly that text
 * (`toolSentence`). The base lives a floor down, in src/storage/errors.ts.
 */
export { DexiError };

export class NoteNotFoundError extends DexiError {
  constructor() {
    super('Note not found');
  }
}

export class FolderNotFoundError extends DexiError {
  constructor(folder: string) {
    super(`Folder not found: ${folder}`);
  }
}

export class NothingToUpdateError extends DexiError {
  constructor() {
    super('Nothing to update');
  }
}

export class NotInReviewError extends DexiError {
  constructor() {
    super('Note is not in review');
  }
}

export class NoteCapError extends DexiError {
  constructor(cap: number) {
    super(
      `Note limit reached: this vault's plan allows ${counted(cap, 'note')}. Delete notes you no longer need, or raise noteCap in .dexi/settings.json.`,
    );
  }
}

/** A note the server must not write: a teammate's, or one whose frontmatter it cannot parse. */
export class ReadOnlyNoteError extends DexiError {}

/** Another program is writing the note right now: replacing it then could lose what it writes. */
export class NoteBusyError extends DexiError {
  constructor() {
    super('The note is being written by another program right now; nothing was changed. Try again in a moment.');
  }
}

/** The vault is still being read at start-up. */
export class NotReadyError extends DexiError {}

/** The person, asked through their client, did not confirm a change: nothing was changed. */
export class DeclinedError extends DexiError {
  constructor(what: string) {
    super(`The person declined ${what} when asked; nothing was changed. Do not try again unless they ask for it.`);
  }
}

/** Arguments that are well-formed but not acceptable. */
export class InvalidInputError extends DexiError {}

/** A file changed on disk between the server's read and its write; the write is redone. */
export class ConcurrentEditError extends DexiError {
  constructor() {
    super('The note kept changing on disk while the server tried to write it; try again in a moment.');
  }
}

/** A write that would make a note larger than a note may be (it would then be skipped, and vanish from every tool). */
export class NoteTooLargeError extends DexiError {
  constructor(bytes: number, limit: number) {
    super(
      `The note would be ${bytes.toLocaleString('en')} bytes, over the ${limit.toLocaleString('en')} bytes (${limit / (1024 * 1024)} MiB) a note may hold; ` +
        'nothing was written. Split the text into several notes.',
    );
  }
}
