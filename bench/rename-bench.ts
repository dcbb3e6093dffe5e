/**
 * `npm run bench:build && node .bench-build/bench/rename-bench.js [--notes N]`:
 * how long rename_tag takes over a generated vault (10,000 notes by default,
 * in a temporary folder), in-process through an MCP client as a connection
 * calls it, once the vault is read: the most used tag renamed (every note
 * carrying it or a nested one written, one at a time, each recorded ahead),
 * then `undo --last` of the whole call. Prints the figures.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { connect } from '../test/support/helpers.js';
import { undo } from '../src/vault/record/undo.js';
import { generateVault } from './generate.js';

const { values } = parseArgs({ options: { notes: { type: 'string', default: '10000' } } });
const notes = Number(values.notes);
const dir = await mkdtemp(path.join(tmpdir(), 'dexi-rename-bench-'));
try {
  await generateVault(dir, { notes, seed: 42 });
  const h = await connect({ dir });
  const { tags } = (await h.client.callTool({ name: 'list_tags', arguments: { limit: 5 } })).structuredContent as { tags: { tag: string; count: number }[] };
  const top = tags[0];
  if (!top) throw new Error('the generated vault has no tags');
  let heard = 0;
  const started = performance.now();
  const answer = await h.client.callTool({ name: 'rename_tag', arguments: { from: top.tag, to: `${top.tag}-renamed` } }, undefined, {
    onprogress: () => heard++,
    timeout: 600_000,
  });
  const renameMs = performance.now() - started;
  const undoStarted = performance.now();
  await undo(h.runtime.activity, { last: true });
  const undoMs = performance.now() - undoStarted;
  console.log(JSON.stringify({ notes, tag: top.tag, carrying: top.count, answer: answer.structuredContent, renameMs: Math.round(renameMs), perNoteMs: +(renameMs / Math.max(1, top.count)).toFixed(2), progressNotifications: heard, undoMs: Math.round(undoMs) }));
  await h.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}
