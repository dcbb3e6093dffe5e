import { open, stat, unlink } from 'node:fs/promises';

const LOCK_WAIT_MS = 5000;
const LOCK_STALE_MS = 30_000;

/**
 * Hold `<file>.lock` while `task` runs. Two commands changing one file of `.dexi/`
 * at once (two `token create` runs, a `feeds add` beside a pulling server)
 * must not lose either change, so every change is made by one process at a
 * time. `busy` makes the error for a lock held too long. A lock left by a
 * crashed run is taken over once it is clearly stale.
 */
export async function withFileLock<T>(file: string, busy: (message: string) => Error, task: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  const started = Date.now();
  for (;;) {
    try {
      await (await open(lock, 'wx', 0o600)).close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = await stat(lock).then((info) => Date.now() - info.mtimeMs, () => 0);
      if (age > LOCK_STALE_MS) {
        await unlink(lock).catch(() => undefined);
        continue;
      }
      if (Date.now() - started > LOCK_WAIT_MS) {
        throw busy(`${file} is being changed by another dexi-vault command; try again (or delete ${lock} if none is running).`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25 + Math.random() * 50));
    }
  }
  try {
    return await task();
  } finally {
    await unlink(lock).catch(() => undefined);
  }
}

