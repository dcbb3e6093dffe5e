import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Harness } from '../support/helpers.js';
import { sessions } from '../support/sessions.js';

/**
 * The server beside another program that is still writing the note: it
 * waits until the file is quiet, and text that reaches the old file after a
 * replace is brought back. Every line of both writers must end up in the note
 * or in a conflict copy beside it.
 */

const WRITER = fileURLToPath(new URL('../support/slow-writer.mjs', import.meta.url));

const session = sessions();
const serve = (files: Record<string, string>): Promise<Harness> => session.serve(files);

/** Start the writer; resolves once its first bytes are in the file, with a promise of its exit. */
function startWriter(file: string, mode: 'rewrite' | 'append-loop', pauseMs: number, lines: string[]): Promise<{ done: Promise<void> }> {
  const child = spawn(process.execPath, [WRITER, file, mode, String(pauseMs), ...lines], { stdio: ['ignore', 'pipe', 'inherit'] });
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited ${code}`))));
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('started')) resolve({ done });
    });
    done.catch(reject);
  });
}

/** The note and every conflict copy of it, as one text. */
async function everythingKept(dir: string, name: string): Promise<string> {
  const copies = (await readdir(dir)).filter((file) => file.startsWith(`${name} (conflict`));
  const texts = [await readFile(path.join(dir, `${name}.md`), 'utf8')];
  for (const copy of copies) texts.push(await readFile(path.join(dir, copy), 'utf8'));
  return texts.join('\n');
}

const theirLines = (n: number): string[] => Array.from({ length: n }, (_, i) => `their line ${i + 1}`);

describe('an assistant edit beside a slow writer', () => {
  it.each([60, 150, 500])('loses nothing when the writer pauses %i ms mid-write', async (pauseMs) => {
    const h = await serve({ 'Log.md': 'the old text\n' });
    const id = h.runtime.own.atPath('Log.md')?.id as string;
    const lines = theirLines(6);
    const writer = await startWriter(path.join(h.dir, 'Log.md'), 'rewrite', pauseMs, lines);
    await h.ok('update_note', { note_id: id, mode: 'append', text: 'the assistant line' });
    await writer.done;
    await h.runtime.own.writesSettled();
    const kept = await everythingKept(h.dir, 'Log');
    for (const line of [...lines, 'the assistant line']) expect(kept).toContain(line);
    // Where nothing raced twice, both are in the note itself, theirs first.
    const note = await readFile(path.join(h.dir, 'Log.md'), 'utf8');
    expect(note).toBe(`${lines.join('\n')}\n\nthe assistant line\n`);
  });

  it('loses no line of a logging loop appending through one descriptor', async () => {
    const h = await serve({ 'Loop.md': 'start\n' });
    const id = h.runtime.own.atPath('Loop.md')?.id as string;
    const lines = theirLines(10);
    const writer = await startWriter(path.join(h.dir, 'Loop.md'), 'append-loop', 100, lines);
    await h.ok('update_note', { note_id: id, mode: 'append', text: 'the assistant line' });
    await writer.done;
    await h.runtime.own.writesSettled();
    const kept = await everythingKept(h.dir, 'Loop');
    for (const line of ['start', ...lines, 'the assistant line']) expect(kept).toContain(line);
  });

  it('says plainly that the note is being written when it never goes quiet, and writes nothing', async () => {
    const h = await serve({ 'Busy.md': 'start\n' });
    const id = h.runtime.own.atPath('Busy.md')?.id as string;
    const lines = theirLines(80);
    const writer = await startWriter(path.join(h.dir, 'Busy.md'), 'append-loop', 50, lines);
    const message = await h.fail('update_note', { note_id: id, mode: 'append', text: 'the assistant line' });
    expect(message).toBe('The note is being written by another program right now; nothing was changed. Try again in a moment.');
    await writer.done;
    const note = await readFile(path.join(h.dir, 'Busy.md'), 'utf8');
    expect(note).toBe(`start\n${lines.join('\n')}\n`);
  });
});
