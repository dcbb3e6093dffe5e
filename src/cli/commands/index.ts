import type { ServedVault } from '../../server/served-vault.js';
import type { IndexConfig } from '../args.js';
import { log } from '../log.js';
import { openServedVault } from '../open-served-vault.js';
import { progressReporter } from '../progress.js';

/** `index`: read every note and build the indexes (text, and vectors with --model), with progress, then exit. */
export async function indexCommand(config: IndexConfig): Promise<void> {
  const runtime = await openServedVault(config, false);
  const progress = progressReporter(process.stderr, 'Reading notes');
  const timer = setInterval(() => {
    const { done, total, phase } = runtime.own.progress;
    if (phase === 'reading') progress.update(done, total);
  }, 200);
  try {
    await runtime.loaded;
  } finally {
    clearInterval(timer);
  }
  progress.finish(`Read ${runtime.own.size.toLocaleString('en')} notes.`);
  if (runtime.semantic) await embedAll(runtime, runtime.semantic);
  await runtime.close();
  log(`Indexed ${runtime.own.size.toLocaleString('en')} notes; the indexes are in ${runtime.own.cacheDir}.`);
}

/** Wait for the semantic indexer, showing its progress: two passes (semantic-indexer.ts), every note's opening, then the other windows of long notes. */
async function embedAll(runtime: ServedVault, semantic: NonNullable<ServedVault['semantic']>): Promise<void> {
  let embedding = progressReporter(process.stderr, 'Embedding notes');
  let passages = false;
  const started = Date.now();
  for (;;) {
    const state = semantic.progress();
    if (state.error) {
      embedding.finish(`Semantic search is unavailable: ${state.error}`);
      return;
    }
    // total is 0 until the notes are handed over after the read.
    if (state.ready && state.total >= runtime.own.size) {
      const seconds = (Date.now() - started) / 1000;
      const fresh = semantic.embeddedThisRun;
      embedding.finish(
        `${state.complete.toLocaleString('en')} notes have vectors; ${fresh.toLocaleString('en')} embedded now, in ${seconds.toFixed(1)} s` +
          `${state.failed > 0 ? ` (${state.failed} failed; see above)` : ''}.`,
      );
      return;
    }
    const total = Math.max(state.total, runtime.own.size);
    if (!passages && state.total >= runtime.own.size && state.embedded + state.failed >= total && state.complete < state.embedded) {
      passages = true;
      embedding.finish(`Every note is searchable by meaning after ${((Date.now() - started) / 1000).toFixed(1)} s; now embedding the rest of the long notes.`);
      embedding = progressReporter(process.stderr, 'Embedding passages');
    }
    embedding.update(passages ? state.complete : state.embedded, total);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
