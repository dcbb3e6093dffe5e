import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheDir } from '../../src/storage/dexi-dir.js';
import { historyDir } from '../../src/vault/record/activity.js';
import { NoteFiles } from '../../src/vault/note-files.js';
import { undo } from '../../src/vault/record/undo.js';
import { sessions } from '../support/sessions.js';
import { removeDir, tempDir, type Harness } from '../support/helpers.js';

/**
 * The copies the server keeps of note text (the history of replaced
 * versions, the index cache) are its owner's alone: a `0600` note's text must
 * not become readable by others through them (red-team-2 finding 6).
 */

const session = sessions();

const modeOf = async (file: string): Promise<number> => (await stat(file)).mode & 0o777;
const idOf = (h: Harness, vaultPath: string): string => {
  const record = h.runtime.own.atPath(vaultPath);
  if (!record) throw new Error(`no note at ${vaultPath}`);
  return record.id;
};

/** Every kept version in the history, by its text, with its mode. */
async function keptVersions(vault: string): Promise<{ text: string; mode: number }[]> {
  const dir = historyDir(vault);
  const names = (await readdir(dir)).filter((name) => /^[0-9a-f]{40}$/.test(name));
  return Promise.all(names.map(async (name) => ({ text: await readFile(path.join(dir, name), 'utf8'), mode: await modeOf(path.join(dir, name)) })));
}

describe.skipIf(process.platform === 'win32')('copies of note text under .dexi/', () => {
  it('keeps the history of a 0600 note 0600, in a 0700 folder, through a replace and a delete', async () => {
    const dir = await session.vault({ 'Work/diary.md': 'TOP-SECRET-0600 diary\n', 'Open.md': 'an open note\n' });
    await chmod(path.join(dir, 'Work/diary.md'), 0o600);
    const h = await session.connect(dir);
    const id = idOf(h, 'Work/diary.md');
    await h.ok('update_note', { note_id: id, mode: 'replace', text: 'second private version\n' });
    await h.ok('delete_note', { note_id: id });
    // A 0644 note's copy is owner-only too: a version kept once may be the bytes of two notes of different modes.
    await h.ok('update_note', { note_id: idOf(h, 'Open.md'), mode: 'append', text: 'more' });

    const kept = await keptVersions(dir);
    expect(kept.map((version) => version.text).sort()).toEqual(['TOP-SECRET-0600 diary\n', 'an open note\n', 'second private version\n']);
    for (const version of kept) expect(version.mode, version.text).toBe(0o600);
    expect(await modeOf(historyDir(dir))).toBe(0o700);
    expect(await modeOf(cacheDir(dir))).toBe(0o700);
  });

  it('narrows the history and cache folders an older version made world-readable', async () => {
    const dir = await session.vault({ 'Note.md': 'private words\n' });
    await chmod(path.join(dir, 'Note.md'), 0o600);
    for (const folder of [historyDir(dir), cacheDir(dir)]) {
      await mkdir(folder, { recursive: true });
      await chmod(folder, 0o755);
    }
    const h = await session.connect(dir);
    await h.ok('update_note', { note_id: idOf(h, 'Note.md'), mode: 'append', text: 'more' });
    expect(await modeOf(historyDir(dir))).toBe(0o700);
    expect(await modeOf(cacheDir(dir))).toBe(0o700);
    expect((await keptVersions(dir)).map((version) => version.mode)).toEqual([0o600]);
    // The note itself keeps its own mode.
    expect(await modeOf(path.join(dir, 'Note.md'))).toBe(0o600);
  });

  it('brings a deleted 0600 note back 0600 on undo, and a 0644 one 0644', async () => {
    const dir = await session.vault({ 'Work/diary.md': 'TOP-SECRET-0600 diary\n', 'Open.md': 'an open note\n' });
    await chmod(path.join(dir, 'Work/diary.md'), 0o600);
    const h = await session.connect(dir);
    await h.ok('delete_note', { note_id: idOf(h, 'Work/diary.md') });
    await undo(h.runtime.activity, { last: true });
    expect(await readFile(path.join(dir, 'Work/diary.md'), 'utf8')).toBe('TOP-SECRET-0600 diary\n');
    expect(await modeOf(path.join(dir, 'Work/diary.md'))).toBe(0o600);
    await chmod(path.join(dir, 'Open.md'), 0o644);
    await h.ok('delete_note', { note_id: idOf(h, 'Open.md') });
    await undo(h.runtime.activity, { last: true });
    expect(await modeOf(path.join(dir, 'Open.md'))).toBe(0o644);
  });

  it("makes a conflict copy with the note's mode, so a 0600 note's text is not left readable beside it", async () => {
    const dir = await tempDir('dexi-copy-mode-');
    try {
      await writeFile(path.join(dir, 'Private.md'), 'mine\n');
      await chmod(path.join(dir, 'Private.md'), 0o600);
      await writeFile(path.join(dir, 'Open.md'), 'ours\n');
      await chmod(path.join(dir, 'Open.md'), 0o644);
      const files = new NoteFiles(dir, { clock: { now: () => new Date('2026-12-02T10:00:00Z') }, log: () => undefined });
      await files.saveConflictCopy('Private.md', Buffer.from('late private text\n'));
      await files.saveConflictCopy('Open.md', Buffer.from('late open text\n'));
      // A deleted note is gone from its path: its mode is handed over.
      await files.saveConflictCopy('Gone.md', Buffer.from('late text of a deleted note\n'), 0o600);
      const copies = (await readdir(dir)).filter((name) => name.includes('(conflict'));
      const modes = Object.fromEntries(await Promise.all(copies.map(async (name) => [name.replace(/ \(conflict.*$/, ''), await modeOf(path.join(dir, name))] as const)));
      expect(modes).toEqual({ Private: 0o600, Open: 0o644, Gone: 0o600 });
    } finally {
      await removeDir(dir);
    }
  });
});
