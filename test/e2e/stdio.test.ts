import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { existsSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copySampleVault, removeDir, writeVault } from '../support/helpers.js';
import { hangUp, startStdioServer, type StdioServer } from '../support/stdio-server.js';
import { CLI, countNotes, eventually, ROOT, STACK_FRAME, TOOL_NAMES } from '../support/process.js';

/**
 * The built CLI, spawned as a real MCP client would spawn it: `node
 * dist/app/dexi-vault.js serve --vault DIR` over stdio, each test on its own copy
 * of the sample vault.
 */

type Served = StdioServer;

let dir: string;
let served: Served | undefined;

/**
 * `serve` as a client starts it, with the default model; `--model none` where the test is not about
 * semantic search: with a model the server embeds the vault in the background for as long as the
 * test runs, several seconds of CPU a test that the shared machine of the suite paid for nothing.
 */
function serve(vault: string, model: 'default' | 'none' = 'none'): Promise<Served> {
  return startStdioServer({ args: [CLI, 'serve', '--vault', vault, ...(model === 'none' ? ['--model', 'none'] : [])], cwd: ROOT, clientName: 'dexi-e2e' });
}

function textOf(result: CallToolResult): string {
  const block = result.content[0];
  if (block?.type !== 'text') throw new Error(`expected a text block, got ${JSON.stringify(result.content)}`);
  return block.text;
}

/** A successful result: its structuredContent, checked against the JSON in its text block. */
function ok<T>(result: CallToolResult): T {
  if (result.isError) throw new Error(`tool failed: ${textOf(result)}`);
  expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  return result.structuredContent as T;
}

/** True for the plain "not ready yet" refusals the server gives while it reads the vault. */
function notReady(result: CallToolResult): boolean {
  return result.isError === true && /still being (read|built)/.test(textOf(result));
}

/** Call a tool, retrying (bounded) while the server says the vault or index is still being read. */
function callWhenReady(s: Served, name: string, args: Record<string, unknown>, timeoutMs = 15_000): Promise<CallToolResult> {
  return eventually(
    async () => {
      const result = await s.call(name, args);
      return notReady(result) ? undefined : result;
    },
    timeoutMs,
    `${name} to answer`,
  );
}

interface FullNote {
  id: string;
  title: string;
  text: string;
  tags: string[];
  folder?: string;
}
interface SearchResult {
  items: { id: string; title: string; matched_terms?: string[] }[];
  total: number;
  page: number;
}

beforeEach(async () => {
  dir = await copySampleVault();
});

afterEach(async () => {
  const current = served;
  served = undefined;
  // The server exits when its client hangs up.
  if (current) await hangUp(current);
  await removeDir(dir);
});


