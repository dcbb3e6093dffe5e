import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FullTextIndex } from '../src/index/fulltext.js';
import type { EmbedderSpec } from '../src/index/vectors/embedder.js';
import { embeddingText } from '../src/index/vectors/embedding-text.js';
import { SemanticIndexer } from '../src/index/vectors/semantic-indexer.js';
import { toSearchText } from '../src/vault/markdown.js';
import type { NoteRecord } from '../src/vault/note.js';
import { mean, recallAt, reciprocalRank } from './quality.js';
import { LABELED_NOTES, LABELED_QUERIES } from './semantic-set.js';

/** Results kept per query. */
export const TOP = 10;

/** `sourdough-3` → `sourdough`. */
const topicOf = (key: string): string => key.replace(/-\d+$/, '');

export interface QueryRun {
  query: string;
  relevant: Set<string>;
  /** Notes on the same topic as a relevant note: related, if not exactly what was asked. */
  related: Set<string>;
  semantic: { id: string; score: number }[];
  fulltext: string[];
}

export interface LabeledRuns {
  modelId: string;
  embedSeconds: number;
  runs: QueryRun[];
}

export interface Quality {
  recallAt5: number;
  mrr: number;
}

/**
 * Embed the labeled notes with `spec`, then ask every labeled query of both
 * searches: semantic (top TOP by similarity) and full-text (top TOP by BM25).
 */
export async function runLabeledSet(spec: EmbedderSpec, workers: number): Promise<LabeledRuns> {
  const cacheDir = await mkdtemp(path.join(tmpdir(), 'dexi-labeled-'));
  const semantic = new SemanticIndexer({ cacheDir, embedder: spec, workers, log: () => undefined });
  try {
    await semantic.start();
    const started = performance.now();
    for (const note of LABELED_NOTES) semantic.noteChanged(note.key, embeddingText(note.title, note.body));
    semantic.allNotesReported();
    for (;;) {
      const progress = semantic.progress();
      if (progress.error) throw new Error(progress.error);
      if (progress.ready) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const embedSeconds = (performance.now() - started) / 1000;
    const fulltext = FullTextIndex.empty();
    for (const note of LABELED_NOTES) {
      fulltext.upsert({ id: note.key, title: note.title, tags: [] } as unknown as NoteRecord, toSearchText(note.body));
    }
    const runs: QueryRun[] = [];
    for (const { query, relevant } of LABELED_QUERIES) {
      const topics = new Set(relevant.map(topicOf));
      runs.push({
        query,
        relevant: new Set(relevant),
        related: new Set(LABELED_NOTES.filter((note) => topics.has(topicOf(note.key))).map((note) => note.key)),
        semantic: await semantic.search(query, TOP),
        fulltext: fulltext.query(query, undefined, TOP).hits.map((hit) => hit.id),
      });
    }
    return { modelId: semantic.embedderId ?? spec.kind, embedSeconds, runs };
  } finally {
    await semantic.close();
    await rm(cacheDir, { recursive: true, force: true });
  }
}

/** recall@5 and MRR of one search over the runs. */
export function qualityOf(runs: readonly QueryRun[], pick: (run: QueryRun) => string[]): Quality {
  return {
    recallAt5: mean(runs.map((run) => recallAt(pick(run), run.relevant, 5))),
    mrr: mean(runs.map((run) => reciprocalRank(pick(run), run.relevant))),
  };
}
