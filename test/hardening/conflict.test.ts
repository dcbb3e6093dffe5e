import { appendFile, open, readFile, rename, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parseFrontmatter, splitFrontmatter } from '../../src/format/frontmatter.js';
import { Vault, type VaultTestHooks } from '../../src/vault/vault.js';
import { pathId } from '../../src/format/identity.js';
import { removeDir, TestClock, writeVault } from '../support/helpers.js';
import { allFiles, notPlain } from '../support/harness.js';

/**
 * An editor writes a note between the server's read of it and the rename
 * that replaces it. The write is put exactly there through the Vault's test
 * seam (`hooks.duringWrite`), so every case happens on every run.
 */

const ID = '0b6f2a4e-8f7d-4b8e-9a51-3c2d1e0f9a77';
const NOTE = `---\nid: ${ID}\nstatus: draft\ncreated: 2026-01-01T00:00:00+00:00\n---\nfirst line\n`;

const dirs: string[] = [];
const totals = { injected: 0, redone: 0, putBack: 0, conflictCopies: 0, lost: 0 };

afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

afterAll(() => {
  console.log(
    `[hardening] conflict: ${totals.injected} editor writes injected between read and rename, ${totals.redone} edits redone, ` +
      `${totals.putBack} late writes put back, ${totals.conflictCopies} conflict copies, ${totals.lost} lost`,
  );
});

async function openVault(files: Record<string, string>, hooks: VaultTestHooks): Promise<{ vault: Vault; dir: string; logs: string[] }> {
  const dir = await writeVault(files);
  dirs.push(dir);
  const logs: string[] = [];
  const vault = await Vault.open({ root: dir, clock: new TestClock(), log: (line) => logs.push(line), hooks });
  await vault.load();
  return { vault, dir, logs };
}

function partsOf(content: string): { data: Record<string, unknown>; body: string } {
  const split = splitFrontmatter(content);
  const parsed = parseFrontmatter(split.yaml);
  if (!parsed.ok) throw new Error(`frontmatter does not parse: ${parsed.reason}`);
  return { data: parsed.data, body: split.body };
}

/** How an editor saves: in place (same file, as many editors and sync tools do) or through a new file renamed over the note. */
async function editorSave(file: string, content: string, how: 'in place' | 'rename'): Promise<void> {
  if (how === 'in place') {
    await writeFile(file, content);
  } else {
    await writeFile(`${file}.editor-tmp`, content);
    await rename(`${file}.editor-tmp`, file);
  }
}

function tally(vault: Vault): void {
  totals.redone += vault.stats.writesRedone;
  totals.putBack += vault.stats.writesPutBack;
  totals.conflictCopies += vault.stats.conflictCopies;
}

async function noTempFiles(dir: string): Promise<void> {
  expect((await allFiles(dir)).filter((rel) => rel.includes('.dexi-tmp-'))).toEqual([]);
}

