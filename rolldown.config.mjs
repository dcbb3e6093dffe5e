import { defineConfig } from 'rolldown';

/**
 * The command line as a few bundled files in dist/app/. Starting Node on
 * the plain module graph spent most of the time to `initialize` resolving,
 * reading and compiling some 380 files (the MCP SDK, zod, ajv, counted); one
 * bundle loads in about 60 % of that. Packages that find files beside
 * themselves at run time (the model weights, WASM and native add-ons) stay
 * outside and load from node_modules.
 */
export default defineConfig({
  input: {
    'dexi-vault': 'dist/cli/main.js',
    // Started as workers by URL, beside the chunk that launches them.
    'convert-worker': 'dist/import/convert-worker.js',
    'embed-worker': 'dist/index/vectors/embed-worker.js',
    'parse-worker': 'dist/vault/workers/parse-worker.js',
    'scan-worker': 'dist/vault/workers/scan-worker.js',
  },
  platform: 'node',
  external: [/^node:/, 'hnswlib-node', /^@huggingface\/transformers/, 'onnxruntime-node', /^@energetic-ai\//],
  output: {
    dir: 'dist/app',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    // Chunk names carry a hash: old ones would pile up.
    cleanDir: true,
  },
});
