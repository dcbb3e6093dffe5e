import type { IndexConfig } from '../args.js';
import { showEmbedding } from '../embedding-progress.js';
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
  if (runtime.semantic) {
    await showEmbedding(runtime.semantic, {
      notes: () => runtime.own.size,
      reporter: (label) => progressReporter(process.stderr, label),
      now: () => performance.now(),
      pause: () => new Promise((resolve) => setTimeout(resolve, 500)),
    });
  }
  await runtime.close();
  log(`Indexed ${runtime.own.size.toLocaleString('en')} notes; the indexes are in ${runtime.own.cacheDir}.`);
}
