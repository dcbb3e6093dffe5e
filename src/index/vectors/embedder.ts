import type { Embedder } from './embedding.js';

export type { Embedder } from './embedding.js';

/**
 * A serialisable description of an embedder, so that a worker thread can
 * build its own copy. `model` is a Hugging Face model id or a local directory.
 * `cacheDir` is where downloaded hub models are kept (transformers only).
 */
export type EmbedderSpec =
  | { kind: 'use-lite' }
  | { kind: 'transformers'; model: string; dtype?: string; cacheDir?: string };

/** Loads the embedder a spec describes; model code is imported only when used. */
export async function createEmbedder(spec: EmbedderSpec): Promise<Embedder> {
  switch (spec.kind) {
    case 'use-lite': {
      const { UseLiteEmbedder } = await import('./use-lite.js');
      return UseLiteEmbedder.load();
    }
    case 'transformers': {
      const { TransformersEmbedder } = await import('./transformers.js');
      const options: { dtype?: string; cacheDir?: string } = {};
      if (spec.dtype !== undefined) options.dtype = spec.dtype;
      if (spec.cacheDir !== undefined) options.cacheDir = spec.cacheDir;
      return TransformersEmbedder.load(spec.model, options);
    }
  }
}
