import { parentPort } from 'node:worker_threads';

// Compiling TensorFlow.js's WASM backend is made to take longer than reading
// the model's weights, as it does on a loaded machine. Set before the model's
// modules load, in a thread of its own, so that no other test's backend is touched.
// The project's lib (ES2023, Node's types) declares no WebAssembly: it is reached through globalThis.
const wasm = (globalThis as unknown as { WebAssembly: { instantiate: (...args: unknown[]) => Promise<unknown> } }).WebAssembly;
const original = wasm.instantiate.bind(wasm);
wasm.instantiate = (...args: unknown[]) => new Promise((resolve) => setTimeout(resolve, 1500)).then(() => original(...args));

const { UseLiteEmbedder } = await import('../../../src/index/vectors/use-lite.js');
try {
  const embedder = await UseLiteEmbedder.load();
  const [vector] = await embedder.embed(['Sourdough needs a lively starter.']);
  await embedder.close();
  parentPort?.postMessage({ dimensions: vector?.length });
} catch (error) {
  parentPort?.postMessage({ error: (error as Error).message });
}
