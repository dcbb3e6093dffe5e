import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FeatureExtractionPipeline } from '@huggingface/transformers';
import { chunkText } from './chunking.js';
import { normalizeInPlace, type Embedder } from './embedding.js';
import { embedRequestedWindows, type WindowRequest, type WindowVector } from './windows.js';

/**
 * transformers.js is an optional peer of dexi-vault, installed only by those
 * who ask for another model: it brings ONNX Runtime, whose install script
 * downloads from outside the npm registry, so the default install (which
 * runs the bundled USE-lite model) must not pull it in.
 */
async function importTransformers(model: string): Promise<typeof import('@huggingface/transformers')> {
  try {
    return await import('@huggingface/transformers');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Only transformers.js itself missing; a broken install of it says what it says.
    const missing = (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && (error as Error).message.includes("'@huggingface/transformers'");
    if (!missing) throw error;
    throw new Error(
      `The model "${model}" needs transformers.js, which is not installed. Install it beside dexi-vault (npm install @huggingface/transformers, ` +
        'with -g if dexi-vault is installed globally), or serve with the built-in model (--model use-lite).',
    );
  }
}

/** Texts per model call: every text in a call is padded to the longest. */
const BATCH = 16;

export interface TransformersEmbedderOptions {
  /** ONNX weights variant (`fp32`, `q8`, …); the library's default otherwise. */
  dtype?: string;
  /** Where models downloaded from the hub are kept. */
  cacheDir?: string;
}

/**
 * A sentence-embedding model run by transformers.js (ONNX Runtime): the
 * feature-extraction pipeline with mean pooling and normalisation.
 *
 * `model` is either a local directory holding `config.json`,
 * `tokenizer.json`, `tokenizer_config.json` and `onnx/model*.onnx`, loaded
 * with remote loading switched off, or a hub model id, downloaded once into
 * `cacheDir` where the network allows it.
 */
export class TransformersEmbedder implements Embedder {
  private constructor(
    readonly id: string,
    readonly dimensions: number,
    private extractor: FeatureExtractionPipeline | undefined,
  ) {}

  static async load(model: string, options: TransformersEmbedderOptions = {}): Promise<TransformersEmbedder> {
    const { pipeline, env } = await importTransformers(model);
    const localDir = await asDirectory(model);
    const pretrained: Record<string, unknown> = {};
    if (options.dtype !== undefined) pretrained['dtype'] = options.dtype;
    let modelRef = model;
    if (localDir) {
      // A local model must never fall back to the hub: a typo in a file name
      // would otherwise turn into a download attempt.
      env.allowRemoteModels = false;
      env.allowLocalModels = true;
      env.localModelPath = path.dirname(localDir);
      pretrained['local_files_only'] = true;
      // The library resolves a valid model id against localModelPath and any
      // other string as a path, so an absolute path works for every name.
      modelRef = localDir;
    } else if (options.cacheDir !== undefined) {
      env.cacheDir = options.cacheDir;
    }
    const extractor = (await pipeline('feature-extraction', modelRef, pretrained)) as FeatureExtractionPipeline;
    try {
      const probe = await runPipeline(extractor, ['dimension probe']);
      const dimensions = probe[0]?.length ?? 0;
      if (dimensions === 0) throw new Error(`Model ${model} produced no embedding`);
      const id = ['transformers', localDir ?? model, options.dtype].filter((p) => p !== undefined).join(':');
      return new TransformersEmbedder(id, dimensions, extractor);
    } catch (error) {
      await extractor.dispose();
      throw error;
    }
  }

  async embed(texts: string[]): Promise<number[][]> {
    const extractor = this.extractor;
    if (!extractor) throw new Error('The embedder is closed');
    const out: number[][] = [];
    for (let start = 0; start < texts.length; start += BATCH) {
      out.push(...(await runPipeline(extractor, texts.slice(start, start + BATCH))));
    }
    return out;
  }

  embedWindows(requests: readonly WindowRequest[]): Promise<WindowVector[]> {
    return embedRequestedWindows(requests, (text) => chunkText(text), (texts) => this.embed(texts), this.dimensions);
  }

  async close(): Promise<void> {
    const extractor = this.extractor;
    this.extractor = undefined;
    await extractor?.dispose();
  }
}

async function runPipeline(extractor: FeatureExtractionPipeline, texts: string[]): Promise<number[][]> {
  if (texts.length === 0) return [];
  // Not normalised by the pipeline: normalizeInPlace is the one place, in
  // double precision, as for every embedder.
  const tensor = await extractor(texts, { pooling: 'mean', normalize: false });
  const rows = tensor.tolist() as number[][];
  tensor.dispose?.();
  return rows.map((row) => normalizeInPlace(Array.from(row)));
}

/** The absolute path of `model` when it names an existing directory. */
async function asDirectory(model: string): Promise<string | undefined> {
  const resolved = path.resolve(model);
  try {
    return (await stat(resolved)).isDirectory() ? resolved : undefined;
  } catch {
    return undefined;
  }
}
