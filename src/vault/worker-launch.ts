import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread whose entry is `compiled` (a `.js` file beside the
 * caller's module). When the caller itself runs from TypeScript sources
 * (vitest imports `src/` directly and there is no `.js` beside it), the
 * worker runs `source` instead, through a loader that strips types with the
 * `typescript` dev dependency, so that tests exercise the same source they
 * import instead of a possibly stale `dist/`.
 */
export function launchWorker(compiled: URL, source: URL, options: WorkerOptions): Worker {
  if (existsSync(fileURLToPath(compiled))) return new Worker(compiled, options);
  if (!existsSync(fileURLToPath(source))) throw new Error(`The worker is missing: ${fileURLToPath(compiled)}`);
  const typescript = createRequire(import.meta.url).resolve('typescript');
  const bootstrap = `
    const { register } = require('node:module');
    register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(TS_HOOKS)}`)}, {
      data: { typescript: ${JSON.stringify(typescript)} },
    });
    import(${JSON.stringify(source.href)}).catch((error) => {
      console.error(error);
      process.exit(1);
    });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** Module hooks: `./x.js` falls back to `./x.ts`, and `.ts` files lose their types. */
const TS_HOOKS = `
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
let ts;
export function initialize(data) {
  ts = createRequire(data.typescript)(data.typescript);
}
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !specifier.startsWith('.') || !specifier.endsWith('.js')) throw error;
    return next(specifier.slice(0, -3) + '.ts', context);
  }
}
export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const fileName = fileURLToPath(url);
  const { outputText } = ts.transpileModule(await readFile(fileName, 'utf8'), {
    fileName,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, inlineSourceMap: true },
  });
  return { format: 'module', source: outputText, shortCircuit: true };
}
`;
