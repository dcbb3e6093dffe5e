import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A merge's conflict markers once landed in README.md and BENCHMARKS.md,
 * where neither the compiler nor the linter reads. Every tracked text file
 * is checked for a line that is only a marker.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MARKER = /^(<{7} |={7}$|>{7} )/mu;

describe('the repository', () => {
  it('holds no merge conflict markers', () => {
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter((file) => /\.(md|ts|mjs|cjs|js|json|txt|yml|yaml)$/u.test(file));
    expect(files.length).toBeGreaterThan(100);
    const marked = files.filter((file) => MARKER.test(readFileSync(path.join(root, file), 'utf8')));
    expect(marked).toEqual([]);
  });
});
