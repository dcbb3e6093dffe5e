import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scanVault } from '../../src/vault/scan.js';
import { connect, removeDir, tempDir, type Harness } from '../support/helpers.js';

/**
 * A path whose last name holds bytes that are not UTF-8 (Latin-1 "é" is the
 * single byte 0xE9). Linux takes any bytes but "/" and NUL in a name, so the
 * file can exist; Node decodes such a name with U+FFFD, which opens nothing.
 */
function rawPath(dir: string, ...bytes: (string | number[])[]): Buffer {
  const parts = bytes.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part)));
  return Buffer.concat([Buffer.from(`${dir}/`, 'utf8'), ...parts]);
}

const NOTE = (title: string): string => `# ${title}\n\nSome text about ${title}.\n`;

let dir: string | undefined;
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  if (dir) await removeDir(dir);
  dir = undefined;
});

/** A vault with good notes beside a note, a folder (holding a note) and a non-note whose names are not UTF-8. */
async function hostileNames(): Promise<string> {
  const root = await tempDir();
  mkdirSync(path.join(root, 'Work'));
  writeFileSync(path.join(root, 'Top.md'), NOTE('Top'));
  writeFileSync(path.join(root, 'Work', 'Plan.md'), NOTE('Plan'));
  writeFileSync(rawPath(root, 'Work/caf', [0xe9], '.md'), NOTE('Hidden cafe'));
  mkdirSync(rawPath(root, 'Dir', [0xff]));
  writeFileSync(rawPath(root, 'Dir', [0xff], '/Inner.md'), NOTE('Inner'));
  writeFileSync(rawPath(root, 'notes', [0xc3], '.txt'), 'not a note');
  // A name that really holds U+FFFD is valid UTF-8: an ordinary note.
  writeFileSync(path.join(root, 'Work', 'odd\uFFFD.md'), NOTE('Odd but valid'));
  return root;
}

describe('file names that are not valid UTF-8', () => {
  it('are skipped by the scan with a line saying what they are, not ENOENT', async () => {
    dir = await hostileNames();
    const logs: string[] = [];
    const scan = await scanVault(dir, (line) => logs.push(line));
    expect(scan.files.map((file) => file.path)).toEqual(['Top.md', 'Work/Plan.md', 'Work/odd\uFFFD.md']);
    // The undecodable folder is no folder of the vault: nothing may be created in a folder of that shown name.
    expect(scan.folders).toEqual(['Work']);
    expect(logs.sort()).toEqual([
      'Skipped a file whose name is not valid UTF-8 (shown as "caf\uFFFD.md") in Work: rename it to read it.',
      'Skipped a folder whose name is not valid UTF-8 (shown as "Dir\uFFFD") in the vault\'s top folder: rename it to read the notes in it.',
    ]);
    for (const line of logs) expect(line).not.toMatch(/ENOENT|no such file/);
  });

  it('leave the server running and every other note readable', async () => {
    dir = await hostileNames();
    harness = await connect({ dir });
    const listed = await harness.ok<{ items: { title: string }[]; total: number }>('list_notes', { size: 50 });
    // Titles come from the file names; the undecodable ones are absent, the truly odd one is there.
    expect(listed.items.map((item) => item.title).sort()).toEqual(['Plan', 'Top', 'odd\uFFFD']);
    const folders = await harness.ok<{ folders: { name: string }[] }>('list_folders');
    expect(JSON.stringify(folders)).not.toContain('\uFFFD');
    const found = await harness.ok<{ items: { title: string }[] }>('search_notes', { query: 'Plan' });
    expect(found.items.map((item) => item.title)).toContain('Plan');
    expect(harness.logs).toContain('Skipped a file whose name is not valid UTF-8 (shown as "caf\uFFFD.md") in Work: rename it to read it.');
    expect(harness.logs.join('\n')).not.toMatch(/ENOENT/);
  });
});
