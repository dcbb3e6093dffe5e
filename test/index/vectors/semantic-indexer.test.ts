import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EmbeddingPool } from '../../../src/index/vectors/embedding-pool.js';
import { SemanticIndexer, type SemanticProgress } from '../../../src/index/vectors/semantic-indexer.js';
import { removeDir } from '../../support/helpers.js';
import { sharedSemantic } from '../../support/shared-pool.js';
import { withTempDir } from '../../support/vectors.js';

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
  const open: { indexer: SemanticIndexer; cacheDir: string }[] = [];
  const make = (cacheDir: string, log: string[] = []): SemanticIndexer => {
    const indexer = new SemanticIndexer({ cacheDir, ...sharedSemantic(), log: (line) => log.push(line) });
    open.push({ indexer, cacheDir });
    return indexer;
  };
  afterEach(async () => {
    vi.restoreAllMocks();
    const closing = open.splice(0);
    await Promise.all(closing.map(({ indexer }) => indexer.close()));
    // Closing saves the index, which makes its folder again if withTempDir has removed it already.
    await Promise.all(closing.map(({ cacheDir }) => removeDir(path.dirname(cacheDir))));
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
      const embed = vi.spyOn(EmbeddingPool.prototype, 'embedWindows');
      const secondLog: string[] = [];
      const second = make(cacheDir, secondLog);
      await second.start();
      // What the loaded vectors take: 7 notes of one window, 512 floats each; no graph at this size.
      expect(second.memory()).toEqual({ vectors: 7 * 512 * 4, graph: undefined });
      expect(secondLog.find((line) => line.startsWith('semantic index loaded'))).toMatch(/chunks \(use-lite-512\); vectors 0\.0 MB; no graph$/);
      // The saved vectors are loaded, but no note has been checked against them yet: not ready, whatever the queue says.
      expect(second.progress()).toMatchObject({ ready: false, total: 0 });
      for (const [id, text] of Object.entries(NOTES)) if (id !== 'garden') second.noteChanged(id, text);
      second.noteChanged('trip', `${NOTES['trip'] ?? ''} Also a day at the Gulbenkian museum.`);
      second.allNotesReported();
      await waitUntilReady(second);
      const embedded = embed.mock.calls.flatMap(([requests]) => requests.map((request) => request.text));
      expect(embedded).toHaveLength(1);
      expect(embedded[0]).toMatch(/Gulbenkian/);
      expect(second.progress()).toMatchObject({ ready: true, embedded: 7, total: 7 });
      expect((await second.search('sourdough loaf', 1))[0]?.id).toBe('sourdough');
      await second.close();
    });
  }, 60_000);

  it('embeds the most recently updated notes first', async () => {
    await withTempDir(async (dir) => {
      const embed = vi.spyOn(EmbeddingPool.prototype, 'embedWindows');
      const indexer = make(path.join(dir, 'vectors'));
      // Reported oldest first, as a first read may meet them.
      const ids = Object.keys(NOTES);
      ids.forEach((id, i) => indexer.noteChanged(id, NOTES[id] ?? '', Date.UTC(2026, 0, 1 + i)));
      await indexer.start();
      indexer.allNotesReported();
      await waitUntilReady(indexer);
      const order = embed.mock.calls.flatMap(([requests]) => requests).map((request) => ids.find((id) => request.text === NOTES[id]));
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

  it('embeds every note\'s opening first, then the rest of long notes, and lets a late passage win on its own', async () => {
    await withTempDir(async (dir) => {
      const cacheDir = path.join(dir, 'vectors');
      const embed = vi.spyOn(EmbeddingPool.prototype, 'embedWindows');
      // Some 300 words on meetings, then a paragraph on the violin: far past the model's 128 tokens.
      const long = (i: number): string =>
        `Project meeting ${i}. ` + 'The agenda covered staffing, the budget and the schedule; owners were named for each decision. '.repeat(20);
      const violinTail = ' Afterwards I practised the violin: scales, arpeggios and the slow movement of the Bach partita, with a drone for intonation.';
      const first = make(cacheDir);
      await first.start();
      for (let i = 0; i < 3; i++) first.noteChanged(`meeting-${i}`, long(i), Date.UTC(2026, 0, 1 + i));
      first.noteChanged('meeting-violin', long(9) + violinTail, Date.UTC(2025, 0, 1));
      for (const [id, text] of Object.entries(NOTES)) if (id !== 'violin') first.noteChanged(id, text, Date.UTC(2024, 0, 1));
      first.allNotesReported();
      const done = await waitUntilReady(first);
      expect(done).toMatchObject({ ready: true, embedded: 11, complete: 11, total: 11 });

      const requests = embed.mock.calls.flatMap(([batch]) => batch);
      const firstPassage = requests.findIndex((request) => request.window > 0);
      // Every opening (window 0) was asked for before any other window.
      expect(firstPassage).toBe(11);
      expect(requests.slice(firstPassage).every((request) => request.window > 0 && request.text.startsWith('Project meeting'))).toBe(true);
      const windowsOfViolin = requests.filter((request) => request.text.endsWith(violinTail)).length;
      expect(windowsOfViolin).toBeGreaterThan(2);

      // Only the last window holds the violin; the note's best window is what ranks it.
      expect((await first.search('violin practice with scales and arpeggios', 1))[0]?.id).toBe('meeting-violin');
    });
  }, 90_000);

  it('hands the workers openings eight times as many at a time as passages: most openings are leads, a fraction of a window', async () => {
    await withTempDir(async (dir) => {
      const embed = vi.spyOn(EmbeddingPool.prototype, 'embedWindows');
      const indexer = make(path.join(dir, 'vectors'));
      // Reported before the model loads, so that the openings wait as one group.
      indexer.noteChanged('meeting', 'Project meeting. ' + 'The agenda covered staffing, the budget and the schedule; owners were named. '.repeat(20));
      for (const [id, text] of Object.entries(NOTES)) indexer.noteChanged(id, text);
      await indexer.start();
      indexer.allNotesReported();
      expect(await waitUntilReady(indexer)).toMatchObject({ ready: true, complete: 9, total: 9 });
      const calls = embed.mock.calls.map(([requests, options]) => ({ openings: requests.every((request) => request.window === 0), size: options?.batchSize }));
      // One worker with batches of 2: the 9 openings go as one group, in batches of 16; the long note's other windows in batches of 2.
      expect(calls[0]).toEqual({ openings: true, size: 16 });
      expect(calls.slice(1).length).toBeGreaterThan(0);
      expect(calls.slice(1).every((call) => !call.openings && call.size === 2)).toBe(true);
    });
  }, 90_000);

  it('says a long note is searchable by its opening before its passages are embedded, and a restart embeds only the rest', async () => {
    await withTempDir(async (dir) => {
      const cacheDir = path.join(dir, 'vectors');
      const text = 'Garden diary. ' + 'Watered the tomatoes, tied up the beans, picked the first courgettes and weeded the onion bed. '.repeat(30);
      const first = make(cacheDir);
      // The passages wait until every opening is done; closing as soon as the opening is in keeps them for next time.
      let resolveOpened: () => void = () => undefined;
      const opened = new Promise<void>((resolve) => (resolveOpened = resolve));
      let stopHeld: (error: Error) => void = () => undefined;
      const original = EmbeddingPool.prototype.embedWindows;
      vi.spyOn(EmbeddingPool.prototype, 'embedWindows').mockImplementation(async function (this: EmbeddingPool, requests, options) {
        if (requests.some((request) => request.window > 0)) {
          resolveOpened();
          // Held back, as if the worker were still busy when the server stops.
          return new Promise((_, reject) => (stopHeld = reject));
        }
        return original.call(this, requests, options);
      });
      await first.start();
      first.noteChanged('garden', text);
      first.allNotesReported();
      await opened;
      expect(first.progress()).toMatchObject({ ready: false, embedded: 1, complete: 0, total: 1 });
      expect(first.isEmbedded('garden')).toBe(true);
      expect(first.isComplete('garden')).toBe(false);
      const closing = first.close();
      stopHeld(new Error('The embedding pool is closed'));
      await closing;
      vi.restoreAllMocks();

      const embed = vi.spyOn(EmbeddingPool.prototype, 'embedWindows');
      const second = make(cacheDir);
      await second.start();
      second.noteChanged('garden', text);
      second.allNotesReported();
      expect(await waitUntilReady(second)).toMatchObject({ ready: true, embedded: 1, complete: 1 });
      const asked = embed.mock.calls.flatMap(([batch]) => batch);
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.every((request) => request.window > 0)).toBe(true);
    });
  }, 90_000);
});
