import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/access/policy.js';
import { VaultView } from '../../src/access/view.js';
import { Vault } from '../../src/vault/vault.js';
import { removeDir, TestClock, writeVault } from '../support/helpers.js';

/**
 * The boundary is decided again under the note's lock: a note another
 * program moves out of the connection's folder between the tool's check and
 * its write is not written (nor deleted), and is "not found" like any note
 * outside the boundary.
 */

const ID = '00000000-0000-4000-8000-00000000a001';
const NOTE = `---\nid: ${ID}\n---\nwork text\n`;

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

/** A vault whose note is moved from Work/ to Private/ by another program just before the server's first write of it. */
async function movedDuringWrite(): Promise<{ view: VaultView; dir: string; moved: () => boolean }> {
  const dir = await writeVault({ 'Work/Plan.md': NOTE, 'Private/Secret.md': 'secret\n' });
  dirs.push(dir);
  let moves = 0;
  const vault: Vault = await Vault.open({
    root: dir,
    clock: new TestClock(),
    log: () => undefined,
    hooks: {
      async duringWrite(phase, vaultPath) {
        if (phase !== 'before-check' || moves > 0 || vaultPath !== 'Work/Plan.md') return;
        moves++;
        await mkdir(path.join(dir, 'Private'), { recursive: true });
        await rename(path.join(dir, 'Work', 'Plan.md'), path.join(dir, 'Private', 'Plan.md'));
        // The watcher's report of the move, made at once so that the server follows the note to its new place.
        await vault.refresh('Private/Plan.md');
      },
    },
  });
  await vault.load();
  const view = new VaultView(vault, [], createPolicy({ folder: 'Work' }));
  return { view, dir, moved: () => moves > 0 };
}

describe('a note moved out of the boundary while it is being written', () => {
  it.each([
    ['append', (view: VaultView) => view.update(ID, { mode: 'append', text: 'leaked into Private' }, 'update_note')],
    ['replace', (view: VaultView) => view.update(ID, { mode: 'replace', text: 'leaked into Private' }, 'update_note')],
    ['grade', (view: VaultView) => view.setFrontmatter(ID, { review: { due: '2026-12-01T00:00:00+00:00', interval: 1, ease: 2.5, repetitions: 1 } }, 'grade_review')],
  ])('%s: is not written, and is not found', async (_what, write) => {
    const { view, dir, moved } = await movedDuringWrite();
    await expect(write(view)).rejects.toThrow('Note not found');
    expect(moved()).toBe(true);
    expect(await readFile(path.join(dir, 'Private', 'Plan.md'), 'utf8')).toBe(NOTE);
  });

  it('delete: the note is not deleted, and is not found', async () => {
    const dir = await writeVault({ 'Work/Plan.md': NOTE });
    dirs.push(dir);
    const vault = await Vault.open({ root: dir, clock: new TestClock(), log: () => undefined });
    await vault.load();
    const view = new VaultView(vault, [], createPolicy({ folder: 'Work' }));
    const file = path.join(dir, 'Work', 'Plan.md');
    // Written just now, so the append below holds the note's lock while it waits for the file to be quiet;
    // the delete, checked while the note is still in Work/, queues behind it.
    await writeFile(file, NOTE);
    const appending = view.update(ID, { mode: 'append', text: 'x' }, 'update_note').then(() => 'written', (error: Error) => error.message);
    await Promise.resolve();
    const deleting = view.delete(ID, 'delete_note').then(() => 'deleted', (error: Error) => error.message);
    await mkdir(path.join(dir, 'Private'));
    await rename(file, path.join(dir, 'Private', 'Plan.md'));
    await vault.refresh('Private/Plan.md');
    expect(await deleting).toBe('Note not found');
    expect(await appending).toBe('Note not found');
    expect(await readFile(path.join(dir, 'Private', 'Plan.md'), 'utf8')).toBe(NOTE);
  });
});
