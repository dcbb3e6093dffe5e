import { fstatSync, openSync, closeSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { plainStats } from '../../src/storage/atomic.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'dexi-plain-stats-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it.each<[string, number]>([
  ['a whole second', 1_700_000_000],
  ['a fraction of a millisecond', 1_700_000_000.123456],
  ['the epoch', 0],
  ['before the epoch', -1.25],
  ['long before the epoch', -2_000_000_000.987654],
  ['far ahead', 4_000_000_000.000001],
])('gives the plain stats of a file modified at %s, to the bit', (name, seconds) => {
  const file = path.join(dir, `${name}.md`);
  writeFileSync(file, 'text');
  utimesSync(file, seconds, seconds);
  const fd = openSync(file, 'r');
  try {
    const plain = fstatSync(fd);
    const derived = plainStats(fstatSync(fd, { bigint: true }));
    expect(derived).toEqual({ mtimeMs: plain.mtimeMs, ctimeMs: plain.ctimeMs, birthtimeMs: plain.birthtimeMs, ino: plain.ino, size: plain.size });
    expect(Object.is(derived.mtimeMs, plain.mtimeMs)).toBe(true);
  } finally {
    closeSync(fd);
  }
});