describe('an editor writes between the server\'s read and its rename', () => {
  it.each(['in place', 'rename'] as const)('append, editor saving %s: the append lands after the editor\'s text', async (how) => {
    let injected = 0;
    const file = { abs: '' };
    const { vault, dir } = await openVault({ 'Note.md': NOTE }, {
      async duringWrite(phase) {
        if (phase !== 'before-check' || injected > 0) return;
        injected++;
        await editorSave(file.abs, `${await readFile(file.abs, 'utf8')}editor line\n`, how);
      },
    });
    file.abs = path.join(dir, 'Note.md');
    await vault.update(ID, { mode: 'append', text: 'server line\n' });
    totals.injected += injected;
    tally(vault);

    const { data, body } = partsOf(await readFile(file.abs, 'utf8'));
    expect(injected).toBe(1);
    expect(body).toBe('first line\neditor line\n\nserver line\n');
    expect(data.id).toBe(ID);
    // The check caught the editor's save, and the edit was redone on it.
    expect(vault.stats.writesRedone).toBe(1);
    await noTempFiles(dir);
  });

  it.each(['in place', 'rename'] as const)('replace, editor saving %s: the body is replaced, the editor\'s frontmatter changes stay', async (how) => {
    let injected = 0;
    const file = { abs: '' };
    const { vault, dir } = await openVault({ 'Note.md': NOTE }, {
      async duringWrite(phase) {
        if (phase !== 'before-check' || injected > 0) return;
        injected++;
        const edited = (await readFile(file.abs, 'utf8')).replace('status: draft', 'status: done\nreviewed: true').replace('first line', 'editor body');
        await editorSave(file.abs, edited, how);
      },
    });
    file.abs = path.join(dir, 'Note.md');
    const result = await vault.update(ID, { mode: 'replace', text: 'server body\n', title: 'New title' });
    totals.injected += injected;
    tally(vault);

    const { data, body } = partsOf(await readFile(file.abs, 'utf8'));
    expect(body).toBe('server body\n');
    expect(data).toMatchObject({ id: ID, status: 'done', reviewed: true, title: 'New title' });
    expect(result.record.title).toBe('New title');
    expect(vault.stats.writesRedone).toBe(1);
    await noTempFiles(dir);
  });

  it('a write into the old file just after the rename is put back, and the edit redone on it', async () => {
    let held: FileHandle | undefined;
    let injected = 0;
    const file = { abs: '' };
    const { vault, dir, logs } = await openVault({ 'Note.md': NOTE }, {
      async duringWrite(phase) {
        if (injected > 0) return;
        // The editor has the note open before the rename, and writes into it after.
        if (phase === 'before-check') held = await open(file.abs, 'r+');
        if (phase === 'after-rename' && held) {
          injected++;
          const size = (await held.stat()).size;
          await held.write('editor late line\n', size);
          await held.close();
        }
      },
    });
    file.abs = path.join(dir, 'Note.md');
    await vault.update(ID, { mode: 'append', text: 'server line\n' });
    totals.injected += injected;
    tally(vault);

    expect(injected).toBe(1);
    expect(partsOf(await readFile(file.abs, 'utf8')).body).toBe('first line\neditor late line\n\nserver line\n');
    expect(vault.stats.writesPutBack).toBe(1);
    expect(logs.join('\n')).toContain('put back');
    await noTempFiles(dir);
  });

  it('a note changed twice at once keeps one version in place and the other as a conflict copy: nothing is lost', async () => {
    let held: FileHandle | undefined;
    let injected = 0;
    const file = { abs: '' };
    const { vault, dir } = await openVault({ 'Note.md': NOTE }, {
      async duringWrite(phase) {
        if (injected > 0) return;
        if (phase === 'before-check') held = await open(file.abs, 'r+');
        if (phase === 'after-rename' && held) {
          injected += 2;
          // One program writes into the old file, another saves a new version over the path.
          await held.write('late line\n', (await held.stat()).size);
          await held.close();
          await editorSave(file.abs, NOTE.replace('first line', 'first line\nsync line'), 'rename');
        }
      },
    });
    file.abs = path.join(dir, 'Note.md');
    await vault.update(ID, { mode: 'append', text: 'server line\n' });
    totals.injected += injected;
    tally(vault);

    expect(partsOf(await readFile(file.abs, 'utf8')).body).toBe('first line\nsync line\n\nserver line\n');
    const copies = (await allFiles(dir)).filter((rel) => rel.includes('(conflict'));
    expect(copies).toHaveLength(1);
    expect(partsOf(await readFile(path.join(dir, copies[0] as string), 'utf8')).body).toBe('first line\nlate line\n');
    expect(vault.stats.conflictCopies).toBe(1);
    await noTempFiles(dir);
  });

  it('a first read never writes, so an editor still typing has nothing to race', async () => {
    let writes = 0;
    const dir = await writeVault({ 'Fresh.md': 'typed\n' });
    dirs.push(dir);
    const abs = path.join(dir, 'Fresh.md');
    const vault = await Vault.open({
      root: dir,
      clock: new TestClock(),
      log: () => undefined,
      hooks: {
        async duringWrite() {
          writes++;
        },
      },
    });
    const reading = vault.load();
    await appendFile(abs, 'more typing\n');
    await reading;
    await vault.refresh('Fresh.md');
    tally(vault);

    expect(writes).toBe(0);
    expect(await readFile(abs, 'utf8')).toBe('typed\nmore typing\n');
    expect(vault.atPath('Fresh.md')?.id).toBe(pathId('Fresh.md'));
    await noTempFiles(dir);
  });

  it('a note that never stops changing gets a plain error after a bounded number of tries, and keeps every editor line', async () => {
    let injected = 0;
    const file = { abs: '' };
    const { vault, dir } = await openVault({ 'Note.md': NOTE }, {
      async duringWrite(phase) {
        if (phase !== 'before-check') return;
        injected++;
        await appendFile(file.abs, `editor ${injected}\n`);
      },
    });
    file.abs = path.join(dir, 'Note.md');
    const error = await vault.update(ID, { mode: 'append', text: 'server line\n' }).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    totals.injected += injected;
    tally(vault);

    expect(error?.message).toMatch(/kept changing on disk/);
    expect(notPlain(error?.message ?? '')).toBeUndefined();
    const { body } = partsOf(await readFile(file.abs, 'utf8'));
    expect(body).toBe(`first line\n${Array.from({ length: injected }, (_, i) => `editor ${i + 1}\n`).join('')}`);
    expect(injected).toBeGreaterThan(1);
    expect(injected).toBeLessThanOrEqual(10);
    await noTempFiles(dir);
  });
});
