import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { ParsePool } from '../../../src/vault/workers/parse-pool.js';
import { parseNoteFile } from '../../../src/vault/parse.js';
import { toSearchText } from '../../../src/format/markdown.js';
import type { NoteRecord } from '../../../src/vault/note.js';
import { Vault } from '../../../src/vault/vault.js';
import { copySampleVault, removeDir, TestClock } from '../../support/helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

/** Read a vault from scratch, collecting every note with the plain text the index would get. */
async function firstRead(dir: string, parseWorkerMinNotes: number): Promise<{ notes: Map<string, { record: NoteRecord; plain: string; fromWorker: boolean }>; logs: string[] }> {
  const logs: string[] = [];
  const vault = await Vault.open({ root: dir, clock: new TestClock(), log: (line) => logs.push(line), parseWorkerMinNotes });
  const notes = new Map<string, { record: NoteRecord; plain: string; fromWorker: boolean }>();
  vault.on('note', (record, body, plain) => notes.set(record.path, { record, plain: plain ?? toSearchText(body), fromWorker: plain !== undefined }));
  await vault.load();
  return { notes, logs };
}

describe('the parsing worker', () => {
  it('gives a first read the same notes and plain text as parsing on the main thread', async () => {
    const dir = await copySampleVault();
    dirs.push(dir);
    const here = await firstRead(dir, Number.POSITIVE_INFINITY);
    const there = await firstRead(dir, 0);
    expect(there.logs.filter((line) => line.includes('main thread'))).toEqual([]);
    expect(here.notes.size).toBeGreaterThan(30);
    expect([...there.notes.keys()].sort()).toEqual([...here.notes.keys()].sort());
    for (const [notePath, note] of here.notes) {
      const other = there.notes.get(notePath);
      expect(other?.fromWorker, notePath).toBe(true);
      expect(other?.record, notePath).toEqual(note.record);
      expect(other?.plain, notePath).toBe(note.plain);
    }
  });

  it('parses on the calling thread when the worker dies, failing no note', async () => {
    const dir = await copySampleVault();
    dirs.push(dir);
    const facts = await Promise.all(
      ['Scratchpad.md', 'Journal/2026-08-09.md'].map(async (rel) => {
        const content = await readFile(path.join(dir, rel), 'utf8');
        return { path: rel, content, size: content.length, mtimeMs: 1, ctimeMs: 1, ino: 1, birthtimeMs: 1 };
      }),
    );
    const logs: string[] = [];
    // A worker that exits before answering anything; the notes are handed to it at once.
    const pool = new ParsePool((line) => logs.push(line), () => new Worker('process.exit(3)', { eval: true }));
    const results = await Promise.all(facts.map((item) => pool.parse(item)));
    await pool.close();
    results.forEach((result, i) => expect(result.parsed).toEqual(parseNoteFile(facts[i] as (typeof facts)[number])));
    expect(logs.join('\n')).toMatch(/Parsing notes on the main thread: the parsing worker exited \(code 3\)/);
  });
});
