import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRng } from '../../support/random.js';
import { ServedVault } from '../../../src/server/served-vault.js';
import { DEFAULT_SETTINGS } from '../../../src/vault/settings.js';
import { answersByPath, connect, recordSummaries, removeDir, summariesByPath, tempDir, TestClock, waitFor, writeVault, type Harness } from '../../support/helpers.js';

const WORDS = ['apple', 'river', 'garden', 'violin', 'sourdough', 'lisbon', 'compost', 'neural', 'tomato', 'budget', 'meeting', 'castle'];
const QUERIES = [...WORDS, 'garden tomato', 'violin practice', 'neural budget castle', 'riv', 'sourdouhg'];
const FOLDERS = ['', 'A', 'A/B', 'C'];

let h: Harness | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

async function listMarkdown(root: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(root, rel), { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listMarkdown(root, child)));
    else if (entry.name.endsWith('.md')) out.push(child);
  }
  return out;
}

describe('differential: the live index after a stream of edits equals one rebuilt from the files', () => {
  it.each([1, 2, 3])('seed %i', async (seed) => {
    const rng = createRng(seed);
    const pick = <T,>(items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
    const sentence = () => Array.from({ length: 3 + Math.floor(rng() * 8) }, () => pick(WORDS)).join(' ');

    const initial: Record<string, string> = {};
    for (let i = 0; i < 20; i++) {
      const folder = pick(FOLDERS);
      initial[`${folder ? `${folder}/` : ''}note ${i}.md`] = `${sentence()}\n${rng() < 0.3 ? `#${pick(WORDS)}\n` : ''}`;
    }
    const dir = await writeVault(initial);
    dirs.push(dir);
    h = await connect({ dir });
    await h.runtime.watching;
    const s = h;

    for (let step = 0; step < 60; step++) {
      const files = await listMarkdown(dir);
      const listed = (await s.ok<{ items: { id: string }[] }>('list_notes', { size: 50 })).items;
      const roll = rng();
      try {
        if (roll < 0.15) await s.ok('create_note', { title: `made ${step}`, text: sentence() });
        else if (roll < 0.3 && listed.length > 0) await s.ok('update_note', { note_id: pick(listed).id, text: sentence(), mode: 'append' });
        else if (roll < 0.4 && listed.length > 0) await s.ok('update_note', { note_id: pick(listed).id, text: sentence() });
        else if (roll < 0.45 && listed.length > 3) await s.ok('delete_note', { note_id: pick(listed).id });
        else if (roll < 0.6 && files.length > 0) {
          const file = path.join(dir, pick(files));
          await writeFile(file, (await readFile(file, 'utf8')) + `${sentence()}\n`);
        } else if (roll < 0.7) {
          const folder = pick(FOLDERS);
          await mkdir(path.join(dir, folder), { recursive: true });
          await writeFile(path.join(dir, folder, `outside ${step}.md`), `${sentence()}\n`);
        } else if (roll < 0.8 && files.length > 0) {
          const from = pick(files);
          const folder = pick(FOLDERS);
          await mkdir(path.join(dir, folder), { recursive: true });
          await rename(path.join(dir, from), path.join(dir, folder, `moved ${step}.md`));
        } else if (roll < 0.88 && files.length > 3) {
          await rm(path.join(dir, pick(files)));
        } else if (files.length > 0) {
          // An editor's safe save: temporary file, then rename over the note.
          const file = path.join(dir, pick(files));
          await writeFile(`${file}.swp~`, (await readFile(file, 'utf8')) + `${sentence()}\n`);
          await rename(`${file}.swp~`, file);
        }
      } catch (error) {
        // A tool call may race an outside delete of the same note; that is an expected refusal.
        if (!/Note not found/.test(String(error))) throw error;
      }
    }

    const rebuiltDir = await tempDir();
    dirs.push(rebuiltDir);
    const compare = async () => {
      await s.runtime.settled();
      await rm(rebuiltDir, { recursive: true, force: true });
      await cp(dir, rebuiltDir, { recursive: true, filter: (src) => !src.includes(`${path.sep}.dexi`) });
      const rebuilt = await ServedVault.open({ vaultDir: rebuiltDir, settings: DEFAULT_SETTINGS, shared: [], clock: new TestClock(), log: () => undefined, watch: false });
      await rebuilt.loaded;
      const same =
        JSON.stringify(summariesByPath(rebuilt)) === JSON.stringify(summariesByPath(s.runtime)) &&
        JSON.stringify(answersByPath(rebuilt, QUERIES)) === JSON.stringify(answersByPath(s.runtime, QUERIES));
      await rebuilt.close();
      return same ? { rebuilt: recordSummaries(s.runtime) } : undefined;
    };
    const result = await waitFor(compare, 8000, 'the live index to match a rebuild');
    expect(result.rebuilt.length).toBe((await listMarkdown(dir)).length);
  });
});
