import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GIT_HISTORY_CACHE_FILE, gitBlobId, readGitHistory, type GitFileDates, type GitHistory } from '../../../src/vault/git/git-history.js';
import { tempDir } from '../../support/helpers.js';

describe('gitBlobId', () => {
  it.each([
    ['', 'sha1', 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391'],
    ['hello\n', 'sha1', 'ce013625030ba8dba906f756967f9e9ca394464a'],
    ['', 'sha256', '473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813'],
  ] as const)('%j (%s) is %s', (content, format, id) => {
    expect(gitBlobId(content, format)).toBe(id);
  });

  it('counts bytes, not characters, and takes bytes as they are', () => {
    const text = '# ノート\n';
    expect(gitBlobId(new TextEncoder().encode(text))).toBe(gitBlobId(text));
    expect(gitBlobId(text)).toBe(execFileSync('git', ['hash-object', '--stdin'], { input: text, encoding: 'utf8' }).trim());
  });
});

// ---------------------------------------------------------------------------
// readGitHistory on real repositories

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function newDir(): Promise<string> {
  const dir = await tempDir('dexi-git-');
  made.push(dir);
  return dir;
}

/** Run git as a person would, untouched by this machine's own git settings, with a past date for commits. */
function git(dir: string, args: string[], date?: string): string {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  if (date !== undefined) {
    env.GIT_AUTHOR_DATE = date;
    env.GIT_COMMITTER_DATE = date;
  }
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', '-c', 'core.autocrlf=false', ...args], { cwd: dir, env, encoding: 'utf8' });
}

function commitAll(dir: string, date: string, message = date): void {
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '--allow-empty', '-m', message], date);
}

async function write(dir: string, file: string, content: string): Promise<void> {
  await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
  await writeFile(path.join(dir, file), content);
}

const ms = (iso: string): number => Date.parse(iso);

/** A note long enough that a one-line edit keeps git's rename similarity well over 50%. */
const LONG_NOTE = Array.from({ length: 20 }, (_, i) => `Line ${i + 1} of a note that is long enough to stay similar.`).join('\n') + '\n';

/** A repository with the server's cache folder, ignored by its own `.gitignore`, as the server makes it. */
async function newRepo(): Promise<{ repo: string; cacheDir: string }> {
  const repo = await newDir();
  git(repo, ['init', '-q']);
  const cacheDir = path.join(repo, '.dexi', 'cache');
  await write(repo, '.dexi/cache/.gitignore', '*\n');
  return { repo, cacheDir };
}

async function read(vault: string, cacheDir: string, extra: { gitBinary?: string; logs?: string[]; signal?: AbortSignal } = {}): Promise<GitHistory | undefined> {
  const logs = extra.logs ?? [];
  const history = await readGitHistory(vault, { cacheDir, log: (line) => logs.push(line), ...(extra.gitBinary ? { gitBinary: extra.gitBinary } : {}), ...(extra.signal ? { signal: extra.signal } : {}) });
  // Only a caller that names the HEAD it knows is told 'unchanged'.
  if (history === 'unchanged') throw new Error('unchanged without a known HEAD');
  return history;
}

function dates(history: GitHistory | undefined, file: string): { created: string; updated: string } | undefined {
  const entry: GitFileDates | undefined = history?.files.get(file);
  return entry && { created: new Date(entry.firstAddedMs).toISOString(), updated: new Date(entry.lastCommitMs).toISOString() };
}

/** Every file under `.git` with its size and modification time, to show that reading changed nothing there. */
async function snapshotGitDir(repo: string): Promise<string[]> {
  const entries: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else {
        const info = await stat(full);
        entries.push(`${path.relative(repo, full)} ${info.size} ${info.mtimeMs}`);
      }
    }
  };
  await walk(path.join(repo, '.git'));
  return entries.sort();
}

