import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheFile, loadSnapshot } from '../../src/index/cache.js';
import { cacheDir, vectorsDir } from '../../src/storage/dexi-dir.js';
import { tableRecords } from '../../src/vault/record-table.js';
import { copySampleVault, removeDir, tempDir, writeVault } from '../support/helpers.js';
import { gitStatus, initRepo } from '../support/git.js';
import { countNotes, runCli, STACK_FRAME } from '../support/process.js';

/** The built CLI's failure modes and the index command, as a shell sees them. */

const cleanup: string[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((dir) => removeDir(dir)));
});

/** An environment without DEXI_VAULT, so that only the flags decide. */
function env(): NodeJS.ProcessEnv {
  const copy = { ...process.env };
  delete copy.DEXI_VAULT;
  return copy;
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

describe('dexi-vault command line', () => {
  it('refuses a vault folder that does not exist: one plain line naming it, non-zero exit', async () => {
    const parent = await tempDir();
    cleanup.push(parent);
    const missing = path.join(parent, 'no such vault');
    for (const command of ['serve', 'index']) {
      const result = await runCli([command, '--vault', missing], { env: env() });
      expect(result.code, command).not.toBe(0);
      expect(result.code, command).not.toBeNull();
      expect(result.stdout, command).toBe('');
      expect(lines(result.stderr), command).toHaveLength(1);
      expect(result.stderr, command).toContain(missing);
      expect(result.stderr, command).not.toMatch(STACK_FRAME);
      expect(result.stderr, command).not.toMatch(/Error:|ENOENT/);
    }
  });

  it('rejects an unknown flag with exit 2 and a plain message', async () => {
    const result = await runCli(['serve', '--no-such-flag'], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain("Unknown option '--no-such-flag'");
    expect(result.stderr).toContain('dexi-vault --help');
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(result.stderr).not.toMatch(/ERR_PARSE_ARGS|TypeError|positional argument/);
  });

  it('rejects an unknown command with exit 2', async () => {
    const result = await runCli(['frobnicate'], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown command "frobnicate"');
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('prints usage on stdout for --help and exits 0: the whole usage, or one command\'s part of it', async () => {
    for (const args of [['--help'], ['-h'], ['serve', '--help'], ['help', 'index']]) {
      const result = await runCli(args, { env: env() });
      const whole = args.length === 1;
      const shown = args[0] === 'help' ? 'index' : 'serve';
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stdout, args.join(' ')).toMatch(/^Usage:\n/);
      expect(result.stdout).toContain(`dexi-vault ${shown} [--vault DIR]`);
      // The whole usage holds every command; one command's help, that command alone.
      expect(result.stdout.includes(`dexi-vault ${shown === 'serve' ? 'index' : 'serve'} [--vault DIR]`), args.join(' ')).toBe(whole);
      expect(result.stdout.includes('--note-cap N'), args.join(' ')).toBe(shown === 'serve');
      expect(result.stderr, args.join(' ')).toBe('');
    }
  });

  it('rejects --note-cap abc with exit 2 and a plain message', async () => {
    const result = await runCli(['serve', '--note-cap', 'abc'], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--note-cap takes a whole number of notes (or "none"), not "abc".');
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('index reads the vault, writes the cache with its .gitignore, and exits 0', async () => {
    // A few notes rather than the sample vault: `index` embeds them with the default model, and the
    // sample vault's 44 took 16 s of CPU, past this test's 60 s at a load of 17 on two cores; what is
    // checked (the cache, its .gitignore, a second run from it) does not depend on how many there are.
    const dir = await writeVault({
      'Welcome.md': '# Welcome\n\nA first note about #gardening and tomatoes.\n',
      'Projects/Plan.md': '---\ntags: [work]\n---\n# Plan\n\nSow the basil in March, see [[Welcome]].\n',
      'Journal/2026-11-30.md': 'Walked by the river; the violins of the concert still in my head.\n',
    });
    cleanup.push(dir);
    const notes = await countNotes(dir);
    const result = await runCli(['index', '--vault', dir], { env: env(), timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(0);
    // Log lines and progress go to stderr; stdout stays empty.
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Indexed ${notes} notes`);
    // The embedding's summary gives its rate (src/cli/embedding-progress.ts).
    expect(result.stderr).toMatch(/\d+ embedded now, in [\d.]+ s, [\d.,]+ notes\/s\./);
    expect(result.stderr).not.toMatch(STACK_FRAME);

    const cache = path.join(dir, '.dexi', 'cache');
    expect((await stat(cacheFile(cacheDir(dir)))).isFile()).toBe(true);
    const snapshot = await loadSnapshot(cacheDir(dir), () => undefined);
    expect(snapshot?.records.count).toBe(notes);
    expect(snapshot?.fulltext.size).toBe(notes);
    expect((await readFile(path.join(cache, '.gitignore'), 'utf8')).trim()).toBe('*');

    // A second run uses the cache and still succeeds.
    const again = await runCli(['index', '--vault', dir], { env: env(), timeoutMs: 60_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`Indexed ${notes} notes`);
    // Two runs of the command line that load the model, each given 60 s.
  }, 120_000);

  it('index on a vault that is a git work tree writes nothing git can see', async () => {
    const dir = await copySampleVault();
    cleanup.push(dir);
    initRepo(dir, '2026-01-15T10:00:00Z');
    const result = await runCli(['index', '--vault', dir, '--model', 'none'], { env: env(), timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(gitStatus(dir)).toBe('');
  });

  it('status reads a vault never indexed and an indexed one, as lines and as JSON, and changes no byte of it', async () => {
    const dir = await copySampleVault();
    cleanup.push(dir);
    // A vault with no .dexi at all: status must not make one.
    await rm(path.join(dir, '.dexi'), { recursive: true, force: true });
    const notes = await countNotes(dir);
    const fresh = await treeOf(dir);
    const first = await runCli(['status', '--vault', dir], { env: env() });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain(`Notes        ${notes} notes in `);
    expect(first.stdout).toContain('Text index   not indexed yet; run dexi-vault index');
    expect(first.stdout).toContain('Embeddings   not embedded yet;');
    expect(first.stdout).toContain('Last change  none on record');
    expect(first.stdout).toContain('Read-only    no');
    const firstJson = await runCli(['status', '--vault', dir, '--json'], { env: env() });
    expect(firstJson.code, firstJson.stderr).toBe(0);
    const before = JSON.parse(firstJson.stdout) as Record<string, Record<string, unknown>>;
    expect(before.notes).toBe(notes);
    expect(before.textIndex?.state).toBe('not-indexed');
    expect(before.embeddings?.state).toBe('not-embedded');
    expect(await treeOf(dir)).toEqual(fresh);

    const indexed = await runCli(['index', '--vault', dir, '--model', 'none'], { env: env(), timeoutMs: 60_000 });
    expect(indexed.code, indexed.stderr).toBe(0);
    // What a server would have left: a token, a feed whose last pull failed, one write on record, and vectors of two notes (one only of its opening).
    expect((await runCli(['token', 'create', '--name', 'laptop', '--scopes', 'notes:read', '--vault', dir], { env: env() })).code).toBe(0);
    const feed = { url: 'https://blog.example/feed.xml', name: 'Blog', folder: 'Feeds/Blog', added: '2026-12-01T08:00:00.000Z', lastPulled: '2026-12-02T08:00:00.000Z', lastError: 'HTTP 404' };
    await writeFile(path.join(dir, '.dexi', 'feeds.json'), `${JSON.stringify({ feeds: [feed] })}\n`);
    // Two writes on record: the older one's earlier version pruned from .dexi/history, the newer one's kept.
    const kept = Buffer.from('Welcome, as it was.\n');
    const keptHash = createHash('sha1').update(kept).digest('hex');
    await mkdir(path.join(dir, '.dexi', 'history'));
    await writeFile(path.join(dir, '.dexi', 'history', keptHash), kept);
    const pruned = { time: '2026-12-02T08:30:00.000Z', call: 'c0', tool: 'update_note', by: 'stdio', action: 'changed', id: 'n0', path: 'Other.md', before: '0'.repeat(40), after: '1'.repeat(40) };
    const write = { time: '2026-12-02T09:00:00.000Z', call: 'c1', tool: 'update_note', by: 'stdio', action: 'changed', id: 'n1', path: 'Welcome.md', before: keptHash, after: '2'.repeat(40) };
    await writeFile(path.join(dir, '.dexi', 'activity.jsonl'), `${JSON.stringify(pruned)}\n${JSON.stringify(write)}\n`);
    const records = (await loadSnapshot(cacheDir(dir), () => undefined))?.records;
    const [one, two] = records ? tableRecords(records).map((record) => record.id) : [];
    await mkdir(vectorsDir(cacheDir(dir)));
    const meta = { format: 'dexi-vectors', version: 1, embedderId: 'use-lite-512', dimensions: 2, vectors: { file: 'vectors-x.f32', sha256: '0', chunks: 2 }, graph: null, notes: [[one, 'ab', [0]], [two, 'cd+opening/3', [1]], ['gone', 'ef', []]] };
    await writeFile(path.join(vectorsDir(cacheDir(dir)), 'meta.json'), JSON.stringify(meta));
    const tree = await treeOf(dir);

    const after = await runCli(['status', '--vault', dir], { env: env() });
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toBe('');
    expect(after.stdout).toMatch(/^Text index {3}up to date \(saved just now, [\d.]+ KB\)$/m);
    expect(after.stdout).toContain(`Embeddings   use-lite-512: 2 of ${notes} notes with their opening embedded, 1 in full (saved just now, `);
    expect(after.stdout).toContain('Feeds        1 feed, last pulled ');
    expect(after.stdout).toContain('1 failed its last pull: Blog (HTTP 404)');
    expect(after.stdout).toContain('Tokens       1 token: 1 notes:read');
    expect(after.stdout).toContain('update_note changed Welcome.md, by stdio; 2 changes on record, 1 can be undone (1 more cannot be: .dexi/history no longer keeps what they replaced)');
    // The token's secret is never shown, only its scopes.
    expect(after.stdout).not.toMatch(/[A-Za-z0-9_-]{32,}/);
    const afterJson = JSON.parse((await runCli(['status', '--vault', dir, '--json'], { env: env() })).stdout) as Record<string, Record<string, unknown>>;
    expect(afterJson.textIndex).toMatchObject({ state: 'up-to-date', changed: 0, added: 0, removed: 0 });
    expect(afterJson.embeddings).toMatchObject({ state: 'embedded', model: 'use-lite-512', notesWithOpening: 2, notesInFull: 1, of: notes });
    expect(afterJson.tokens).toEqual({ count: 1, byScopes: { 'notes:read': 1 }, problem: null });
    expect(afterJson.activity).toMatchObject({ changes: 2, undoable: 1, unkept: 1, last: { tool: 'update_note', change: 'changed Welcome.md' } });
    expect(await treeOf(dir)).toEqual(tree);

    // A note edited since the index: counted, and still nothing written.
    await writeFile(path.join(dir, 'Welcome.md'), 'Changed.\n');
    const edited = await treeOf(dir);
    const behind = await runCli(['status', '--vault', dir], { env: env() });
    expect(behind.stdout).toContain('Text index   out of date: 1 note changed since it was saved ');
    expect(await treeOf(dir)).toEqual(edited);
  }, 120_000);
});

/** Every file and folder under `dir`, `.dexi/` included, with its mode, size, time and bytes: what "nothing written" compares. */
async function treeOf(dir: string): Promise<Record<string, string>> {
  const tree: Record<string, string> = {};
  for (const rel of await readdir(dir, { recursive: true })) {
    const info = await lstat(path.join(dir, rel));
    const bytes = info.isFile() ? (await readFile(path.join(dir, rel))).toString('base64') : 'folder';
    tree[rel] = `${info.mode}:${info.size}:${info.mtimeMs}:${bytes}`;
  }
  return tree;
}
