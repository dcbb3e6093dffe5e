import type { ServedVault } from '../server/served-vault.js';
import { log } from './log.js';

/**
 * How long a stopping server gives the index cache to be saved. A client
 * that hangs up commonly waits 2 s before SIGTERM and 2 s more before
 * SIGKILL (the MCP SDK's stdio client does); a save of 10,000 notes took
 * 0.12-0.68 s here (BENCHMARKS.md, "Issue 29").
 */
export const STOP_SAVE_MS = 3000;

/**
 * SIGTERM and SIGINT stop the server as the end of its input does, saving
 * the index cache first; a signal while it stops abandons that save at
 * once (no temporary file is left; the cache stays as last saved).
 */
export function stopSignals(runtime: Pick<ServedVault, 'hurry'>): { signalled: Promise<void>; begin(): void } {
  let stopping = false;
  let signalled: () => void = () => undefined;
  const onSignal = (): void => {
    if (stopping) runtime.hurry();
    stopping = true;
    signalled();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return {
    signalled: new Promise((resolve) => {
      signalled = resolve;
    }),
    begin: () => {
      stopping = true;
    },
  };
}

/**
 * Stop within STOP_SAVE_MS and a little: the cache is saved or left as it was, and a stop that hangs anyway still ends.
 * No `runtime`: the vault was not open yet (it was to come from the client's roots), so there is nothing to save.
 */
export async function stopServing(runtime: ServedVault | undefined, stop: { begin(): void }, puller: { stop(): Promise<void> } | undefined): Promise<void> {
  stop.begin();
  const saveBy = Date.now() + STOP_SAVE_MS;
  setTimeout(() => {
    log('Stopping took too long; exiting now.');
    process.exit(0);
  }, STOP_SAVE_MS + 2000).unref();
  await puller?.stop();
  await runtime?.close(Math.max(0, saveBy - Date.now()));
  // Nothing else should keep the process alive once the client hangs up.
  process.exit(0);
}
