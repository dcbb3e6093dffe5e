import type { Catalog } from './catalog.js';
import type { Clock } from './clock.js';
import type { Ingest, IngestEvents } from './ingest.js';
import type { KeyedLock } from './lock.js';
import type { NoteFiles } from './note-files.js';
import type { Logger } from './logger.js';

/**
 * The parts of one vault that its jobs work with, made once by the `Vault`
 * and handed whole to the modules that do those jobs (current-note.ts,
 * note-writes.ts, move-note.ts, delete.ts, watched-changes.ts): the `Vault`
 * stays the model's face, and each job takes one argument, not a list.
 * It also satisfies the narrower parts of create.ts and late-edits.ts.
 */
export interface VaultParts {
  root: string;
  catalog: Catalog;
  files: NoteFiles;
  ingest: Ingest;
  lock: KeyedLock;
  clock: Clock;
  log: Logger;
  /** Never written: a teammate's vault (with `owner`), or the person's own when its folder cannot be written. */
  readOnly: boolean;
  owner: string | undefined;
  /** The `Vault`'s events: a note added, changed or removed, and dates changed without their files changing. */
  announce: IngestEvents & { dates(): void };
}
