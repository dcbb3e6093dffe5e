import { spawnSync } from 'node:child_process';
import { chmod, chown, lstat, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outsideCacheDir } from '../../src/storage/dexi-dir.js';
import { copySampleVault, removeDir, tempDir } from '../support/helpers.js';
import { startStdioServer } from '../support/stdio-server.js';
import { CLI, eventually, ROOT, run, STACK_FRAME, type Run } from '../support/process.js';

/**
 * A vault folder the server cannot write (a colleague's folder, a mounted
 * snapshot) is served read-only with its caches in the person's cache
 * directory, and no command ends in a stack trace on it, on an unreadable
 * vault, a missing one or a file. Root writes any folder whatever its mode,
 * so as root the built CLI runs as `nobody` through setpriv; as any other
 * user it runs as that user. The read-only mount (EROFS) needs root.
 */

const NOBODY = 65534;

type Drop = { launcher: string[]; uid: number; gid: number } | { reason: string };

function findDrop(): Drop {
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  if (uid === undefined || gid === undefined) return { reason: 'this platform has no user ids to run the CLI as another user' };
  if (uid !== 0) return { launcher: [], uid, gid };
  if (spawnSync('setpriv', ['--version']).status === 0) return { launcher: ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'], uid: NOBODY, gid: NOBODY };
  return { reason: 'the tests run as root and setpriv (util-linux) is missing, so nothing can run as a user that a folder mode stops' };
}

const drop = findDrop();
const isRoot = process.getuid?.() === 0;
const canMount = isRoot && spawnSync('unshare', ['-m', 'true']).status === 0;
if ('reason' in drop) console.warn(`Skipping the unwritable-folder tests: ${drop.reason}.`);

/** Every file and folder under `dir` with its size, time and mode: what "not touched" compares. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const rel of ['.', ...(await readdir(dir, { recursive: true }))]) {
    const info = await lstat(path.join(dir, rel));
    result[rel] = `${info.size}:${info.mtimeMs}:${(info.mode & 0o7777).toString(8)}`;
  }
  return result;
}

/** chmod every folder and file under `dir` (folders `dirMode`, files `fileMode`), deepest first. */
async function chmodTree(dir: string, dirMode: number, fileMode: number): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  for (const entry of entries.reverse()) await chmod(path.join(entry.parentPath, entry.name), entry.isDirectory() ? dirMode : fileMode);
  await chmod(dir, dirMode);
}

/** The lines a command wrote on stderr, progress bars left out. */
function lines(result: Run): string[] {
  return result.stderr.split('\n').filter((line) => line.startsWith('dexi-vault: '));
}

function expectPlain(result: Run, what: string): void {
  expect(result.stderr, what).not.toMatch(STACK_FRAME);
  expect(result.stderr, what).not.toMatch(/Error:|EACCES|EROFS|ENOENT|ENOTDIR/);
  expect(result.code, `${what}: ${result.stderr}`).not.toBeNull();
}

