import type { SemanticProgress } from '../index/vectors/semantic-indexer.js';
import type { ProgressReporter } from './progress.js';
import { describeRate, estimateRate, formatRate, recentSamples, type ProgressSample } from './rate.js';

/** What `dexi-vault index` watches while it embeds: the semantic indexer's counts. */
export interface EmbeddingSource {
  progress(): SemanticProgress;
  readonly embeddedThisRun: number;
}

export interface EmbeddingWatch {
  /** Notes the vault holds (the indexer's total is 0 until they are handed over). */
  notes(): number;
  reporter(label: string): ProgressReporter;
  /** Milliseconds on a clock that only goes forward. */
  now(): number;
  /** Waits between two looks at the counts. */
  pause(): Promise<void>;
}

/** The rate is measured over the last half minute: the second pass costs more a note than the first. */
const RATE_WINDOW_MS = 30_000;

/**
 * Waits for the semantic indexer, showing its progress with a rate and the
 * time left: two passes (semantic-indexer.ts), every note's opening, then
 * the other windows of long notes, each with its own rate.
 */
export async function showEmbedding(semantic: EmbeddingSource, watch: EmbeddingWatch): Promise<void> {
  let embedding = watch.reporter('Embedding notes');
  let passages = false;
  const started = watch.now();
  let samples: ProgressSample[] = [];
  for (;;) {
    const state = semantic.progress();
    if (state.error) {
      embedding.finish(`Semantic search is unavailable: ${state.error}`);
      return;
    }
    const seconds = (watch.now() - started) / 1000;
    // total is 0 until the notes are handed over after the read.
    if (state.ready && state.total >= watch.notes()) {
      const fresh = semantic.embeddedThisRun;
      const rate = fresh > 0 && seconds > 0 ? `, ${formatRate(fresh / seconds, 'notes')}` : '';
      embedding.finish(
        `${state.complete.toLocaleString('en')} notes have vectors; ${fresh.toLocaleString('en')} embedded now, in ${seconds.toFixed(1)} s${rate}` +
          `${state.failed > 0 ? ` (${state.failed} failed; see above)` : ''}.`,
      );
      return;
    }
    const total = Math.max(state.total, watch.notes());
    if (!passages && state.total >= watch.notes() && state.embedded + state.failed >= total && state.complete < state.embedded) {
      passages = true;
      samples = [];
      embedding.finish(`Every note is searchable by meaning after ${seconds.toFixed(1)} s; now embedding the rest of the long notes.`);
      embedding = watch.reporter('Embedding passages');
    }
    const done = passages ? state.complete : state.embedded;
    samples = recentSamples([...samples, { ms: watch.now(), done }], RATE_WINDOW_MS);
    embedding.update(done, total, describeRate(estimateRate(samples, total), 'notes'));
    await watch.pause();
  }
}
