import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, TokenStore } from '../../../src/access/tokens.js';
import { serveHttp, type HttpHandle } from '../../../src/server/transports/http.js';
import { ServedVault } from '../../../src/server/served-vault.js';
import { ALL_TOOLS } from '../../../src/tools/index.js';
import { DEFAULT_SETTINGS } from '../../../src/vault/settings.js';
import { removeDir, TestClock, tempDir, writeVault } from '../../support/helpers.js';
import { testClient } from '../../support/test-client.js';

/**
 * Over HTTP each token brings its own scopes; on a vault the server cannot
 * write, a token that grants notes:write still gets the read tools only
 * (the CLI opens such a vault with `readOnly`; test/e2e/read-only-vault.test.ts
 * checks that decision on a real unwritable folder).
 */

let vault: string;
let outside: string;
let runtime: ServedVault;
let server: HttpHandle;
let secret: string;
let client: Client | undefined;

beforeAll(async () => {
  vault = await writeVault({ 'Work/plan.md': '# Plan\n\nThe quarterly plan.\n' });
  ({ secret } = await createToken(vault, { name: 'everything', scopes: ['notes:read', 'notes:write'] }, new Date('2026-12-01T00:00:00Z')));
  outside = await tempDir();
  runtime = await ServedVault.open({ vaultDir: vault, settings: DEFAULT_SETTINGS, shared: [], clock: new TestClock(), log: () => undefined, watch: false, readOnly: true, cacheDir: outside });
  await runtime.loaded;
  server = await serveHttp({ runtime, tokens: new TokenStore(vault), port: 0, tools: ALL_TOOLS, serverInfo: { name: 'dexi-vault', version: 'test' }, log: () => undefined });
});

afterAll(async () => {
  await client?.close();
  await server.close();
  await runtime.close();
  await removeDir(vault);
  await removeDir(outside);
});

describe('serve --http on a vault that cannot be written', () => {
  it('gives a token with notes:write the read tools only, and refuses a write by name', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${secret}` } } });
    client = testClient('read-only-http-test');
    await client.connect(transport);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('search_notes');
    for (const write of ['create_note', 'update_note', 'edit_note', 'move_note', 'set_properties', 'complete_task', 'rename_tag', 'delete_note', 'grade_review']) expect(names).not.toContain(write);
    expect(client.getInstructions()).toContain('It is read-only.');
    const refused = (await client.callTool({ name: 'create_note', arguments: { title: 'New', content: 'x' } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('This connection lacks the notes:write scope that create_note needs.');
    const found = (await client.callTool({ name: 'search_notes', arguments: { query: 'quarterly' } })) as CallToolResult;
    expect(found.isError).toBeFalsy();
    expect(JSON.stringify(found.structuredContent)).toContain('Plan');
    // Only the token file the test made is in .dexi/: no cache, no record.
    expect((await readdir(path.join(vault, '.dexi'))).filter((name) => !name.startsWith('tokens.json'))).toEqual([]);
  });
});
