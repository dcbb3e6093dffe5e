import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileNamePart, METRICS, noteIdOf, parseOptions, runName, targetFor, UsageError } from '../../bench/run.js';
import { BENCH_DIR } from '../../bench/paths.js';
import { pathId } from '../../src/format/identity.js';

describe('parseOptions', () => {
  it.each([
    { argv: [], sizes: [10_000, 100_000], quality: true, out: 'results.json' },
    { argv: ['--quick'], sizes: [2000], quality: true, out: 'results-quick.json' },
    { argv: ['--sizes', '10_000'], sizes: [10_000], quality: true, out: 'results.json' },
    { argv: ['--sizes', '500, 2000', '--no-quality'], sizes: [500, 2000], quality: false, out: 'results.json' },
  ])('generated vaults: $argv', ({ argv, sizes, quality, out }) => {
    const options = parseOptions(argv);
    expect(options.sizes).toEqual(sizes);
    expect(options.quality).toBe(quality);
    expect(options.out).toBe(path.join(BENCH_DIR, out));
    expect(options.vault).toBeUndefined();
  });

  it.each([
    { argv: ['--vault', '/tmp/vaults/help'], vault: { dir: '/tmp/vaults/help', label: 'help' }, out: path.join(BENCH_DIR, 'results-vault-help.json') },
    { argv: ['--vault', '/tmp/vaults/help/'], vault: { dir: '/tmp/vaults/help', label: 'help' }, out: path.join(BENCH_DIR, 'results-vault-help.json') },
    {
      argv: ['--vault', '/tmp/vaults/zk', '--label', 'Obsidian zettelkasten'],
      vault: { dir: '/tmp/vaults/zk', label: 'Obsidian zettelkasten' },
      out: path.join(BENCH_DIR, 'results-vault-Obsidian-zettelkasten.json'),
    },
    { argv: ['--vault', '/tmp/vaults/zk', '--no-quality', '--out', '/tmp/zk.json'], vault: { dir: '/tmp/vaults/zk', label: 'zk' }, out: '/tmp/zk.json' },
    { argv: ['--vault', 'sample-vault'], vault: { dir: path.resolve('sample-vault'), label: 'sample-vault' }, out: path.join(BENCH_DIR, 'results-vault-sample-vault.json') },
  ])('a real vault: $argv', ({ argv, vault, out }) => {
    const options = parseOptions(argv);
    expect(options.vault).toEqual(vault);
    expect(options.sizes).toEqual([]);
    // The labeled set does not depend on the vault.
    expect(options.quality).toBe(false);
    expect(options.out).toBe(out);
  });

  it.each([
    { argv: ['--vault', '/v', '--sizes', '10000'], message: '--vault and --sizes do not go together: benchmark the real vault and the generated sizes in two runs.' },
    { argv: ['--vault', '/v', '--quick'], message: '--vault and --quick do not go together: --quick picks a small generated vault.' },
    { argv: ['--vault', ' '], message: '--vault takes the folder of a vault, such as --vault ~/Notes.' },
    { argv: ['--label', 'help'], message: '--label names the vault of --vault; there is no --vault.' },
    { argv: ['--vault', '/v', '--label', ''], message: '--label takes a name, such as --label help.' },
    { argv: ['--quick', '--sizes', '2000'], message: '--quick and --sizes do not go together.' },
    { argv: ['--sizes', '5'], message: '--sizes takes note counts of at least 10, such as 10000,100000; not "5".' },
    { argv: ['--timeout-min', '0'], message: '--timeout-min takes a positive number of minutes, not "0".' },
    { argv: ['--vault'], message: "Option '--vault <value>' argument missing" },
    { argv: ['--vaults', '/v'], message: "Unknown option '--vaults'" },
  ])('refuses $argv in a plain sentence', ({ argv, message }) => {
    let error: unknown;
    try {
      parseOptions(argv);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message.startsWith(message)).toBe(true);
  });

  it('shows both forms in the usage text', () => {
    expect(() => parseOptions(['--help'])).toThrow(/npm run bench -- \[--sizes[\s\S]*npm run bench -- --vault DIR \[--label NAME\]/);
  });
});

describe('runName', () => {
  it.each([
    { run: { notes: 10_000 }, want: '10,000 notes' },
    { run: { notes: 0, real: { source: '/tmp/vaults/help', label: 'help' } }, want: 'help' },
    { run: { notes: 6280, real: { source: '/tmp/vaults/help', label: 'help' } }, want: 'help, 6,280 notes' },
  ])('$want', ({ run, want }) => {
    expect(runName(run)).toBe(want);
  });
});

describe('fileNamePart', () => {
  it.each([
    ['help', 'help'],
    ['Obsidian help', 'Obsidian-help'],
    ['../../etc', 'etc'],
    ['notes/2024', 'notes-2024'],
    ['Ζέφυρος', 'Ζέφυρος'],
    ['///', 'vault'],
  ])('%s → %s', (label, want) => {
    expect(fileNamePart(label)).toBe(want);
  });
});

describe('noteIdOf', () => {
  const vault = path.join(path.sep, 'v');
  it.each([
    { name: 'the frontmatter id', file: 'a/Note.md', content: '---\nid: 0f5c1e2a-1b2c-4d3e-8f9a-0b1c2d3e4f5a\n---\ntext\n', want: '0f5c1e2a-1b2c-4d3e-8f9a-0b1c2d3e4f5a' },
    { name: 'no frontmatter: the id of the path', file: 'a/Note.md', content: 'text\n', want: pathId('a/Note.md') },
    { name: 'an id: line in the body is not an id', file: 'Note.md', content: 'text\nid: abc\n', want: pathId('Note.md') },
    { name: 'an id the server does not take (a space in it): the id of the path', file: 'Note.md', content: '---\nid: not one\n---\n', want: pathId('Note.md') },
  ])('$name', ({ file, content, want }) => {
    expect(noteIdOf(vault, path.join(vault, file), content)).toBe(want);
  });
});

describe('targetFor', () => {
  it.each([
    { key: 'warm_searchable', notes: 2_000, want: 2000 },
    { key: 'search_median', notes: 10_000, want: 5 },
    { key: 'search_median', notes: 10_001, want: 10 },
    { key: 'search_median', notes: 100_000, want: 10 },
    { key: 'search_median', notes: 100_001, want: undefined },
    { key: 'list_median', notes: 10_000, want: undefined },
    { key: 'list_median', notes: 100_000, want: 20 },
    { key: 'cold_searchable', notes: 100_000, want: 60_000 },
    { key: 'search_during_save_max', notes: 100_000, want: 200 },
    { key: 'warm_peak_rss', notes: 100_000, want: 1024 },
  ] as const)('$key at $notes notes: $want', ({ key, notes, want }) => {
    expect(targetFor(METRICS[key], notes)?.value).toBe(want);
  });
});
