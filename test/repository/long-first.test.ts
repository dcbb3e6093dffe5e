import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LONG_FIRST } from '../../vitest.config.js';
import { ROOT } from '../support/process.js';

describe("vitest.config.ts's list of the files to start first in a fresh clone", () => {
  it.each(LONG_FIRST)('names a test file that exists: %s', (file) => {
    expect(file).toMatch(/^test\/.+\.test\.ts$/);
    expect(existsSync(path.join(ROOT, file))).toBe(true);
  });
});
