import { cp, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { connect, copySampleVault, removeDir, tempDir, waitFor, waitForEmbeddings } from './helpers.js';

/**
 * Fixtures made once a run and copied for each test that only reads them.
 * Two test files (tools/semantic, e2e/import-cli) each embedded the sample
 * vault for themselves: in full it took the built CLI's `index` 14.7 s of
 * CPU, and the two files run alone took 11 s more user CPU than they do
 * with this fixture. The first file to ask makes it (the others wait for it), and
 * each gets a copy whose `.dexi/cache` holds the vectors: a server opening
 * it starts warm, as a person's server does on its second start. Embedding
 * itself is what test/index/vectors and the other semantic tests prove.
 */

/** How long a file waits for another to finish embedding the sample vault: on a loaded machine, minutes. */
const MAKING_WAIT_MS = 300_000;

/**
 * The time limit for a hook that calls copyEmbeddedSampleVault: the default 30 s ran out in a
 * full run (three files at once beside the package and bundle installs) for the file that made it.
 */
export const EMBEDDED_SAMPLE_HOOK_MS = MAKING_WAIT_MS + 60_000;

/** A copy of the sample vault whose index cache already holds every note's vectors (the default model's). */
export async function copyEmbeddedSampleVault(): Promise<string> {
  const runDir = inject('runDir');
  const made = path.join(runDir, 'embedded-sample-vault');
  const failed = path.join(runDir, 'embedded-sample-vault.failed');
  if (!existsSync(made)) {
    let maker = false;
    try {
      // mkdir is atomic: of the files asking at once, one makes the fixture.
      await mkdir(path.join(runDir, 'embedded-sample-vault.making'));
      maker = true;
    } catch {
      await waitFor(() => existsSync(made) || existsSync(failed), MAKING_WAIT_MS, 'the embedded sample vault another test file is making');
      if (existsSync(failed)) throw new Error(`Embedding the sample vault failed in another test file: ${await readFile(failed, 'utf8')}`);
    }
    if (maker) await makeEmbeddedSampleVault(made, failed);
  }
  const copy = await tempDir();
  await cp(made, copy, { recursive: true });
  return copy;
}

async function makeEmbeddedSampleVault(made: string, failed: string): Promise<void> {
  const dir = await copySampleVault();
  try {
    // connect's own wait for the embeddings (60 s) is shorter than a loaded machine may need.
    const h = await connect({ dir, semantic: 'no-wait' });
    await waitForEmbeddings(h.runtime, MAKING_WAIT_MS);
    // Closing saves the vectors into .dexi/cache; the rename makes the fixture appear whole or not at all.
    await h.close();
    await rename(dir, made);
  } catch (error) {
    await removeDir(dir);
    await writeFile(failed, String(error));
    throw error;
  }
}