describe('readGitHistory', () => {
  it('dates a note by its first add and its last commit, with its HEAD blob', async () => {
    const { repo, cacheDir } = await newRepo();
    // The root commit's files count as added whatever the repository's settings say.
    git(repo, ['config', 'log.showRoot', 'false']);
    await write(repo, 'a.md', 'one\n');
    commitAll(repo, '2021-01-01T10:00:00Z');
    await write(repo, 'a.md', 'two\n');
    await write(repo, 'b.md', 'b\n');
    commitAll(repo, '2021-02-01T10:00:00Z');
    await write(repo, 'b.md', 'b2\n');
    commitAll(repo, '2021-03-01T10:00:00Z');
    commitAll(repo, '2021-04-01T10:00:00Z', 'empty');

    const history = await read(repo, cacheDir);
    expect(history?.head).toBe(git(repo, ['rev-parse', 'HEAD']).trim());
    expect(history?.objectFormat).toBe('sha1');
    expect(dates(history, 'a.md')).toEqual({ created: '2021-01-01T10:00:00.000Z', updated: '2021-02-01T10:00:00.000Z' });
    expect(dates(history, 'b.md')).toEqual({ created: '2021-02-01T10:00:00.000Z', updated: '2021-03-01T10:00:00.000Z' });
    expect(history?.files.get('a.md')?.blob).toBe(gitBlobId('two\n'));
    expect([...(history?.files.keys() ?? [])].sort()).toEqual(['a.md', 'b.md']);
  });

  it('follows a rename with git mv, and one with a small edit in the same commit', async () => {
    const { repo, cacheDir } = await newRepo();
    // Renames are paired whatever the repository's settings say.
    git(repo, ['config', 'diff.renames', 'false']);
    await write(repo, 'first.md', LONG_NOTE);
    await write(repo, 'second.md', LONG_NOTE.replace('Line 1 ', 'Line one '));
    commitAll(repo, '2020-05-01T00:00:00Z');
    await mkdir(path.join(repo, 'moved'));
    git(repo, ['mv', 'first.md', 'moved/renamed.md']);
    commitAll(repo, '2020-06-01T00:00:00Z');
    git(repo, ['mv', 'second.md', 'second renamed.md']);
    await write(repo, 'second renamed.md', LONG_NOTE.replace('Line 1 ', 'Line one ').replace('Line 20 ', 'Line twenty '));
    commitAll(repo, '2020-07-01T00:00:00Z');

    const history = await read(repo, cacheDir);
    expect(dates(history, 'moved/renamed.md')).toEqual({ created: '2020-05-01T00:00:00.000Z', updated: '2020-06-01T00:00:00.000Z' });
    expect(dates(history, 'second renamed.md')).toEqual({ created: '2020-05-01T00:00:00.000Z', updated: '2020-07-01T00:00:00.000Z' });
    expect(history?.files.has('first.md')).toBe(false);
  });

  it('still dates every note in a clone that lacks the objects renames need, following no renames', async () => {
    const { repo, cacheDir } = await newRepo();
    await write(repo, 'old.md', LONG_NOTE);
    commitAll(repo, '2020-05-01T00:00:00Z');
    git(repo, ['mv', 'old.md', 'new.md']);
    await write(repo, 'new.md', LONG_NOTE.replace('Line 1 ', 'Line one '));
    commitAll(repo, '2020-06-01T00:00:00Z');
    // Pairing an edited rename reads both versions; without the old one's blob (a partial clone) git log -M fails.
    const oldBlob = git(repo, ['rev-parse', 'HEAD~1:old.md']).trim();
    await rm(path.join(repo, '.git', 'objects', oldBlob.slice(0, 2), oldBlob.slice(2)));
    const logs: string[] = [];
    const history = await read(repo, cacheDir, { logs });
    expect(dates(history, 'new.md')).toEqual({ created: '2020-06-01T00:00:00.000Z', updated: '2020-06-01T00:00:00.000Z' });
    expect(logs.some((line) => line.startsWith('git: renames not followed'))).toBe(true);
  });

  it('keeps the first add of a note deleted and added again; a copy is a new note', async () => {
    const { repo, cacheDir } = await newRepo();
    await write(repo, 'a.md', LONG_NOTE);
    commitAll(repo, '2019-01-01T00:00:00Z');
    await rm(path.join(repo, 'a.md'));
    commitAll(repo, '2019-02-01T00:00:00Z');
    await write(repo, 'a.md', LONG_NOTE);
    await write(repo, 'copy.md', LONG_NOTE);
    commitAll(repo, '2019-03-01T00:00:00Z');

    const history = await read(repo, cacheDir);
    expect(dates(history, 'a.md')).toEqual({ created: '2019-01-01T00:00:00.000Z', updated: '2019-03-01T00:00:00.000Z' });
    expect(dates(history, 'copy.md')).toEqual({ created: '2019-03-01T00:00:00.000Z', updated: '2019-03-01T00:00:00.000Z' });
  });

  it('dates notes made on a side branch by their own commits, and a conflict resolution by its merge', async () => {
    const { repo, cacheDir } = await newRepo();
    await write(repo, 'shared.md', 'base\n');
    commitAll(repo, '2022-01-01T00:00:00Z');
    git(repo, ['checkout', '-q', '-b', 'laptop']);
    await write(repo, 'laptop.md', 'from the laptop\n');
    await write(repo, 'shared.md', 'laptop\n');
    commitAll(repo, '2022-01-02T00:00:00Z');
    git(repo, ['checkout', '-q', 'main']);
    await write(repo, 'shared.md', 'desktop\n');
    commitAll(repo, '2022-01-03T00:00:00Z');
    expect(() => git(repo, ['merge', '-q', 'laptop', '-m', 'merge'], '2022-01-04T00:00:00Z')).toThrow(); // the conflict in shared.md
    await write(repo, 'shared.md', 'both\n');
    commitAll(repo, '2022-01-04T00:00:00Z');

    const history = await read(repo, cacheDir);
    expect(dates(history, 'laptop.md')).toEqual({ created: '2022-01-02T00:00:00.000Z', updated: '2022-01-02T00:00:00.000Z' });
    expect(dates(history, 'shared.md')).toEqual({ created: '2022-01-01T00:00:00.000Z', updated: '2022-01-04T00:00:00.000Z' });
  });

  it('gives paths relative to a vault in a folder of the repository, and only the files under it', async () => {
    const { repo } = await newRepo();
    await write(repo, 'README.md', 'outside\n');
    await write(repo, 'drafts/plan.md', LONG_NOTE);
    commitAll(repo, '2018-01-01T00:00:00Z');
    await write(repo, 'vault/inside.md', 'inside\n');
    await write(repo, 'vault/sub/deep.md', 'deep\n');
    commitAll(repo, '2018-02-01T00:00:00Z');
    git(repo, ['mv', 'drafts/plan.md', 'vault/plan.md']);
    commitAll(repo, '2018-03-01T00:00:00Z');
    // A conflict resolved in a merge: git's combined diff names merge paths from the repository root even under --relative.
    git(repo, ['checkout', '-q', '-b', 'side']);
    await write(repo, 'vault/inside.md', 'side\n');
    commitAll(repo, '2018-04-01T00:00:00Z');
    git(repo, ['checkout', '-q', 'main']);
    await write(repo, 'vault/inside.md', 'main\n');
    commitAll(repo, '2018-05-01T00:00:00Z');
    expect(() => git(repo, ['merge', '-q', 'side', '-m', 'merge'], '2018-06-01T00:00:00Z')).toThrow();
    await write(repo, 'vault/inside.md', 'merged\n');
    commitAll(repo, '2018-06-01T00:00:00Z');
    // Paths come from the repository root whatever the settings say; the vault's folder is removed from them afterwards.
    git(repo, ['config', 'diff.relative', 'true']);
    git(repo, ['config', 'color.ui', 'always']);
    const vault = path.join(repo, 'vault');
    const cacheDir = path.join(vault, '.dexi', 'cache');
    await write(vault, '.dexi/cache/.gitignore', '*\n');

    const history = await read(vault, cacheDir);
    expect([...(history?.files.keys() ?? [])].sort()).toEqual(['inside.md', 'plan.md', 'sub/deep.md']);
    expect(dates(history, 'inside.md')).toEqual({ created: '2018-02-01T00:00:00.000Z', updated: '2018-06-01T00:00:00.000Z' });
    expect(dates(history, 'sub/deep.md')).toEqual({ created: '2018-02-01T00:00:00.000Z', updated: '2018-02-01T00:00:00.000Z' });
    expect(dates(history, 'plan.md')).toEqual({ created: '2018-01-01T00:00:00.000Z', updated: '2018-03-01T00:00:00.000Z' });
    expect(git(repo, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
  });

  it('reads file names with spaces, quotes, Japanese and accents exactly, as NFC', async () => {
    const { repo, cacheDir } = await newRepo();
    const names = ['会議 メモ 2024.md', 'Ideas "quoted" & more.md', 'fold er/résumé.md', 'cafe\u0301 decomposed.md'];
    for (const name of names) await write(repo, name, `${name}\n`);
    commitAll(repo, '2023-03-03T03:03:03Z');

    const history = await read(repo, cacheDir);
    expect([...(history?.files.keys() ?? [])].sort()).toEqual(names.map((name) => name.normalize('NFC')).sort());
    expect(history?.files.get('café decomposed.md')?.blob).toBe(gitBlobId('cafe\u0301 decomposed.md\n'));
    expect(dates(history, '会議 メモ 2024.md')?.created).toBe('2023-03-03T03:03:03.000Z');
  });

  it('is undefined outside a repository, in one without commits, and without git, and never throws', async () => {
    const plain = await newDir();
    await write(plain, 'a.md', 'a\n');
    expect(await read(plain, path.join(plain, '.dexi', 'cache'))).toBeUndefined();

    const { repo: empty, cacheDir } = await newRepo();
    await write(empty, 'a.md', 'a\n');
    expect(await read(empty, cacheDir)).toBeUndefined();

    const { repo } = await newRepo();
    await write(repo, 'a.md', 'a\n');
    commitAll(repo, '2020-01-01T00:00:00Z');
    const logs: string[] = [];
    expect(await read(repo, cacheDir, { gitBinary: '/nonexistent/git', logs })).toBeUndefined();
    expect(logs.join('\n')).toMatch(/git is not installed/);
  });

  it('reuses the cache while HEAD stays, and reads the history again when HEAD moves', async () => {
    const { repo, cacheDir } = await newRepo();
    await write(repo, 'a.md', 'a\n');
    commitAll(repo, '2020-01-01T00:00:00Z');
    const logs: string[] = [];
    const first = await read(repo, cacheDir, { logs });
    expect(logs.filter((line) => line.startsWith('Read the git history'))).toHaveLength(1);
    const cacheFile = path.join(cacheDir, GIT_HISTORY_CACHE_FILE);
    const cache = JSON.parse(await readFile(cacheFile, 'utf8')) as { head: string; files: Array<[string, number, number, string]> };
    expect(cache.head).toBe(first?.head);

    // A value no pass over the history could give: seeing it back proves the cache was used and git log was not run.
    const marker = ms('1999-09-09T09:09:09Z');
    cache.files = cache.files.map(([file, , lastCommitMs, id]) => [file, marker, lastCommitMs, id]);
    await writeFile(cacheFile, JSON.stringify(cache));
    const again = await read(repo, cacheDir, { logs });
    expect(again?.files.get('a.md')?.firstAddedMs).toBe(marker);
    expect(logs.filter((line) => line.startsWith('Read the git history'))).toHaveLength(1);

    await write(repo, 'b.md', 'b\n');
    commitAll(repo, '2020-02-01T00:00:00Z');
    const moved = await read(repo, cacheDir, { logs });
    expect(moved?.head).not.toBe(first?.head);
    expect(dates(moved, 'a.md')?.created).toBe('2020-01-01T00:00:00.000Z');
    expect(dates(moved, 'b.md')?.created).toBe('2020-02-01T00:00:00.000Z');
    expect((JSON.parse(await readFile(cacheFile, 'utf8')) as { head: string }).head).toBe(moved?.head);

    // A caller that already has this HEAD's dates is told so, without the cache being read.
    await writeFile(cacheFile, 'not json');
    expect(await readGitHistory(repo, { cacheDir, log: (line) => logs.push(line), knownHead: moved?.head })).toBe('unchanged');
    expect(logs.filter((line) => line.includes('damaged'))).toEqual([]);
  });

  it('rebuilds a damaged cache', async () => {
    const { repo, cacheDir } = await newRepo();
    await write(repo, 'a.md', 'a\n');
    commitAll(repo, '2020-01-01T00:00:00Z');
    const head = git(repo, ['rev-parse', 'HEAD']).trim();
    const cacheFile = path.join(cacheDir, GIT_HISTORY_CACHE_FILE);
    for (const damage of ['{"version": 1, "head": "', JSON.stringify({ version: 1, head, prefix: '', objectFormat: 'sha1', files: [['a.md', 'yesterday', 0, 'x']] })]) {
      await writeFile(cacheFile, damage);
      const logs: string[] = [];
      const history = await read(repo, cacheDir, { logs });
      expect(dates(history, 'a.md')?.created).toBe('2020-01-01T00:00:00.000Z');
      expect(logs.join('\n')).toMatch(/damaged/);
      expect((JSON.parse(await readFile(cacheFile, 'utf8')) as { head: string }).head).toBe(head);
    }
  });

  it('writes nothing into the work tree or into .git, and starts none of the programs the repository names', async () => {
    const { repo, cacheDir } = await newRepo();
    await write(repo, 'a.md', LONG_NOTE);
    commitAll(repo, '2020-01-01T00:00:00Z');
    git(repo, ['mv', 'a.md', 'b.md']);
    commitAll(repo, '2020-02-01T00:00:00Z');
    // A program, outside the repository, that leaves a mark whenever git runs it.
    const outside = await newDir();
    const marker = path.join(outside, 'ran');
    const program = path.join(outside, 'program.sh');
    await writeFile(program, `#!/bin/sh\necho "$*" >> '${marker}'\nexit 1\n`, { mode: 0o755 });
    for (const setting of ['core.fsmonitor', 'core.pager', 'gpg.program', 'diff.external', 'diff.md.textconv']) git(repo, ['config', setting, program]);
    git(repo, ['config', 'log.showSignature', 'true']);
    await write(repo, '.git/info/attributes', '*.md diff=md\n');
    const before = await snapshotGitDir(repo);

    expect(dates(await read(repo, cacheDir), 'b.md')?.created).toBe('2020-01-01T00:00:00.000Z');
    expect(await read(repo, cacheDir)).toBeDefined();

    expect(await snapshotGitDir(repo)).toEqual(before);
    await expect(stat(marker)).rejects.toThrow(/ENOENT/);
    expect((await readdir(cacheDir)).sort()).toEqual(['.gitignore', GIT_HISTORY_CACHE_FILE]);
    // The same settings do run the program for `git status`, which refreshes the index: the reason it is never used.
    git(repo, ['status', '--porcelain']);
    expect((await readFile(marker, 'utf8')).length).toBeGreaterThan(0);
    for (const setting of ['core.fsmonitor', 'core.pager', 'gpg.program', 'diff.external', 'diff.md.textconv', 'log.showSignature']) git(repo, ['config', '--unset', setting]);
    expect(git(repo, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
  });

  it('uses sha256 blob ids in a sha256 repository', async () => {
    const repo = await newDir();
    git(repo, ['init', '-q', '--object-format=sha256']);
    await write(repo, 'a.md', 'a\n');
    commitAll(repo, '2020-01-01T00:00:00Z');
    const history = await read(repo, path.join(repo, '.dexi', 'cache'));
    expect(history?.objectFormat).toBe('sha256');
    expect(history?.files.get('a.md')?.blob).toBe(gitBlobId('a\n', 'sha256'));
  });

  it('stops when aborted', async () => {
    const { repo, cacheDir } = await newRepo();
    await write(repo, 'a.md', 'a\n');
    commitAll(repo, '2020-01-01T00:00:00Z');
    const before = new AbortController();
    before.abort();
    await expect(read(repo, cacheDir, { signal: before.signal })).rejects.toThrow(/abort/i);
    // Aborted while git runs: git is stopped, and no cache is left half-made.
    const during = new AbortController();
    const reading = read(repo, cacheDir, { signal: during.signal });
    during.abort();
    await expect(reading).rejects.toThrow(/abort/i);
    await expect(readdir(cacheDir)).resolves.toEqual(['.gitignore']);
  });
});
