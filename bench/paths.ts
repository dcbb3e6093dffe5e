import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root. The benchmarks run compiled, from
 * `.bench-build/bench/`, while tests import them as sources from `bench/`:
 * the root is the first folder above this module that holds `package.json`,
 * which both agree on, rather than a fixed number of `../`.
 */
function repositoryRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${here}`);
  }
}

export const ROOT = repositoryRoot();
/** The built command line the benchmarks spawn, as an assistant would. */
export const CLI = path.join(ROOT, 'dist', 'app', 'dexi-vault.js');
/** Generated vaults, figures and locks; git-ignored. */
export const BENCH_DIR = path.join(ROOT, '.bench');
