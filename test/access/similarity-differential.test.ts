import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_CALIBRATION_NOTES } from '../../src/access/meaning-calibration.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connect, connectClient, removeDir, waitForEmbeddings, writeVault, type Harness } from '../support/helpers.js';
import { MANY_SUBJECTS, ONE_SUBJECT, topicVault } from '../support/topic-vaults.js';

/**
 * The differential leak test for semantic_search and find_similar with
 * similarity calibrated on the vault (issue 33): under a boundary, the same
 * calls on a vault holding only the inside notes and on one that also holds
 * as many outside notes, of other subjects and of the same ones, must give
 * the same answers, similarities included. A calibration fitted on the whole
 * vault would fail it: the outside notes would move every baseline. An
 * unbounded connection to the larger vault, which sees the outside notes,
 * scores differently: the calibration is on, and follows what is seen.
 */

const id = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** The topic vault's notes under `folder`, with fixed ids from `first` on, and `tag` in each. */
function placed(files: Record<string, string>, folder: string, first: number, tag: string): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([rel, text], i) => [`${folder}/${rel}`, `---\nid: ${id(first + i)}\ncreated: 2026-11-01T10:00:00+00:00\nupdated: 2026-11-02T10:00:00+00:00\n---\n${text.trim()} ${tag}\n`]));
}

const INSIDE = placed(topicVault(ONE_SUBJECT, 5).files, 'Garden', 1, '#garden');
const OUTSIDE = {
  ...placed(topicVault(MANY_SUBJECTS, 6).files, 'Private', 100, '#private'),
  // The same subject outside: the closest rivals of the inside notes' neighbours.
  ...placed(topicVault(ONE_SUBJECT.slice(0, 3), 7).files, 'Private/Garden', 200, '#private'),
};

const QUERIES = ['why are my tomatoes cracking', 'what to put in compost', 'spots on rose leaves and pruning', 'how much money to save'];
const SIMILAR = [id(1), id(7), id(20), id(36)];

type Call = (name: string, args: Record<string, unknown>) => Promise<unknown>;

/** Every semantic answer a connection gives to the calls. */
async function answers(call: Call): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const query of QUERIES) out.push(await call('semantic_search', { query, size: 10 }));
  for (const note_id of SIMILAR) out.push(await call('find_similar', { note_id, size: 10 }));
  return out;
}

const dirs: string[] = [];
const open: Harness[] = [];
const clients: Client[] = [];
afterAll(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const h of open.splice(0)) await h.close();
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

async function opened(files: Record<string, string>): Promise<Harness> {
  const dir = await writeVault(files);
  dirs.push(dir);
  const h = await connect({ dir, semantic: 'no-wait' });
  open.push(h);
  // The model embeds each vault from scratch: on a loaded machine, longer than connect's own wait.
  await waitForEmbeddings(h.runtime, 300_000);
  return h;
}

/** The answers of a connection to `h`'s vault under `boundary` (none: the whole vault). */
async function answersUnder(h: Harness, boundary: { folder?: string; tag?: string }): Promise<unknown[]> {
  const client = await connectClient(h.runtime, boundary);
  clients.push(client);
  return answers(async (name, args) => ((await client.callTool({ name, arguments: args })) as CallToolResult).structuredContent);
}

// The two vaults are embedded once (the model's time is most of this file's) and each boundary connects to both.
let alone: Harness;
let withOutside: Harness;
beforeAll(async () => {
  expect(Object.keys(INSIDE).length).toBeGreaterThanOrEqual(MIN_CALIBRATION_NOTES);
  [alone, withOutside] = await Promise.all([opened(INSIDE), opened({ ...INSIDE, ...OUTSIDE })]);
}, 600_000);

describe.each([
  ['folder Garden', { folder: 'Garden' }],
  ['tag #garden', { tag: '#garden' }],
])('similarity under the boundary %s', (_name, boundary) => {
  let inside: unknown[];
  let among: unknown[];
  let unbounded: unknown[];
  beforeAll(async () => {
    inside = await answersUnder(alone, boundary);
    among = await answersUnder(withOutside, boundary);
    unbounded = await answersUnder(withOutside, {});
  }, 120_000);

  it('gives the same items and similarities whatever lies outside', () => {
    expect(among).toEqual(inside);
  });

  it('scores differently for a connection that sees the outside notes too', () => {
    expect(unbounded).not.toEqual(among);
    const items = (answer: unknown): { id: string; similarity: number }[] => (answer as { items: { id: string; similarity: number }[] }).items;
    // The same note found by the same find_similar carries another similarity: the fit follows what is seen.
    const differs = SIMILAR.some((_, i) => {
      const bounded = items(among[QUERIES.length + i]);
      const seen = items(unbounded[QUERIES.length + i]);
      return bounded.some((item) => seen.some((other) => other.id === item.id && other.similarity !== item.similarity));
    });
    expect(differs).toBe(true);
  });
});
