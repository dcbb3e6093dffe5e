import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteListeners } from '../../../src/access/note-changes.js';
import { createToken, TokenStore } from '../../../src/access/tokens.js';
import { serveHttp, type HttpHandle } from '../../../src/server/transports/http.js';
import { ServedVault } from '../../../src/server/served-vault.js';
import { ALL_TOOLS } from '../../../src/tools/index.js';
import { DEFAULT_SETTINGS } from '../../../src/vault/settings.js';
import { removeDir, TestClock, writeVault } from '../../support/helpers.js';

/**
 * HTTP takes up to 1,000 sessions at once. Each one that lists or follows
 * resources listens to the vault's changes: through its view, with the vault
 * holding one listener however many sessions listen (a listener each was a
 * MaxListenersExceededWarning past ten), and nothing left once they close.
 */

const SESSIONS = 1000;
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const PROTOCOL = '2025-06-18';

let dir: string;
let runtime: ServedVault;
let server: HttpHandle;
const secrets: string[] = [];

beforeAll(async () => {
  dir = await writeVault({
    'Work/Plan.md': 'The plan. #work\n',
    'Home/Chores.md': 'Chores.\n',
    'Loose.md': 'Loose thought #work\n',
  });
  runtime = await ServedVault.open({ vaultDir: dir, settings: { ...DEFAULT_SETTINGS }, shared: [], clock: new TestClock(), log: () => undefined, watch: false });
  await runtime.loaded;
  // Four tokens, each at its share of the sessions (a quarter), with different boundaries.
  for (const [name, boundary] of [['all', {}], ['work-folder', { folder: 'Work' }], ['work-tag', { tag: 'work' }], ['reader', { scopes: ['notes:read' as const] }]] as const) {
    secrets.push((await createToken(dir, { name, ...boundary })).secret);
  }
  server = await serveHttp({ runtime, tokens: new TokenStore(dir), port: 0, tools: ALL_TOOLS, serverInfo: { name: 'dexi-vault', version: 'test' }, log: () => undefined });
});

afterAll(async () => {
  await server?.close();
  await runtime?.close();
  await removeDir(dir);
});

async function post(secret: string, body: unknown, session?: string): Promise<{ status: number; session: string | null; text: string }> {
  const headers: Record<string, string> = { ...HEADERS, authorization: `Bearer ${secret}`, 'mcp-protocol-version': PROTOCOL };
  if (session !== undefined) headers['mcp-session-id'] = session;
  const response = await fetch(server.url, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, session: response.headers.get('mcp-session-id'), text: await response.text() };
}

/** A session that has listed the resources (so it listens to the notes' changes); its id. */
async function openListingSession(secret: string): Promise<string> {
  const init = await post(secret, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'many', version: '1' } } });
  if (init.status !== 200 || init.session === null) throw new Error(`initialize failed: ${init.status} ${init.text}`);
  const listed = await post(secret, { jsonrpc: '2.0', id: 2, method: 'resources/list' }, init.session);
  if (!listed.text.includes('dexi-note://')) throw new Error(`resources/list failed: ${listed.status} ${listed.text}`);
  return init.session;
}

async function endSession(secret: string, session: string): Promise<void> {
  const response = await fetch(server.url, { method: 'DELETE', headers: { authorization: `Bearer ${secret}`, 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL } });
  await response.text();
  if (response.status !== 200) throw new Error(`DELETE answered ${response.status}`);
}

describe('1,000 HTTP sessions listening to the notes', () => {
  it('hold one listener on the vault, warn of nothing, and leave the counts as they were once closed', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(`${warning.name}: ${warning.message}`);
    };
    process.on('warning', onWarning);
    try {
      const vault = runtime.own;
      const baseline = { note: vault.listenerCount('note'), removed: vault.listenerCount('removed'), watchers: noteListeners(vault) };
      expect(baseline.watchers).toBe(0);

      const sessions: { secret: string; id: string }[] = [];
      // A few at a time per token: each token holds a quarter of the server's sessions.
      for (let i = 0; i < SESSIONS; i += 20) {
        const batch = Array.from({ length: 20 }, (_, k) => secrets[(i + k) % secrets.length] as string);
        sessions.push(...(await Promise.all(batch.map(async (secret) => ({ secret, id: await openListingSession(secret) })))));
      }
      expect(server.sessionCount()).toBe(SESSIONS);
      expect(noteListeners(vault)).toBe(SESSIONS);
      expect(vault.listenerCount('note')).toBe(baseline.note + 1);
      expect(vault.listenerCount('removed')).toBe(baseline.removed + 1);

      // Every session ends (HTTP DELETE): each connection's listener goes with it.
      for (let i = 0; i < sessions.length; i += 50) await Promise.all(sessions.slice(i, i + 50).map(({ secret, id }) => endSession(secret, id)));
      expect(server.sessionCount()).toBe(0);
      expect(noteListeners(vault)).toBe(0);
      expect(vault.listenerCount('note')).toBe(baseline.note);
      expect(vault.listenerCount('removed')).toBe(baseline.removed);

      // Warnings are emitted on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.includes('MaxListeners'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  }, 300_000);
});
