// Module hooks for the test processes and the worker threads they start:
// `./x.js` falls back to `./x.ts`, and `.ts` files lose their types. Vitest
// imports `src/` as TypeScript, so there is no parse-worker.js or
// embed-worker.js beside the module that starts the worker; with these
// hooks the worker runs the same source the test imports, never a possibly
// stale dist/: a worker entry from its bundle made at the start of the run
// (worker-bundles.ts), any other file transpiled. Plain JavaScript, since it
// runs before anything can be compiled.
//
// Every vault a test opened started a scan worker (now only a vault with a
// large cache does; the embedding and parsing workers remain), so these hooks
// ran hundreds of times a suite. Loading the `typescript` package took 0.65 s of a scan
// worker's 1.2 s start, and transpiling its modules most of the rest; so the
// package is loaded only for a file whose output is not cached yet, and
// outputs are kept in the system's temporary folder under the hash of the
// file's name, its source and the compiler's version: a changed source has
// another hash, so nothing stale is ever read.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const COMPILER = `typescript ${require('typescript/package.json').version} ES2022 inline-map`;
const CACHE_DIR = path.join(tmpdir(), 'dexi-vault-test-ts-cache');
mkdirSync(CACHE_DIR, { recursive: true });
let ts;

// A thread's entry in src/ (it has no parent module) runs from the bundle of the same name made at
// the start of this test run from the same source (test/support/worker-bundles.ts), when there is one.
const SRC = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'src')).href + '/';
const BUNDLES = process.env.DEXI_TEST_WORKER_BUNDLES;

export async function resolve(specifier, context, next) {
  const resolved = await resolveSource(specifier, context, next);
  if (BUNDLES === undefined || context.parentURL !== undefined || !resolved.url.startsWith(SRC) || !resolved.url.endsWith('.ts')) return resolved;
  const bundle = path.join(BUNDLES, `${path.basename(fileURLToPath(resolved.url), '.ts')}.js`);
  return existsSync(bundle) ? { url: pathToFileURL(bundle).href, format: 'module', shortCircuit: true } : resolved;
}

async function resolveSource(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !specifier.endsWith('.js')) throw error;
    return next(`${specifier.slice(0, -3)}.ts`, context);
  }
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const fileName = fileURLToPath(url);
  const source = await readFile(fileName, 'utf8');
  // The file name is part of the key: the inline source map names it.
  const key = createHash('sha256').update(`${COMPILER}\0${fileName}\0${source}`).digest('hex');
  const cached = path.join(CACHE_DIR, `${key}.js`);
  const hit = await readFile(cached, 'utf8').catch(() => undefined);
  if (hit !== undefined) return { format: 'module', source: hit, shortCircuit: true };
  ts ??= require('typescript');
  const { outputText } = ts.transpileModule(source, {
    fileName,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, inlineSourceMap: true },
  });
  // Written aside and renamed, so that a worker starting meanwhile reads the whole output or none.
  // A cache that cannot be written only costs the next worker the transpiling again.
  const aside = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await writeFile(aside, outputText)
    .then(() => rename(aside, cached))
    .catch(() => undefined);
  return { format: 'module', source: outputText, shortCircuit: true };
}
