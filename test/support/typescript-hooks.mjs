// Module hooks for the test processes and the worker threads they start:
// `./x.js` falls back to `./x.ts`, and `.ts` files lose their types. Vitest
// imports `src/` as TypeScript, so there is no parse-worker.js or
// embed-worker.js beside the module that starts the worker; with these
// hooks the worker runs the same source the test imports, never a possibly
// stale dist/. Plain JavaScript, since it runs before anything can be compiled.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ts = createRequire(import.meta.url)('typescript');

export async function resolve(specifier, context, next) {
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
  const { outputText } = ts.transpileModule(await readFile(fileName, 'utf8'), {
    fileName,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, inlineSourceMap: true },
  });
  return { format: 'module', source: outputText, shortCircuit: true };
}
