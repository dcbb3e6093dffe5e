import { describe, expect, it } from 'vitest';
import { showEmbedding, type EmbeddingSource } from '../../src/cli/embedding-progress.js';
import type { ProgressReporter } from '../../src/cli/progress.js';
import type { SemanticProgress } from '../../src/index/vectors/semantic-indexer.js';

/** An indexer that goes through the given counts, one per look, and a clock that moves 10 s between looks. */
function scripted(states: Partial<SemanticProgress>[], embeddedThisRun: number) {
  const lines: string[] = [];
  let look = 0;
  let ms = 0;
  const source: EmbeddingSource = {
    progress: () => ({ ready: false, embedded: 0, complete: 0, total: 100, failed: 0, ...states[Math.min(look, states.length - 1)] }),
    embeddedThisRun,
  };
  const reporter = (label: string): ProgressReporter => ({
    update: (done, total, detail) => lines.push(`${label} ${done}/${total} (${detail ?? ''})`),
    say: (line) => lines.push(line),
    finish: (message) => lines.push(message),
  });
  const watch = {
    notes: () => 100,
    reporter,
    now: () => ms,
    pause: async () => {
      look++;
      ms += 10_000;
    },
  };
  return { source, watch, lines };
}

describe('dexi-vault index: embedding progress', () => {
  it('shows each pass with its own rate and time left, then the rate of the run', async () => {
    const { source, watch, lines } = scripted(
      [
        { embedded: 0 },
        { embedded: 20 },
        { embedded: 60, complete: 30 },
        { embedded: 100, complete: 40 },
        { embedded: 100, complete: 50 },
        { embedded: 100, complete: 60 },
        { embedded: 100, complete: 100, ready: true },
      ],
      100,
    );
    await showEmbedding(source, watch);
    expect(lines).toEqual([
      'Embedding notes 0/100 (measuring the rate)',
      'Embedding notes 20/100 (2.0 notes/s, about 40 s left)',
      'Embedding notes 60/100 (3.0 notes/s, about 13 s left)',
      'Every note is searchable by meaning after 30.0 s; now embedding the rest of the long notes.',
      // The second pass is measured afresh: the first pass's rate says nothing of it.
      'Embedding passages 40/100 (measuring the rate)',
      'Embedding passages 50/100 (1.0 notes/s, about 50 s left)',
      'Embedding passages 60/100 (1.0 notes/s, about 40 s left)',
      '100 notes have vectors; 100 embedded now, in 60.0 s, 1.7 notes/s.',
    ]);
  });

  it('says nothing of a rate when nothing was embedded (an unchanged vault)', async () => {
    const { source, watch, lines } = scripted([{ embedded: 100, complete: 100, ready: true }], 0);
    await showEmbedding(source, watch);
    expect(lines).toEqual(['100 notes have vectors; 0 embedded now, in 0.0 s.']);
  });

  it('ends with the reason when semantic search is unavailable', async () => {
    const { source, watch, lines } = scripted([{ embedded: 10 }, { error: 'The embedding model did not load' }], 0);
    await showEmbedding(source, watch);
    expect(lines).toEqual(['Embedding notes 10/100 (measuring the rate)', 'Semantic search is unavailable: The embedding model did not load']);
  });
});
