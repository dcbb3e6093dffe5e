import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LoggingMessageNotificationSchema, type LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/access/policy.js';
import { PUBLIC_WARNING } from '../../src/vault/logger.js';
import { openShared, type Connection, type Shared } from '../support/harness.js';
import { removeDir } from '../support/helpers.js';

/**
 * The server's warnings reach MCP clients as notifications/message (issue
 * 34): at and above the level each client set, and, for a connection
 * limited to a folder or a tag, only those that name nothing in the vault.
 */

type Heard = LoggingMessageNotification['params'][];

/** A connection that keeps every log message it hears. */
async function listening(shared: Shared, policy = createPolicy()): Promise<{ connection: Connection; heard: Heard }> {
  const connection = await shared.connect({ policy });
  const heard: Heard = [];
  connection.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void heard.push(notification.params));
  return { connection, heard };
}

/** Resolves once `heard` holds a line matching `pattern`. */
async function until(heard: Heard, pattern: RegExp): Promise<LoggingMessageNotification['params']> {
  for (;;) {
    const found = heard.find((message) => pattern.test(String(message.data)));
    if (found) return found;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Everything sent to `connection` before now has arrived once a ping comes back. */
const settled = (connection: Connection): Promise<unknown> => connection.client.ping();

describe('log messages to clients', () => {
  let dir: string;
  let shared: Shared;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'dexi-logging-'));
    await mkdir(path.join(dir, 'Work'));
    await writeFile(path.join(dir, 'Work', 'plan.md'), '# Plan\n');
    await writeFile(path.join(dir, 'private.md'), '# Private\n');
    shared = await openShared(dir);
  });

  afterAll(async () => {
    await shared.close();
    await removeDir(dir);
  });

  it('offers the logging capability', async () => {
    const { connection } = await listening(shared);
    expect(connection.client.getServerCapabilities()?.logging).toEqual({});
  });

  it('a note skipped as too large: heard as a warning by a whole-vault connection, not by a bounded one or one that asked only for errors', async () => {
    const whole = await listening(shared);
    const errorsOnly = await listening(shared);
    await errorsOnly.connection.client.setLoggingLevel('error');
    const folder = await listening(shared, createPolicy({ folder: 'Work' }));
    const tag = await listening(shared, createPolicy({ tag: '#work' }));
    await writeFile(path.join(dir, 'Work', 'huge.md'), `# Huge\n${'x'.repeat(4 * 1024 * 1024 + 10)}\n`);
    const message = await until(whole.heard, /huge\.md/);
    expect(message).toMatchObject({ level: 'warning', logger: 'dexi-vault' });
    expect(message.data).toMatch(/^Skipping Work\/huge\.md: \d+ bytes is over the 4 MiB note limit\.$/);
    for (const other of [errorsOnly, folder, tag]) {
      await settled(other.connection);
      expect(other.heard).toEqual([]);
    }
  });

  it('a warning that names nothing in the vault reaches bounded connections too, at their level', async () => {
    const folder = await listening(shared, createPolicy({ folder: 'Work' }));
    const errorsOnly = await listening(shared, createPolicy({ tag: '#work' }));
    await errorsOnly.connection.client.setLoggingLevel('error');
    shared.runtime.logs.log('semantic search unavailable: the model could not be loaded', PUBLIC_WARNING);
    expect(await until(folder.heard, /semantic search unavailable/)).toEqual({ level: 'warning', logger: 'dexi-vault', data: 'semantic search unavailable: the model could not be loaded' });
    await settled(errorsOnly.connection);
    expect(errorsOnly.heard).toEqual([]);
  });

  it('a line without a level stays on stderr', async () => {
    const whole = await listening(shared);
    shared.runtime.logs.log('Read 2 notes in 1 folder.');
    await settled(whole.connection);
    expect(whole.heard).toEqual([]);
    expect(shared.logs).toContain('Read 2 notes in 1 folder.');
  });

  it('a closed connection stops listening', async () => {
    const before = shared.runtime.logs.listening;
    const { connection } = await listening(shared);
    expect(shared.runtime.logs.listening).toBe(before + 1);
    await connection.close();
    expect(shared.runtime.logs.listening).toBe(before);
  });
});
