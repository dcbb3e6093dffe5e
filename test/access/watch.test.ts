import { afterEach, describe, expect, it } from 'vitest';
import { noteListeners } from '../../src/access/note-changes.js';
import { createPolicy } from '../../src/access/policy.js';
import type { NoteWatcher, VaultView } from '../../src/access/view.js';
import { ServedVault } from '../../src/server/served-vault.js';
import { DEFAULT_SETTINGS } from '../../src/vault/settings.js';
import { removeDir, TestClock, writeVault } from '../support/helpers.js';

const opened: { runtime: ServedVault; dir: string }[] = [];
afterEach(async () => {
  for (const { runtime, dir } of opened.splice(0)) {
    await runtime.close();
    await removeDir(dir);
  }
});

async function open(): Promise<ServedVault> {
  const dir = await writeVault({ 'Work/Plan.md': 'plan\n', 'Home/Chores.md': 'chores\n' });
  const runtime = await ServedVault.open({ vaultDir: dir, settings: { ...DEFAULT_SETTINGS }, shared: [], clock: new TestClock(), log: () => undefined, watch: false });
  opened.push({ runtime, dir });
  await runtime.loaded;
  return runtime;
}

/** A watcher that knows the ids it was told were visible, and records what it hears. */
function recorder(): NoteWatcher & { heard: [string, boolean][] } {
  const known = new Set<string>();
  const heard: [string, boolean][] = [];
  return {
    heard,
    changed(id, visible) {
      heard.push([id, visible]);
      if (visible) known.add(id);
      else known.delete(id);
    },
    knows: (id) => known.has(id),
  };
}

const create = (view: VaultView, title: string) => view.create({ title, text: title, noteCap: null }, 'test');

describe('VaultView#watch', () => {
  it('tells a bounded connection of its own notes only, and of a note leaving its view only once it knew it', async () => {
    const runtime = await open();
    const all = runtime.context(createPolicy()).view;
    const work = runtime.context(createPolicy({ folder: 'Work' })).view;
    const watcher = recorder();
    const stop = work.watch(watcher);
    const outside = await create(all, 'Outside');
    // Made outside Work: not a word of it reaches the bounded connection.
    expect(watcher.heard).toEqual([]);
    await all.move(outside.record.id, 'Work', 'test');
    expect(watcher.heard.at(-1)).toEqual([outside.record.id, true]);
    await all.move(outside.record.id, 'Home', 'test');
    // It knew the note, so it hears that it can no longer see it; then nothing more.
    expect(watcher.heard.filter(([, visible]) => !visible).map(([id]) => id)).toContain(outside.record.id);
    const before = watcher.heard.length;
    await all.update(outside.record.id, { mode: 'append', text: 'more' }, 'test');
    await all.delete(outside.record.id, 'test');
    expect(watcher.heard.length).toBe(before);
    // A note inside, deleted: told as no longer visible.
    const inside = await create(work, 'Inside');
    await work.delete(inside.record.id, 'test');
    expect(watcher.heard.slice(-1)).toEqual([[inside.record.id, false]]);
    // Once it stops, nothing more, not even of a note inside.
    stop();
    const heard = watcher.heard.length;
    await create(work, 'After');
    expect(watcher.heard.length).toBe(heard);
  });

  it('holds one listener of each kind on the vault however many connections watch, and none once all stop', async () => {
    const runtime = await open();
    const vault = runtime.own;
    const baseline = { note: vault.listenerCount('note'), removed: vault.listenerCount('removed') };
    const stops = Array.from({ length: 50 }, (_, i) => runtime.context(createPolicy(i % 2 === 0 ? {} : { tag: 'work' })).view.watch(recorder()));
    expect(noteListeners(vault)).toBe(50);
    expect(vault.listenerCount('note')).toBe(baseline.note + 1);
    expect(vault.listenerCount('removed')).toBe(baseline.removed + 1);
    for (const stop of stops) {
      stop();
      // Stopping twice lets go of nothing more.
      stop();
    }
    expect(noteListeners(vault)).toBe(0);
    expect(vault.listenerCount('note')).toBe(baseline.note);
    expect(vault.listenerCount('removed')).toBe(baseline.removed);
  });
});
