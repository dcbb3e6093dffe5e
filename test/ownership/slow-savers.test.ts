import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseFrontmatter, splitFrontmatter } from '../../src/format/frontmatter.js';
import { undo } from '../../src/vault/record/undo.js';
import type { Harness } from '../support/helpers.js';
import { sessions } from '../support/sessions.js';

/**
 * Slow savers beside a running server (side-by-side-2, findings 1 and 2):
 * an editor that saves in place with a pause mid-save, again and again,
 * while the assistant appends; and one save paused mid-way while the
 * assistant replaces or deletes the note. The server never builds on the
 * half written so far, and text that reaches the old file after a replace
 * or a delete is kept (a conflict copy beside the note, and the version the
 * call is recorded as replacing, so that undo brings it back whole).
 */

const SAVER = fileURLToPath(new URL('../support/slow-saver.mjs', import.meta.url));
const WRITER = fileURLToPath(new URL('../support/slow-writer.mjs', import.meta.url));
const BUSY = 'The note is being written by another program right now; nothing was changed. Try again in a moment.';

const session = sessions();

/** Run a script; resolves once it prints "started", with a promise of its exit. */
function start(script: string, args: string[]): Promise<{ done: Promise<void> }> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(script)} exited ${code}`))));
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('started')) resolve({ done });
    });
    done.catch(reject);
  });
}

async function conflictCopies(dir: string, name: string): Promise<string[]> {
  const copies = (await readdir(dir)).filter((file) => file.startsWith(`${name} (conflict`)).sort();
  return Promise.all(copies.map((copy) => readFile(path.join(dir, copy), 'utf8')));
}

/** The frontmatter of a note's text, which must be a closed, readable block. */
function closedFrontmatter(text: string): Record<string, unknown> {
  const split = splitFrontmatter(text);
  if (split.yaml === null) throw new Error(`no closed frontmatter: ${JSON.stringify(text.slice(0, 80))}`);
  const parsed = parseFrontmatter(split.yaml);
  if (!parsed.ok) throw new Error(`frontmatter does not parse: ${JSON.stringify(text.slice(0, 80))}`);
  return parsed.data;
}

const idOf = (h: Harness, vaultPath: string): string => h.runtime.own.atPath(vaultPath)?.id as string;
const lines = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);

describe('an editor saving in place with a pause mid-save, beside an assistant that appends', () => {
  it('never leaves a torn note: frontmatter, title and keys stay, every save is kept', async () => {
    const h = await session.serve({ 'Ed.md': '---\ntitle: Ed\ncustom: keep\n---\n# Ed\nP0\n' });
    const id = idOf(h, 'Ed.md');
    const saves = 8;
    const saver = await start(SAVER, [path.join(h.dir, 'Ed.md'), String(saves), '400', '300']);
    let finished = false;
    void saver.done.finally(() => (finished = true));
    const answers: { text: string; ok: boolean; message?: string }[] = [];
    const calls: Promise<void>[] = [];
    // An append every 500 ms, each sent without waiting for the one before.
    for (let k = 1; !finished; k++) {
      calls.push(
        h.call('update_note', { note_id: id, mode: 'append', text: `A${k}` }).then((result) => {
          answers.push({ text: `A${k}`, ok: result.isError !== true, message: (result.content[0] as { text: string }).text });
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await Promise.all(calls);
    await saver.done;
    await h.runtime.own.writesSettled();

    const note = await readFile(path.join(h.dir, 'Ed.md'), 'utf8');
    const copies = await conflictCopies(h.dir, 'Ed');
    console.log(
      `[slow savers] ${saves} in-place saves paused 400 ms beside ${answers.length} appends: ${answers.filter((a) => a.ok).length} made, ` +
        `${answers.filter((a) => !a.ok).length} refused as being written; ${copies.length} conflict copies; ` +
        `${answers.filter((a) => a.ok && note.includes(`\n${a.text}\n`)).length} made appends in the note (the editor overwrites those it read before they landed)`,
    );

    for (const text of [note, ...copies]) {
      expect(closedFrontmatter(text)).toMatchObject({ title: 'Ed', custom: 'keep' });
      expect(splitFrontmatter(text).body).toMatch(/^# Ed\nP0\n/);
    }
    const kept = [note, ...copies].join('\n');
    for (const line of lines('P', saves).map((line) => line.replace(' ', ''))) expect(kept).toContain(`\n${line}\n`);
    for (const answer of answers.filter((a) => !a.ok)) expect(answer.message).toBe(BUSY);
  }, 40_000);
});

describe('a replace or a delete during a save paused mid-way', () => {
  const oldNote = ['# Note', ...lines('person line', 40)];
  const save = [...oldNote, 'person NEW line'];

  it('waits for a half that looks cut short (0.5 s pause), replaces the whole save, and undo gives it back', async () => {
    const h = await session.serve({ 'Note.md': `${oldNote.join('\n')}\n` });
    const id = idOf(h, 'Note.md');
    const writer = await start(WRITER, [path.join(h.dir, 'Note.md'), 'rewrite', '500', ...save]);
    await h.ok('update_note', { note_id: id, mode: 'replace', text: 'assistant body\n' });
    await writer.done;
    await h.runtime.own.writesSettled();
    expect(await readFile(path.join(h.dir, 'Note.md'), 'utf8')).toBe('assistant body\n');
    await undo(h.runtime.activity, { last: true });
    expect(await readFile(path.join(h.dir, 'Note.md'), 'utf8')).toBe(`${save.join('\n')}\n`);
  }, 20_000);

  it.each(['replace', 'delete'] as const)('%s: text written 1 s later into the old file is kept as a conflict copy, and undo gives back the whole save', async (tool) => {
    // The old note is short, so the first half of the save does not look cut short: the server goes ahead.
    const h = await session.serve({ 'Note.md': 'old\n' });
    const id = idOf(h, 'Note.md');
    const writer = await start(WRITER, [path.join(h.dir, 'Note.md'), 'rewrite', '1000', ...save]);
    if (tool === 'replace') await h.ok('update_note', { note_id: id, mode: 'replace', text: 'assistant body\n' });
    else await h.ok('delete_note', { note_id: id });
    await writer.done;
    await h.runtime.own.writesSettled();
    const whole = `${save.join('\n')}\n`;
    expect(await conflictCopies(h.dir, 'Note')).toEqual([whole]);
    await undo(h.runtime.activity, { last: true });
    expect(await readFile(path.join(h.dir, 'Note.md'), 'utf8')).toBe(whole);
  }, 20_000);
});

describe('a note the person cut down on purpose', () => {
  it('is built on once it has stayed quiet a little longer, not refused', async () => {
    const long = `---\ntitle: Long\n---\n${lines('line', 30).join('\n')}\n`;
    const h = await session.serve({ 'Long.md': long });
    const id = idOf(h, 'Long.md');
    // Much shorter, and ending mid-line where the note ended with a newline: it looks cut short.
    await writeFile(path.join(h.dir, 'Long.md'), '---\ntitle: Long\n---\nkept only this');
    await h.ok('update_note', { note_id: id, mode: 'append', text: 'added' });
    expect(await readFile(path.join(h.dir, 'Long.md'), 'utf8')).toBe('---\ntitle: Long\n---\nkept only this\n\nadded\n');
  }, 20_000);
});
