import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { rolldown } from 'rolldown';
import config from '../../rolldown.config.mjs';
import { ROOT } from './process.js';

/**
 * The worker threads the code under test starts, bundled from src/ once a
 * run. Run from their TypeScript source, every module of a worker, its
 * packages' too, went through the module hooks' own thread
 * (typescript-hooks.mjs) one message at a time: a conversion worker, which
 * loads linkedom, Readability and turndown, took 1.8 s of CPU to start
 * against 0.3 s from a bundle (three starts in one process each way, the
 * hooks registered), and the conversion pool starts a fresh one after each
 * document it stops (a profiled run held 11 of them in one test process).
 * The hooks run a worker from its bundle when there is one; the bundles are
 * made from the source the tests import, at the start of the run and again
 * before each rerun in watch mode, so they are never stale. The packages
 * that find files beside themselves stay outside, as in rolldown.config.mjs;
 * so the folder is inside the repository, where Node finds them in
 * node_modules. The entries are rolldown.config.mjs's workers (built from
 * dist/), as their sources in src/.
 */
const ENTRIES = Object.fromEntries(
  Object.entries(config.input)
    .filter(([name]) => name.endsWith('-worker'))
    .map(([name, built]) => [name, built.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts')]),
);

/** A new folder for one run's worker bundles. */
export async function workerBundlesDir(): Promise<string> {
  const parent = path.join(ROOT, 'node_modules', '.cache', 'dexi-test-workers');
  await mkdir(parent, { recursive: true });
  return mkdtemp(path.join(parent, 'run-'));
}

/** Bundle every worker entry of src/ into `dir`, replacing what was there. */
export async function bundleWorkers(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  const bundle = await rolldown({
    cwd: ROOT,
    input: ENTRIES,
    platform: 'node',
    external: config.external,
    // src/ imports its own modules as `./x.js`: the TypeScript beside them.
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    logLevel: 'warn',
  });
  try {
    await bundle.write({ dir, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js', sourcemap: true });
  } finally {
    await bundle.close();
  }
}
