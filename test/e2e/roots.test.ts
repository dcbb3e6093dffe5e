import type { CallToolResult, Root } from '@modelcontextprotocol/sdk/types.js';
import { ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { cp, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copySampleVault, removeDir, tempDir } from '../support/helpers.js';
import { CLI, countNotes } from '../support/process.js';
import { killHard, startStdioServer, type StdioServer } from '../support/stdio-server.js';

/**
 * `serve` over stdio with neither --vault nor $DEXI_VAULT (issue 34): the
 * built CLI, spawned in a folder that is not the vault, takes the vault
 * from the client's roots. Requests sent before the vault is open wait for
 * it and are answered as usual; a client without roots gets the current
 * folder, as before roots.
 */

let vault: string;
let elsewhere: string;
const started: StdioServer[] = [];

/** This process's environment without the variables that would name a vault. */
function envWithoutVault(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== 'DEXI_VAULT' && key !== 'DEXI_READ_ONLY') env[key] = value;
  return env;
}

interface Offer {
  /** The roots the client lists; none: the client does not declare roots. */
  roots?: Root[];
  /** The client holds its roots/list answer until this settles. */
  answerAfter?: Promise<unknown>;
  /** The client declares form elicitation and answers every question with decline. */
  declines?: boolean;
}

async function serve(cwd: string, offer: Offer, args: string[] = []): Promise<StdioServer> {
  const capabilities = { ...(offer.roots ? { roots: { listChanged: true } } : {}), ...(offer.declines ? { elicitation: { form: {} } } : {}) };
  const server = await startStdioServer({
    args: [CLI, 'serve', '--model', 'none', ...args],
    cwd,
    env: envWithoutVault(),
    clientName: 'dexi-roots',
    offers: {
      capabilities,
      handle: (client) => {
        const { roots } = offer;
        if (roots) {
          client.setRequestHandler(ListRootsRequestSchema, async () => {
            await offer.answerAfter;
            return { roots };
          });
        }
        if (offer.declines) client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'decline' }));
      },
    },
  });
  started.push(server);
  return server;
}

