import { LoggingMessageNotificationSchema, type LoggingMessageNotification, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copySampleVault, removeDir } from '../support/helpers.js';
import { hangUp, startStdioServer, type StdioServer } from '../support/stdio-server.js';
import { CLI, eventually, ROOT } from '../support/process.js';

/**
 * Progress and log messages as a client spawning the built CLI hears them
 * over stdio (issue 34). The MCP Inspector's CLI, the other third-party
 * client the suite drives, prints neither (test/e2e/inspector.test.ts says
 * why), so the SDK's client listens here. Which calls report progress, the
 * throttle, and the levels and boundaries of log messages are tested in
 * process: test/tools/rename-tag.test.ts, test/server/logging.test.ts.
 */

const TIMEOUT = 60_000;
/** One byte over the note size limit: the server skips such a file and warns. */
const OVERSIZE = 4 * 1024 * 1024 + 1;

let dir: string;
let served: StdioServer | undefined;

beforeEach(async () => {
  dir = await copySampleVault();
  served = await startStdioServer({ args: [CLI, 'serve', '--vault', dir, '--model', 'none'], cwd: ROOT, clientName: 'dexi-e2e-notifications' });
});

afterEach(async () => {
  const current = served;
  served = undefined;
  if (current) await hangUp(current);
  await removeDir(dir);
});

function server(): StdioServer {
  if (!served) throw new Error('no server');
  return served;
}

describe('notifications from the built CLI over stdio', () => {
  it(
    'a rename_tag with a progress token hears its progress, rising to its last step',
    async () => {
      const s = server();
      // The first read done: the progress heard is the rename's own, not the wait's.
      expect((await s.call('list_notes', { size: 1 })).isError).not.toBe(true);
      const heard: Progress[] = [];
      const result = await s.client.callTool({ name: 'rename_tag', arguments: { from: '#garden', to: '#gardening' } }, undefined, {
        onprogress: (step) => heard.push(step),
      });
      expect(result.isError).not.toBe(true);
      const renamed = (result.structuredContent as { renamed_notes: number }).renamed_notes;
      expect(renamed).toBeGreaterThan(1);
      expect(heard.length).toBeGreaterThan(0);
      for (const step of heard) expect(step.total).toBe(renamed);
      for (let i = 1; i < heard.length; i++) expect(heard[i]?.progress).toBeGreaterThan(heard[i - 1]?.progress ?? Infinity);
      // The last step is always sent, just before the answer. The SDK's client
      // hands a notification to its handler a microtask late but takes a
      // response at once, so when both come in one read of stdout the step
      // finds its request gone and reaches onerror instead, as an unknown token.
      const lost = s.transportErrors.map((error) => error.message);
      if (heard.at(-1)?.progress === renamed) expect(lost).toEqual([]);
      else {
        expect(lost).toHaveLength(1);
        expect(lost[0]).toMatch(/^Received a progress notification for an unknown token: /);
        expect(lost[0]).toContain(`"progress":${renamed}`);
        expect(lost[0]).toContain(`"total":${renamed}`);
      }
    },
    TIMEOUT,
  );

  it(
    'logging/setLevel is honoured: a warning below the level set is not sent, one at it is',
    async () => {
      const s = server();
      const heard: LoggingMessageNotification['params'][] = [];
      s.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void heard.push(notification.params));
      expect(s.client.getServerCapabilities()?.logging).toEqual({});
      expect((await s.call('list_notes', { size: 1 })).isError).not.toBe(true);

      expect(await s.client.setLoggingLevel('error')).toEqual({});
      await writeFile(path.join(dir, 'huge-1.md'), 'x'.repeat(OVERSIZE));
      await s.stderrMatching(/Skipping huge-1\.md: /);
      // Whatever the server sent before the ping's answer has arrived once it is back.
      await s.client.ping();
      expect(heard.filter((message) => String(message.data).includes('huge-1.md'))).toEqual([]);

      expect(await s.client.setLoggingLevel('warning')).toEqual({});
      await writeFile(path.join(dir, 'huge-2.md'), 'x'.repeat(OVERSIZE));
      const warning = await eventually(async () => heard.find((message) => String(message.data).includes('huge-2.md')), 15_000, 'the warning about huge-2.md');
      expect(warning).toEqual({ level: 'warning', logger: 'dexi-vault', data: `Skipping huge-2.md: ${OVERSIZE} bytes is over the 4 MiB note limit.` });
      expect(heard.filter((message) => String(message.data).includes('huge-1.md'))).toEqual([]);
    },
    TIMEOUT,
  );
});