describe('dexi-vault serve over stdio (built CLI)', () => {
  it('answers initialize quickly, with instructions, and lists every tool with an output schema', async () => {
    // The default model: semantic_search and find_similar are among the tools listed.
    served = await serve(dir, 'default');
    // Spawning Node and loading the modules dominates (about half a second on
    // an idle machine); the bound is generous for a loaded CI runner. That
    // start-up does not wait for the vault is checked below on a large vault.
    expect(served.initializeMs).toBeLessThan(10_000);
    expect(served.client.getServerVersion()?.name).toBe('dexi-vault');
    const instructions = served.client.getInstructions();
    expect(instructions).toMatch(/^dexi-vault: /);
    expect(instructions).toContain('get_note');

    const { tools } = await served.client.listTools();
    const names = tools.map((tool) => tool.name);
    expect([...names].sort()).toEqual([...TOOL_NAMES].sort());
    expect(new Set(names).size).toBe(names.length);
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.description?.length, tool.name).toBeGreaterThan(0);
    }
    expect(served.transportErrors).toEqual([]);
  });

  it('answers initialize before a large vault is read, and tools say so plainly meanwhile', async () => {
    const notes = 2000;
    const files: Record<string, string> = {};
    // No cache yet: the first read parses every file.
    for (let i = 0; i < notes; i++) files[`Folder ${i % 20}/Note ${i}.md`] = `# Note ${i}\n\nSome words about #topic${i % 7}, number ${i}.\n`;
    await writeVault(files, dir);
    served = await serve(dir);
    const s = served;
    expect(s.stderr()).not.toMatch(/Read \d+ notes/);
    expect(s.client.getInstructions()).toContain('The vault is still being read');

    // A call made now waits up to two seconds for the read, then answers
    // either way: with items, or with a plain "still being read" message.
    const started = Date.now();
    const early = await s.call('list_notes', { size: 2 });
    expect(Date.now() - started).toBeLessThan(5000);
    if (early.isError) {
      expect(textOf(early)).toMatch(/^The vault is still being read( \(\d[\d,]* of \d[\d,]* notes read\))?; try again in a few seconds\.$/);
    } else {
      expect((early.structuredContent as { total: number }).total).toBe(await countNotes(dir));
    }
    expect(s.transportErrors).toEqual([]);
    // Writing 2,000 notes, starting the built server and its first read: 14.6 s beside two busy
    // loops (2026-12-03), most of the 20 s default.
  }, 60_000);

  it('creates, reads, finds, appends to and deletes a note; logs only to stderr', async () => {
    const notes = await countNotes(dir);
    served = await serve(dir);
    const s = served;
    const word = `zyxquorble${Math.random().toString(36).replace(/[^a-z]/g, '').slice(0, 6)}`;
    const title = 'End to end round trip';

    const created = ok<FullNote>(await callWhenReady(s, 'create_note', { title, text: `A note with the word ${word} in it. #e2e` }));
    expect(created.title).toBe(title);
    expect(created.tags).toEqual(['#e2e']);
    expect(created.folder).toBeUndefined();
    expect(existsSync(path.join(dir, `${title}.md`))).toBe(true);

    const read = ok<FullNote>(await s.call('get_note', { note_id: created.id }));
    expect(read).toEqual(created);

    // The index may still be building: retry until it answers and has the note.
    const found = await eventually(
      async () => {
        const result = await s.call('search_notes', { query: word });
        if (notReady(result)) return undefined;
        const page = ok<SearchResult>(result);
        return page.items.some((item) => item.id === created.id) ? page : undefined;
      },
      15_000,
      `search_notes to find ${word}`,
    );
    expect(found.total).toBe(1);
    expect(found.items[0]?.id).toBe(created.id);

    const appended = ok<FullNote>(await s.call('update_note', { note_id: created.id, mode: 'append', text: 'An appended line.' }));
    expect(appended.id).toBe(created.id);
    expect(appended.text).toContain(word);
    expect(appended.text).toMatch(/\nAn appended line\.\n?$/);
    expect(ok<FullNote>(await s.call('get_note', { note_id: created.id })).text).toBe(appended.text);

    const deleted = ok<{ deleted: true; id: string; title: string }>(await s.call('delete_note', { note_id: created.id }));
    expect(deleted).toEqual({ deleted: true, id: created.id, title });
    expect(existsSync(path.join(dir, `${title}.md`))).toBe(false);

    const gone = await s.call('get_note', { note_id: created.id });
    expect(gone.isError).toBe(true);
    expect(textOf(gone)).toBe('Note not found');

    // stderr: where it serves from and how many notes it read.
    const root = await realpath(dir);
    const log = await s.stderrMatching(new RegExp(`Read ${notes} notes`));
    expect(log).toContain(root);
    expect(log).toMatch(new RegExp(`Read ${notes} notes in \\d+ folders of ${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(log).not.toMatch(STACK_FRAME);
    for (const line of log.trimEnd().split('\n')) expect(line).toMatch(/^dexi-vault: /);

    // stdout: nothing but protocol messages, or the client would have reported
    // a line it could not parse.
    expect(s.transportErrors).toEqual([]);
  });

  it('reports invalid arguments as plain tool errors, never protocol errors', async () => {
    served = await serve(dir);
    const s = served;

    const size = await s.call('list_notes', { size: 0 });
    expect(size.isError).toBe(true);
    expect(textOf(size)).toBe('size must be between 1 and 50');
    expect(JSON.stringify(size)).not.toContain('-32602');
    expect(JSON.stringify(size)).not.toMatch(/MCP error/);

    const type = await s.call('list_notes', { size: 'ten' });
    expect(type.isError).toBe(true);
    expect(textOf(type)).toBe('size must be a whole number');

    const unknown = await s.call('no_such_tool', {});
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^There is no tool named no_such_tool\./);

    for (const result of [size, type, unknown]) {
      expect(JSON.stringify(result)).not.toMatch(/-32602|MCP error|"code"|\bat \S+:\d+/);
    }
    expect(s.transportErrors).toEqual([]);
  });
});
