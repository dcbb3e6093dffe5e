/**
 * Waiting for the first read of the vault, as a call that arrives before it
 * is done does. Start-up never waits for the read, so the first calls of a
 * session can. A call waits a moment (a small vault is read in well under a
 * second, but a loaded machine can take several), then says how far the read
 * is rather than hang; a call whose client asked for progress waits longer,
 * and hears how far the read is while it waits, so a client can show it.
 */
import { NotReadyError } from '../vault/errors.js';
import type { Vault } from '../vault/vault.js';
import { isBounded, type AccessPolicy } from './policy.js';

/** How long a call waits for the first read before saying it is not ready. */
export const READY_WAIT_MS = 5_000;

/**
 * How long a call that asked for progress waits: under the 60 s a client of
 * the MCP SDK waits for an answer by default, so the answer, ready or not,
 * comes before the client gives up.
 */
export const READY_WAIT_WITH_PROGRESS_MS = 45_000;

/** How often a waiting call hears how far the read is. */
const PROGRESS_STEP_MS = 250;

/**
 * How far the read is, as the waiting call hears it: notes read of the
 * vault's notes for a connection that sees the whole vault; for a bounded
 * one, only the seconds waited, since the vault's size counts notes outside
 * its boundary.
 */
export type ReadProgress = (done: number, total?: number) => void;

/** Resolves once `vault` has been read; throws NotReadyError, saying how far the read is, after `waitMs`. */
export async function awaitFirstRead(vault: Vault, policy: AccessPolicy, what: string, waitMs = READY_WAIT_MS, progress?: ReadProgress): Promise<void> {
  if (vault.ready) return;
  if (!progress) {
    if (await vault.whenReady(waitMs)) return;
  } else if (await waitTelling(vault, isBounded(policy), waitMs, progress)) return;
  const read = notesRead(vault, isBounded(policy));
  const where = read ? ` (${read.done.toLocaleString('en')} of ${read.total.toLocaleString('en')} notes read)` : '';
  throw new NotReadyError(`${what}${where}; try again in a few seconds.`);
}

/** How far the read is, in notes; undefined for a bounded connection, since the counts are the whole vault's, or before the count is known. */
function notesRead(vault: Vault, bounded: boolean): { done: number; total: number } | undefined {
  const { done, total, phase } = vault.progress;
  return !bounded && phase === 'reading' && total > 0 ? { done, total } : undefined;
}

/** Waits up to `waitMs` for the read, telling `progress` how far it is every PROGRESS_STEP_MS; true once read. */
async function waitTelling(vault: Vault, bounded: boolean, waitMs: number, progress: ReadProgress): Promise<boolean> {
  const started = performance.now();
  for (let left = waitMs; left > 0; left = waitMs - (performance.now() - started)) {
    if (await vault.whenReady(Math.min(PROGRESS_STEP_MS, left))) return true;
    const read = notesRead(vault, bounded);
    if (read) progress(read.done, read.total);
    else progress(Math.round((performance.now() - started) / 1000));
  }
  return false;
}
