import { describe, expect, it } from 'vitest';
import { nestingDepth, parseFrontmatter } from '../../src/format/frontmatter.js';
import { folderPathProblem } from '../../src/storage/paths.js';
import { CallGate } from '../../src/server/limits.js';
import { answerBytes } from '../../src/tools/budget.js';

describe('nestingDepth', () => {
  it.each([
    ['', 0],
    ['title: x', 1],
    ['a: 1\nb: 2\nc: 3', 1],
    ['a:\n  b:\n    c: 1', 3],
    ['a:\n  b: 1\n  c: 2\nd: 3', 2],
    ['tags: [a, b]', 2],
    ['a: [[[x]]]', 4],
    ['a: {b: {c: 1}}', 3],
    ['- - - x', 4],
    // An estimate that errs high: a block list item counts its own line.
    ['list:\n  - a\n  - b', 3],
    ['a: |\n  one\n  two', 2],
    ['a: [1,\n  2]\nb: 3', 3],
  ])('%j is %i deep', (yaml, depth) => {
    expect(nestingDepth(yaml)).toBe(depth);
  });

  it('is linear on hostile input', () => {
    const started = performance.now();
    expect(nestingDepth('['.repeat(1_000_000))).toBe(1_000_001);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('parseFrontmatter limits', () => {
  it.each([
    ['64 levels is read', `a: ${'['.repeat(62)}1${']'.repeat(62)}`, true],
    ['65 levels is not', `a: ${'['.repeat(64)}1${']'.repeat(64)}`, false],
    ['a duplicate key is broken', 'a: 1\nb: 2\na: 3', false],
    ['a duplicate nested key is broken', 'a:\n  x: 1\n  x: 2', false],
    ['the same key in two maps is fine', 'a:\n  x: 1\nb:\n  x: 2', true],
    ['256 K characters is read', `a: "${'x'.repeat(256 * 1024 - 10)}"`, true],
    ['over 256 K characters is not', `a: "${'x'.repeat(256 * 1024)}"`, false],
  ])('%s', (_name, yaml, ok) => {
    expect(parseFrontmatter(yaml).ok).toBe(ok);
  });

  it('finds duplicate keys in linear time', () => {
    const keys = Array.from({ length: 6000 }, (_, i) => `key${i}: ${i}`).join('\n');
    const started = performance.now();
    expect(parseFrontmatter(keys).ok).toBe(true);
    expect(parseFrontmatter(`${keys}\nkey3: again`).ok).toBe(false);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe('folderPathProblem', () => {
  it.each([
    ['Work', undefined],
    ['Work/Projects/Alpha', undefined],
    ['Café ☕/Ünïcödé', undefined],
    ['', 'it is empty'],
    ['/etc', 'it is an absolute path'],
    ['C:/Windows', 'it is an absolute path'],
    ['a\\b', 'it contains a backslash'],
    ['a\u0000b', 'it contains control characters'],
    ['a\nb', 'it contains control characters'],
    ['..', 'it is not a plain path of folder names'],
    ['a/../b', 'it is not a plain path of folder names'],
    ['a//b', 'it is not a plain path of folder names'],
    ['a/./b', 'it is not a plain path of folder names'],
    ['a/', 'it is not a plain path of folder names'],
    ['.git', 'it names a hidden folder, which is not part of the vault'],
    ['a/.obsidian/b', 'it names a hidden folder, which is not part of the vault'],
    ['node_modules', 'it names a hidden folder, which is not part of the vault'],
    ['x'.repeat(256), 'a folder name in it is longer than 255 bytes, more than file systems allow'],
    ['é'.repeat(128), 'a folder name in it is longer than 255 bytes, more than file systems allow'],
    [Array.from({ length: 10 }, () => 'y'.repeat(200)).join('/'), 'it is longer than 1024 bytes'],
  ])('%j: %s', (folder, problem) => {
    expect(folderPathProblem(folder)).toBe(problem);
  });
});

describe('CallGate', () => {
  it('admits up to the running limit, queues in order up to the waiting limit, and refuses beyond', async () => {
    const gate = new CallGate({ maxRunning: 2, maxWaiting: 1 });
    const first = await gate.enter();
    const second = await gate.enter();
    let thirdIn = false;
    const third = gate.enter().then((release) => {
      thirdIn = true;
      return release;
    });
    expect(await gate.enter()).toBeUndefined();
    expect(gate.counts).toEqual({ running: 2, waiting: 1 });
    await Promise.resolve();
    expect(thirdIn).toBe(false);
    first?.();
    first?.(); // A second release of the same turn changes nothing.
    const release = await third;
    expect(thirdIn).toBe(true);
    expect(gate.counts).toEqual({ running: 2, waiting: 0 });
    second?.();
    release?.();
    expect(gate.counts).toEqual({ running: 0, waiting: 0 });
  });

  it('lets an aborted wait leave the queue', async () => {
    const gate = new CallGate({ maxRunning: 1, maxWaiting: 1 });
    const running = await gate.enter();
    const controller = new AbortController();
    const waiting = gate.enter(controller.signal);
    controller.abort();
    expect(await waiting).toBeUndefined();
    expect(gate.counts).toEqual({ running: 1, waiting: 0 });
    running?.();
    expect(gate.counts).toEqual({ running: 0, waiting: 0 });
  });
});

describe('answerBytes', () => {
  it.each([
    // {"a":"x"} as structuredContent, then "{\"a\":\"x\"}" as the text block.
    [{ a: 'x' }, 9 + 15],
    [{ a: '"' }, 10 + 18],
    [{ a: 'é' }, 10 + 16],
    [{ a: '\u0001' }, 14 + 21],
  ])('%j takes %i bytes, counting both copies of the answer', (value, bytes) => {
    expect(answerBytes(value)).toBe(bytes);
  });
});