describe.skipIf('reason' in drop)('a vault folder the server cannot write', () => {
  const as = drop as Exclude<Drop, { reason: string }>;
  let base: string;
  let vault: string;
  let cacheHome: string;
  let env: NodeJS.ProcessEnv;
  let before: Record<string, string>;

  const runAs = (args: readonly string[], timeoutMs = 60_000): Promise<Run> => {
    const [program, ...rest] = as.launcher;
    return program === undefined ? run(process.execPath, [CLI, ...args], { env, timeoutMs }) : run(program, [...rest, process.execPath, CLI, ...args], { env, timeoutMs });
  };

  beforeAll(async () => {
    base = await tempDir();
    await chmod(base, 0o755);
    vault = await copySampleVault();
    const home = path.join(base, 'home');
    await mkdir(home);
    if (isRoot) await chown(home, as.uid, as.gid);
    cacheHome = path.join(home, 'cache');
    env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CACHE_HOME: cacheHome };
    // The copy's folder is only the test's: nobody reaches it through a 0755 parent.
    await chmod(path.dirname(vault), 0o755);
    await chmodTree(vault, 0o555, 0o444);
    before = await snapshot(vault);
  });

  afterAll(async () => {
    await chmodTree(vault, 0o755, 0o644).catch(() => undefined);
    await removeDir(vault);
    await chmodTree(base, 0o755, 0o644).catch(() => undefined);
    await removeDir(base);
  });

  it('serves it read-only: no write tool, one log line naming the cache folder, no feed pulled, the cache outside, the vault untouched', async () => {
    const server = await startStdioServer({
      args: [CLI, 'serve', '--vault', vault, '--model', 'none', '--pull-feeds', '60'],
      cwd: ROOT,
      clientName: 'read-only-vault-test',
      launcher: as.launcher,
      env: env as Record<string, string>,
    });
    const cache = outsideCacheDir(cacheHome, vault);
    try {
      const names = (await server.client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('search_notes');
      expect(names).toContain('get_note');
      for (const write of ['create_note', 'update_note', 'edit_note', 'move_note', 'set_properties', 'complete_task', 'delete_note', 'grade_review']) expect(names).not.toContain(write);
      expect(server.client.getInstructions()).toContain('It is read-only.');
      const refused = await server.call('create_note', { title: 'New', content: 'x' });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('lacks the notes:write scope');
      await server.stderrMatching(/Read \d+ notes/);
      const found = await server.call('search_notes', { query: 'the' });
      expect(found.isError, JSON.stringify(found.content)).toBeFalsy();
      await eventually(async () => ((await readdir(cache)).includes('index.bin') ? true : undefined), 30_000, 'index.bin in the outside cache');
    } finally {
      await server.client.close();
    }
    const notice = `dexi-vault: The vault folder ${vault} cannot be written (permission denied), so it is served read-only (no tool can change a note), with its caches in ${cache}; nothing in the vault is changed.`;
    expect(server.stderr().split('\n').filter((line) => line.includes('cannot be written ('))).toEqual([notice]);
    expect(server.stderr()).toContain('dexi-vault: The feeds are not pulled: their articles would be notes in a vault that cannot be written.');
    expect(server.stderr()).not.toMatch(STACK_FRAME);
    expect(await snapshot(vault)).toEqual(before);
  }, 90_000);

  it('status says it is read-only and where its caches are, and writes nothing there or in the vault', async () => {
    const cache = outsideCacheDir(cacheHome, vault);
    const caches = await snapshot(path.dirname(cache));
    const result = await runAs(['status', '--vault', vault]);
    expectPlain(result, 'status');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Read-only    yes: the folder cannot be written (permission denied), so it is served read-only, its caches in ${cache}`);
    expect(result.stdout).toContain('Notes        ');
    expect(await snapshot(vault)).toEqual(before);
    expect(await snapshot(path.dirname(cache))).toEqual(caches);
  });

  it('ends every command on it, on an unreadable vault, a missing one and a file in one plain sentence', async () => {
    const bookmarks = path.join(base, 'bookmarks.html');
    await writeFile(bookmarks, '<DL><DT><A HREF="http://127.0.0.1:9/x">x</A></DL>\n');
    const mbox = path.join(base, 'mail.mbox');
    await writeFile(mbox, 'From a@example.com Mon Jan  1 00:00:00 2024\nFrom: a@example.com\nSubject: s\n\nbody\n');
    await chmod(bookmarks, 0o644);
    await chmod(mbox, 0o644);
    const locked = path.join(base, 'locked');
    await mkdir(locked);
    await writeFile(path.join(locked, 'secret.md'), '# Secret\n');
    await chmod(locked, 0o000);
    const file = path.join(base, 'notes.txt');
    await writeFile(file, 'not a folder\n');
    const missing = path.join(base, 'no such vault');
    const feed = 'http://127.0.0.1:9/feed.xml';
    const commands: { args: string[]; writes: boolean }[] = [
      { args: ['serve', '--model', 'none'], writes: false },
      { args: ['index', '--model', 'none'], writes: false },
      { args: ['token', 'create', '--name', 'laptop'], writes: true },
      { args: ['token', 'list'], writes: false },
      { args: ['token', 'revoke', 'laptop'], writes: true },
      { args: ['activity'], writes: false },
      { args: ['status'], writes: false },
      { args: ['undo', '--last'], writes: true },
      { args: ['import', 'bookmarks', bookmarks], writes: true },
      { args: ['import', 'email', mbox], writes: true },
      { args: ['feeds', 'add', feed], writes: true },
      { args: ['feeds', 'list'], writes: false },
      { args: ['feeds', 'pull'], writes: true },
      { args: ['feeds', 'remove', feed], writes: true },
    ];
    const cases: { dir: string; expect: (command: (typeof commands)[number]) => { code: number; line?: string } }[] = [
      { dir: vault, expect: (command) => (command.writes ? { code: 1, line: `dexi-vault: The vault folder ${vault} cannot be written (permission denied), so ` } : { code: 0 }) },
      { dir: locked, expect: () => ({ code: 1, line: `dexi-vault: The vault folder ${locked} cannot be read (permission denied); make it readable for the user running dexi-vault, or give the vault with --vault DIR (or $DEXI_VAULT).` }) },
      { dir: missing, expect: () => ({ code: 1, line: `dexi-vault: The vault folder ${missing} does not exist; give the vault with --vault DIR (or $DEXI_VAULT).` }) },
      { dir: file, expect: () => ({ code: 1, line: `dexi-vault: The vault ${file} is not a folder; give the vault with --vault DIR (or $DEXI_VAULT).` }) },
    ];
    const jobs = cases.flatMap((item) => commands.map((command) => ({ item, command })));
    // Three at a time: each is a Node start, and the machine is shared.
    const queue = [...jobs];
    const worker = async (): Promise<void> => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        const args = [...job.command.args, '--vault', job.item.dir];
        const what = args.join(' ');
        const result = await runAs(args);
        const wanted = job.item.expect(job.command);
        expectPlain(result, what);
        expect(result.code, `${what}: ${result.stderr}`).toBe(wanted.code);
        if (wanted.line !== undefined) {
          expect(lines(result), what).toHaveLength(1);
          expect(lines(result)[0], what).toContain(wanted.line);
        }
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    for (const args of [['--help'], ['--version']]) {
      const result = await runAs(args);
      expect(result.code).toBe(0);
      expect(result.stdout).not.toBe('');
      expect(result.stderr).toBe('');
    }
    await chmod(locked, 0o755);
    expect(await readdir(locked)).toEqual(['secret.md']);
    expect(await readdir(base)).not.toContain('no such vault');
    expect(await snapshot(vault)).toEqual(before);
  }, 240_000);
});

describe.runIf(canMount)('a vault on a read-only mount (as root, in a mount namespace)', () => {
  it('indexes it with the caches outside, starting from the vault\'s own, and refuses a write command, saying "read-only file system"', async () => {
    const vault = await copySampleVault();
    const cacheHome = await tempDir();
    try {
      // Served while it could be written: the snapshot then carries .dexi/cache/index.bin.
      const writable = await run(process.execPath, [CLI, 'index', '--vault', vault, '--model', 'none'], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cacheHome }, timeoutMs: 60_000 });
      expect(writable.code, writable.stderr).toBe(0);
      const before = await snapshot(vault);
      // The bind mount lives only in the namespace unshare makes for this one command.
      const script = 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" "$1" && shift && exec "$@"';
      const inNamespace = (args: readonly string[]): Promise<Run> =>
        run('unshare', ['-m', 'sh', '-c', script, 'sh', vault, process.execPath, CLI, ...args, '--vault', vault], {
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cacheHome, XDG_CACHE_HOME: cacheHome },
          timeoutMs: 60_000,
        });
      const indexed = await inNamespace(['index', '--model', 'none']);
      expectPlain(indexed, 'index');
      expect(indexed.code, indexed.stderr).toBe(0);
      const cache = outsideCacheDir(cacheHome, vault);
      expect(lines(indexed)).toContain(`dexi-vault: The vault folder ${vault} cannot be written (read-only file system), so its indexes are kept in ${cache}; nothing in the vault is changed.`);
      expect(await readdir(cache)).toContain('index.bin');
      expect(indexed.stderr).toMatch(/Read \d+ notes in \d+ folders of .* \(from the index cache\)\./);
      // The cache holds note text: only its owner may read it.
      expect((await lstat(cache)).mode & 0o777).toBe(0o700);
      expect((await lstat(path.dirname(cache))).mode & 0o777).toBe(0o700);
      const token = await inNamespace(['token', 'create', '--name', 'laptop']);
      expectPlain(token, 'token create');
      expect(token.code).toBe(1);
      expect(lines(token)).toEqual([`dexi-vault: The vault folder ${vault} cannot be written (read-only file system), so no token can be made for it; nothing was changed. Reading it (serve, index, activity) works.`]);
      expect(await snapshot(vault)).toEqual(before);
    } finally {
      await removeDir(vault);
      await removeDir(cacheHome);
    }
  }, 120_000);
});
