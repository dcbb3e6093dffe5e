import { EmbeddingPool } from '../../src/index/vectors/embedding-pool.js';
import type { SemanticChoice } from '../../src/index/vectors/semantic-types.js';

/**
 * One embedding pool (the default model, one worker) for every semantic
 * server a test process opens: the files of the `shared` project run one
 * after another in a process, and each server that made its own pool paid
 * for the model's load (0.4–0.7 s of CPU) and its slow first call (about
 * 0.2 s) again: 24 of a run's 29 pools (pool.test.ts and transformers.test.ts
 * keep their own five). Each server embeds on its share of the
 * pool (`EmbeddingPool#share`), which its close takes off the queue.
 * What a pool of its own does (its workers, their deaths and restarts, its
 * close) is test/index/vectors/pool.test.ts's to prove.
 */
const KEY = Symbol.for('dexi-vault.test.shared-embedding-pool');

type Holder = { [KEY]?: Promise<EmbeddingPool> };

/** Semantic search with the default model, on the process's shared pool. */
export function sharedSemantic(): SemanticChoice {
  const holder = globalThis as Holder;
  // Kept on globalThis, not in this module: a process keeps one whatever module registry a file runs in.
  holder[KEY] ??= EmbeddingPool.create({ spec: { kind: 'use-lite' }, workers: 1 });
  return { sharedPool: holder[KEY] };
}
