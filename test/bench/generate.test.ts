import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { generateQueries, generateVault, getTags, getVocabulary, type GenerateResult } from '../../bench/generate.js';
import { parseIso } from '../../src/format/time.js';

interface Tree {
  files: Map<string, string>;
  dirs: string[];
}

async function readTree(root: string): Promise<Tree> {
  const files = new Map<string, string>();
  const dirs: string[] = [];
  async function walk(rel: string): Promise<void> {
    const entries = await readdir(join(root, rel), { withFileTypes: true });
    for (const e of entries) {
      const p = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        dirs.push(p);
        await walk(p);
      } else {
        files.set(p, await readFile(join(root, p), 'utf8'));
      }
    }
  }
  await walk('');
  dirs.sort();
  return { files: new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1))), dirs };
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('generateVault', () => {
  let base: string;
  let a: Tree;
  let b: Tree;
  let c: Tree;
  let resultA: GenerateResult;
  let resultB: GenerateResult;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'dexi-gen-'));
    resultA = await generateVault(join(base, 'a'), { notes: 200, seed: 42 });
    resultB = await generateVault(join(base, 'b'), { notes: 200, seed: 42 });
    await generateVault(join(base, 'c'), { notes: 200, seed: 43 });
    [a, b, c] = await Promise.all([readTree(join(base, 'a')), readTree(join(base, 'b')), readTree(join(base, 'c'))]);
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('same seed → identical trees, byte for byte', () => {
    expect(resultB).toEqual(resultA);
    expect([...b.files.keys()]).toEqual([...a.files.keys()]);
    expect(b.dirs).toEqual(a.dirs);
    for (const [path, content] of a.files) expect(b.files.get(path)).toBe(content);
  });

  it('a different seed gives a different vault', () => {
    const same = [...a.files].filter(([p, content]) => c.files.get(p) === content).length;
    expect(same).toBe(0);
    expect([...c.files.keys()]).not.toEqual([...a.files.keys()]);
  });

  it('writes the requested number of .md files and reports counts truthfully', async () => {
    const md = [...a.files.keys()].filter((p) => p.endsWith('.md'));
    expect(md).toHaveLength(200);
    expect(a.files.size).toBe(200);
    expect(resultA.notes).toBe(200);
    expect(resultA.folders).toBe(a.dirs.length);
    let bytes = 0;
    for (const p of a.files.keys()) bytes += (await stat(join(base, 'a', p))).size;
    expect(resultA.bytes).toBe(bytes);
  });

  it('every note starts with frontmatter holding a unique UUID-shaped id', () => {
    const ids = new Set<string>();
    for (const [path, content] of a.files) {
      expect(content.startsWith('---\n'), path).toBe(true);
      expect(content).toMatch(/\nid: /);
      const end = content.indexOf('\n---\n', 4);
      expect(end, path).toBeGreaterThan(0);
      const fm = parseYaml(content.slice(4, end)) as Record<string, unknown>;
      expect(typeof fm['id']).toBe('string');
      expect(fm['id'] as string).toMatch(UUID_RE);
      ids.add(fm['id'] as string);
      expect(typeof fm['title']).toBe('string');
      const created = parseIso(fm['created']);
      const updated = parseIso(fm['updated']);
      expect(created).toBeDefined();
      expect(updated).toBeDefined();
      expect((updated as Date).getTime()).toBeGreaterThanOrEqual((created as Date).getTime());
      expect((created as Date).getUTCFullYear()).toBe(2025);
      if (fm['tags'] !== undefined) {
        expect(Array.isArray(fm['tags'])).toBe(true);
        for (const t of fm['tags'] as unknown[]) expect(typeof t).toBe('string');
      }
      if (fm['source'] !== undefined) {
        expect(fm['source']).toBe('bookmark');
        expect(fm['source_url']).toMatch(/^https:\/\//);
      }
    }
    expect(ids.size).toBe(200);
  });

  it('looks like a real vault: nested folders, root notes, hashtags, mentions, links, headings', () => {
    const paths = [...a.files.keys()];
    expect(paths.some((p) => !p.includes('/'))).toBe(true);
    expect(paths.some((p) => p.split('/').length === 3)).toBe(true);
    const all = [...a.files.values()].join('\n');
    expect(all).toMatch(/ #[a-z]+\/[a-z]+/); // nested hashtag
    expect(all).toMatch(/@[a-z]/);
    expect(all).toMatch(/\[\[[A-Z][^\]]+\]\]/);
    expect(all).toMatch(/\n## /);
    expect(all).toMatch(/\n- /);
    expect(all).toMatch(/\ntags:/);
    const words = [...a.files.values()].map((t) => t.split(/\s+/).length);
    const mean = words.reduce((x, y) => x + y, 0) / words.length;
    expect(mean).toBeGreaterThan(250);
    expect(mean).toBeLessThan(450);
  });

  it('honours wordsPerNote and writes nothing for zero notes', async () => {
    const small = await generateVault(join(base, 'small'), { notes: 20, seed: 1, wordsPerNote: 30 });
    const big = await generateVault(join(base, 'big'), { notes: 20, seed: 1, wordsPerNote: 600 });
    expect(big.bytes).toBeGreaterThan(small.bytes * 5);
    const empty = await generateVault(join(base, 'empty'), { notes: 0 });
    expect(empty).toEqual({ notes: 0, folders: 0, bytes: 0 });
    expect(await readdir(join(base, 'empty'))).toEqual([]);
  });

  it('rejects a bad note count', async () => {
    await expect(generateVault(join(base, 'bad'), { notes: -1 })).rejects.toThrow(RangeError);
    await expect(generateVault(join(base, 'bad'), { notes: 1.5 })).rejects.toThrow(RangeError);
  });
});

describe('vocabulary, tags and queries', () => {
  it('has a few thousand distinct lower-case words and ~200 tags', () => {
    const vocab = getVocabulary();
    expect(new Set(vocab).size).toBe(vocab.length);
    expect(vocab.length).toBeGreaterThanOrEqual(2500);
    for (const w of vocab) expect(w).toMatch(/^[a-z]+$/);
    const tags = getTags();
    expect(new Set(tags).size).toBe(tags.length);
    expect(tags.length).toBeGreaterThanOrEqual(180);
    expect(tags.some((t) => t.includes('/'))).toBe(true);
  });

  it('queries are deterministic, 1–3 vocabulary words', () => {
    const q1 = generateQueries(7, 500);
    expect(generateQueries(7, 500)).toEqual(q1);
    expect(generateQueries(8, 500)).not.toEqual(q1);
    const vocab = new Set(getVocabulary());
    const lengths = new Set<number>();
    for (const q of q1) {
      const terms = q.split(' ');
      lengths.add(terms.length);
      expect(terms.length).toBeGreaterThanOrEqual(1);
      expect(terms.length).toBeLessThanOrEqual(3);
      for (const t of terms) expect(vocab.has(t), t).toBe(true);
      expect(new Set(terms).size).toBe(terms.length);
    }
    expect([...lengths].sort()).toEqual([1, 2, 3]);
    expect(generateQueries(1, 0)).toEqual([]);
  });
});
