import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EmbeddingPool } from '../../src/index/vectors/embedding-pool.js';
import { SemanticIndexer, type SemanticProgress } from '../../src/index/vectors/semantic-indexer.js';
import { withTempDir } from './helpers.js';

const NOTES: Record<string, string> = {
  sourdough:
    'Sourdough bread. Fed the starter at 8am, mixed flour, water and salt, then stretch and folds every half hour. ' +
    'Baked in a Dutch oven at 250°C: open crumb, crisp crust. Next time a longer cold proof in the fridge.',
  violin:
    'Violin practice log. Thirty minutes of scales and arpeggios, then the slow movement of the Bach partita. ' +
    'Intonation in third position is still shaky; use the drone and record myself.',
  kubernetes:
    'Kubernetes incident: pods kept restarting because the liveness probe hit a slow endpoint. ' +
    'Raised the timeout and split readiness from liveness.',
  budget: 'Quarterly budget review with finance: travel spend is over plan, software licences under. Reforecast by Friday.',
  marathon: 'Marathon training week 6: long run of 28 km at easy pace, two interval sessions, legs tired but fine.',
  garden: 'Garden: planted tomatoes and basil along the south wall, mulched the beds, the apple tree needs pruning in winter.',
  tax: 'Tax return checklist: income statements, receipts for deductible expenses, pension contributions, file before the deadline.',
  trip: 'Trip to Lisbon: book the tram tour, try pastéis de nata in Belém, day trip to Sintra by train.',
};

async function waitUntilReady(indexer: SemanticIndexer, timeoutMs = 30_000): Promise<SemanticProgress> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const progress = indexer.progress();
    if (progress.ready) return progress;
    if (Date.now() > deadline) throw new Error(`not ready: ${JSON.stringify(progress)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('SemanticIndexer with Universal Sentence Encoder lite', () => {
  const open: SemanticIndexer[] = [];
  const make = (cacheDir: string, log: string[] = []): SemanticIndexer => {
    const indexer = new SemanticIndexer({ cacheDir, embedder: { kind: 'use-lite' }, workers: 1, log: (line) => log.push(line) });
    open.push(indexer);
    return indexer;
  };
  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(open.splice(0).map((i) => i.close()));
  });

  it('finds notes by meaning, keeps them across restarts and re-embeds only what changed', async () => {
    await withTempDir(async (dir) => {
      const cacheDir = path.join(dir, 'vectors');
      const first = make(cacheDir);
      // Notes may be reported before the model has loaded.
      for (const [id, text] of Object.entries(NOTES)) first.noteChanged(id, text);
      expect(first.progress()).toMatchObject({ ready: false, embedded: 0, total: 8 });
      await first.start();
      // Every note embedded is not yet every note of the vault: ready only once the server says it has reported all.
      await vi.waitFor(() => expect(first.progress()).toMatchObject({ ready: false, embedded: 8, total: 8 }), { timeout: 30_000, interval: 20 });
      first.allNotesReported();
      expect(await waitUntilReady(first)).toMatchObject({ ready: true, embedded: 8, total: 8, failed: 0 });

      const loaf = await first.search('homemade loaf', 3);
      expect(loaf[0]?.id).toBe('sourdough');
      const music = await first.search('classical music', 3);
      expect(music[0]?.id).toBe('violin');
      expect(music[0]?.score).toBeGreaterThan(music[1]?.score ?? 1);

      // A caller with an access boundary still gets k visible notes.
      const bounded = await first.search('homemade loaf', 3, (id) => id !== 'sourdough');
      expect(bounded).toHaveLength(3);
      expect(bounded.map((h) => h.id)).not.toContain('sourdough');

      const similar = await first.similar('violin', 7);
      expect(similar.map((h) => h.id)).not.toContain('violin');
      expect(similar).toHaveLength(7);

      first.noteRemoved('garden');
      expect((await first.search('planting tomatoes', 8)).map((h) => h.id)).not.toContain('garden');
      await first.close();

      // Restart: same texts, nothing to embed.
      const embed = vi.spyOn(EmbeddingPool.prototype, 'embed');
      const second = make(cacheDir);
      await second.start();
      // The saved vectors are loaded, but no note has been checked against them yet: not ready, whatever the queue says.
      expect(second.progress()).toMatchObject({ ready: false, total: 0 });
      for (const [id, text] of Object.entries(NOTES)) if (id !== 'garden') second.noteChanged(id, text);
      second.noteChanged('trip', `${NOTES['trip'] ?? ''} Also a day at the Gulbenkian museum.`);
      second.allNotesReported();
      await waitUntilReady(second);
      const embedded = embed.mock.calls.map(([texts]) => texts).flat();
      expect(embedded).toHaveLength(1);
      expect(embedded[0]).toMatch(/Gulbenkian/);
      expect(second.progress()).toMatchObject({ ready: true, embedded: 7, total: 7 });
      expect((await second.search('sourdough loaf', 1))[0]?.id).toBe('sourdough');
      await second.close();
    });
  }, 60_000);

  it('embeds the most recently updated notes first', async () => {
    await withTempDir(async (dir) => {
      const embed = vi.spyOn(EmbeddingPool.prototype, 'embed');
      const indexer = make(path.join(dir, 'vectors'));
      // Reported oldest first, as a first read may meet them.
      const ids = Object.keys(NOTES);
      ids.forEach((id, i) => indexer.noteChanged(id, NOTES[id] ?? '', Date.UTC(2026, 0, 1 + i)));
      await indexer.start();
      indexer.allNotesReported();
      await waitUntilReady(indexer);
      const order = embed.mock.calls.flatMap(([texts]) => texts).map((text) => ids.find((id) => text === NOTES[id]));
      expect(order).toEqual([...ids].reverse());
    });
  }, 60_000);

  it('answers searches while the backlog is still being embedded', async () => {
    await withTempDir(async (dir) => {
      const log: string[] = [];
      const indexer = make(path.join(dir, 'vectors'), log);
      await indexer.start();
      indexer.noteChanged('violin', NOTES['violin'] ?? '');
      indexer.allNotesReported();
      await waitUntilReady(indexer);
      // A long backlog of filler notes is queued behind it.
      for (let i = 0; i < 40; i++) indexer.noteChanged(`filler-${i}`, `Meeting notes ${i}: ` + 'agenda item, decision, owner. '.repeat(60));
      const started = Date.now();
      const hits = await indexer.search('classical music', 1);
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(hits[0]?.id).toBe('violin');
      const progress = indexer.progress();
      expect(progress.ready).toBe(false);
      expect(progress.embedded).toBeLessThan(progress.total);
      // Closing mid-backlog saves what is embedded; the rest waits for next time.
      await indexer.close();
      expect(log.some((line) => line.startsWith('semantic index saved'))).toBe(true);
    });
  }, 60_000);
});