function listed(result: CallToolResult): { total: number; items: { id: string; title: string }[] } {
  if (result.isError) throw new Error(`list_notes failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as { total: number; items: { id: string; title: string }[] };
}

const rootOf = (dir: string): Root => ({ uri: pathToFileURL(dir).href, name: path.basename(dir) });

beforeEach(async () => {
  vault = await copySampleVault();
  elsewhere = await tempDir('dexi-roots-cwd-');
});

afterEach(async () => {
  for (const server of started.splice(0)) {
    const pid = server.pid;
    await server.client.close().catch(() => undefined);
    killHard(pid);
  }
  await removeDir(vault);
  await removeDir(elsewhere);
});

describe('serve over stdio with the vault taken from the client\'s roots', () => {
  it('serves the root: requests sent before the roots are answered wait, then are answered as usual', async () => {
    let answerRoots: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      answerRoots = resolve;
    });
    const s = await serve(elsewhere, { roots: [rootOf(vault)], answerAfter: held });
    // Both are on their way before the server knows its vault.
    const tools = s.client.listTools();
    const notes = s.call('list_notes', { size: 50 });
    answerRoots();
    expect((await tools).tools.map((tool) => tool.name)).toContain('list_notes');
    const answer = listed(await notes);
    expect(answer.total).toBe(await countNotes(vault));
    expect(answer.items.length).toBe(Math.min(answer.total, 50));
    expect(await s.stderrMatching(/Serving .* over stdio \(version [^)]+\), the client's root\./)).toContain(await realpath(vault));
    expect(s.transportErrors).toEqual([]);
  });

  it('tells the client what a server given --vault tells it, and the real server knows the client: links by protocol version, questions by elicitation', async () => {
    const s = await serve(elsewhere, { roots: [rootOf(vault)], declines: true });
    const given = await startStdioServer({ args: [CLI, 'serve', '--model', 'none', '--vault', vault], cwd: elsewhere, env: envWithoutVault(), clientName: 'dexi-roots' });
    started.push(given);
    expect(s.client.getServerCapabilities()).toEqual(given.client.getServerCapabilities());
    expect(s.client.getServerVersion()).toEqual(given.client.getServerVersion());
    expect(s.client.getInstructions()).toMatch(/The vault is the first folder among the client's roots/);

    const result = await s.call('list_notes', { size: 1 });
    const note = listed(result).items[0];
    if (!note) throw new Error('no note listed');
    expect(result.content).toContainEqual(expect.objectContaining({ type: 'resource_link', name: note.title }));
    const refused = await s.call('delete_note', { note_id: note.id });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/declined to delete/);
  });

  it('skips what is no folder, says so, and serves the first root that is one (percent-encoded path)', async () => {
    const spaced = path.join(elsewhere, 'My notes é#1');
    await cp(vault, spaced, { recursive: true });
    const missing = path.join(elsewhere, 'gone');
    const s = await serve(elsewhere, {
      roots: [{ uri: 'https://example.com/notes' }, rootOf(missing), rootOf(path.join(vault, 'Welcome.md')), rootOf(spaced), rootOf(vault)],
    });
    expect(pathToFileURL(spaced).href).toContain('%20');
    const answer = listed(await s.call('list_notes', { size: 50 }));
    expect(answer.total).toBe(await countNotes(spaced));
    const log = await s.stderrMatching(/Serving .* over stdio/);
    expect(log).toContain("Skipped the client's root https://example.com/notes: its scheme is https, and only file:// roots name a folder.");
    expect(log).toContain(`Skipped the client's root ${pathToFileURL(missing).href}: The vault folder ${missing} does not exist;`);
    expect(log).toContain('The client offered 5 roots; one server serves one vault, so the root after');
    expect(log).toContain(`Serving ${await realpath(spaced)} over stdio`);
  });

  it('serves the current folder when no root is usable, and keeps its vault when the roots change', async () => {
    const s = await serve(vault, { roots: [{ uri: 'file://other-host/notes' }] });
    expect(listed(await s.call('list_notes', { size: 50 })).total).toBe(await countNotes(vault));
    expect(await s.stderrMatching(/Serving .* over stdio/)).toMatch(/Skipped the client's root file:\/\/other-host\/notes: it names a folder on another machine \(other-host\)\.\n[^]*the current folder \(none of the client's roots is a folder that can be served\)/);
    await s.client.sendRootsListChanged();
    expect(await s.stderrMatching(/roots changed/)).toContain(`The client's roots changed; this server keeps serving ${await realpath(vault)} until it is started again.`);
    // Still answering, the same vault.
    expect(listed(await s.call('list_notes', { size: 50 })).total).toBe(await countNotes(vault));
  });

  it('serves the current folder to a client without roots, as before roots', async () => {
    const s = await serve(vault, {});
    expect(listed(await s.call('list_notes', { size: 50 })).total).toBe(await countNotes(vault));
    expect(await s.stderrMatching(/Serving/)).toContain('the current folder (the client offers no roots, and neither --vault nor $DEXI_VAULT names a vault)');
  });

  it('ends, with the sentence --vault would get, when the root chosen cannot be opened as a vault', async () => {
    await writeFile(path.join(vault, '.dexi', 'settings.json'), '{ not json');
    const s = await serve(elsewhere, { roots: [rootOf(vault)] });
    await expect(s.call('list_notes', {})).rejects.toThrow(/Connection closed/);
    expect(await s.stderrMatching(/settings/)).toContain(`${await realpath(vault)}/.dexi/settings.json is not valid JSON; fix or delete it.`);
  });

  it('keeps the boundary of the command line over a root', async () => {
    const s = await serve(elsewhere, { roots: [rootOf(vault)] }, ['--read-only']);
    const names = (await s.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('list_notes');
    expect(names).not.toContain('delete_note');
    expect(s.client.getInstructions()).toMatch(/It is read-only\./);
  });
});
