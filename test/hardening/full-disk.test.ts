import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * A full disk (ENOSPC) while a temporary file is written or flushed: every
 * writer removes its temporary file before the error goes on, so that none
 * stays in `.dexi/cache/tmp/` until the next start. The failure is made by
 * wrapping the handles that `open` returns for temporary files; everything
 * else is the real file system.
 */

const failing = { write: false, sync: false };

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const full = (): never => {
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });
  };
  const open: typeof real.open = async (...args) => {
    const handle = await real.open(...args);
    if (path.basename(String(args[0])).startsWith('.dexi-tmp-')) {
      const { writeFile, write, sync } = handle;
      handle.writeFile = async (...rest: Parameters<typeof writeFile>) => {
        await writeFile.apply(handle, [String(rest[0]).slice(0, 3)]);
        if (failing.write) full();
        return writeFile.apply(handle, rest);
      };
      handle.write = (async (...rest: Parameters<typeof write>) => {
        if (failing.write) full();
        return write.apply(handle, rest);
      }) as typeof write;
      handle.sync = async () => {
        if (failing.sync) full();
        return sync.apply(handle);
      };
    }
    return handle;
  };
  return { ...real, open, default: { ...real, open } };
});

const { createFileExclusive, openRegularFile, replaceFileAtomic, replaceFileAtomicStreaming, replaceGuarded } = await import('../../src/storage/atomic.js');
const { ActivityLog } = await import('../../src/vault/record/activity.js');
const { ensureTempDir } = await import('../../src/storage/dexi-dir.js');
const { Vault } = await import('../../src/vault/vault.js');
const { removeDir, TestClock, writeVault } = await import('../support/helpers.js');

const dirs: string[] = [];
afterEach(async () => {
  failing.write = false;
  failing.sync = false;
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

async function temps(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      if (entry.isDirectory()) await walk(path.join(at, entry.name));
      else if (entry.name.startsWith('.dexi-tmp-')) found.push(path.relative(dir, path.join(at, entry.name)));
    }
  };
  await walk(dir);
  return found;
}

const ID = '6d1c7a52-0d7e-4f43-9a55-1f0b8e2a7c11';

describe('a full disk leaves no temporary file behind', () => {
  it.each(['write', 'sync'] as const)('each atomic writer removes its temporary file when the %s fails', async (step) => {
    const dir = await writeVault({ 'Note.md': 'old\n' });
    dirs.push(dir);
    const tmp = await ensureTempDir(dir);
    const note = path.join(dir, 'Note.md');
    failing[step] = true;
    const attempts: Promise<unknown>[] = [
      replaceFileAtomic(note, 'new\n'),
      createFileExclusive(path.join(dir, 'New.md'), 'new\n', tmp),
      replaceFileAtomicStreaming(path.join(dir, 'Streamed.md'), async (write) => {
        await write(Buffer.from('streamed\n'));
        return true;
      }),
    ];
    const opened = await openRegularFile(note, 1 << 20);
    if (opened.kind !== 'file') throw new Error('not opened');
    attempts.push(replaceGuarded(note, 'new\n', opened.file, { maxBytes: 1 << 20, tempDir: tmp }).finally(() => opened.file.handle.close()));
    const outcomes = await Promise.allSettled(attempts);
    expect(outcomes.map((outcome) => (outcome.status === 'rejected' ? (outcome.reason as NodeJS.ErrnoException).code : 'written'))).toEqual(['ENOSPC', 'ENOSPC', 'ENOSPC', 'ENOSPC']);
    expect(await temps(dir)).toEqual([]);
    expect(await readFile(note, 'utf8')).toBe('old\n');
  });

  it('the history writer and a refused tool write leave nothing in .dexi/cache/tmp', async () => {
    const dir = await writeVault({ 'Note.md': `---\nid: ${ID}\n---\nold\n` });
    dirs.push(dir);
    const log = new ActivityLog(dir, new TestClock(), () => undefined);
    failing.write = true;
    await expect(log.keep(Buffer.from('a version\n'))).rejects.toThrow(/could not be kept in \.dexi\/history \(ENOSPC\)/);
    failing.write = false;

    const vault = await Vault.open({ root: dir, clock: new TestClock(), log: () => undefined, git: false });
    await vault.load();
    failing.sync = true;
    const journal = log.journal({ tool: 'update_note', by: 'test' });
    await expect(vault.update(ID, { mode: 'append', text: 'more' }, journal)).rejects.toThrow(/ENOSPC/);
    await expect(vault.create({ title: 'Full', text: 'x' })).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(await temps(dir)).toEqual([]);
    expect(await readFile(path.join(dir, 'Note.md'), 'utf8')).toBe(`---\nid: ${ID}\n---\nold\n`);
    await vault.close();
  });
});
