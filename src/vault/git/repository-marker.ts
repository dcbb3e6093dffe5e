import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';

/*
 * Whether git could find a repository for a folder at all, without starting
 * git. git looks, from the folder's real path up to the root, for a `.git`
 * entry (a folder, or a file naming one: worktrees and submodules) or for a
 * folder that is itself a repository (bare, with a `HEAD` file). Where no
 * level has either, `git rev-parse` can only answer "not a repository"; the
 * variables that could point git elsewhere (GIT_DIR and the like) are
 * removed before git runs (git-command.ts).
 *
 * Starting git is what this spares, once for every vault opened. In a
 * profile of the test runner over the 43 files of test/tools,
 * test/ownership and test/vault (one worker, 2026-12-03), starting this
 * `rev-parse` was the largest single cost of its main thread, 6.6 s; with
 * this check, `spawn` (every child process started without waiting) took 1.6 s there
 * instead of 8.3 s, and the run's main thread 35.9 s instead of 43.3 s.
 */

/** Names whose presence at some level means git might find a repository there. */
const MARKERS = ['.git', 'HEAD'];

/** False only when no folder from `dir` up holds a `.git` or a `HEAD`: then git finds no repository. */
export async function mayBeInRepository(dir: string): Promise<boolean> {
  let current: string;
  try {
    current = await realpath(dir);
  } catch {
    // Let git give its own answer for a folder this cannot resolve.
    return true;
  }
  for (;;) {
    for (const marker of MARKERS) {
      if (await present(path.join(current, marker))) return true;
    }
    const parent = path.dirname(current);
    if (parent === current) return false;
    current = parent;
  }
}

async function present(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch (error) {
    // Only "not there" rules a level out; a folder that cannot be read might hold a repository.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ENOTDIR';
  }
}
