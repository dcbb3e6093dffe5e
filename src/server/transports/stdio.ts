import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Handover } from './handover.js';
import { LiveInstructionsTransport } from './live-instructions.js';

/**
 * Serve one connection over stdin/stdout; resolves when the client hangs up.
 * `instructions` builds the orientation sent with the `initialize` answer.
 */
export async function serveStdio(server: Server, instructions?: () => string): Promise<void> {
  const stdio = new StdioServerTransport();
  const transport = instructions ? new LiveInstructionsTransport(stdio, instructions) : stdio;
  const closed = new Promise<void>((resolve) => {
    const previous = server.onclose;
    server.onclose = () => {
      previous?.();
      resolve();
    };
    // The client hung up: the connection closes, and with it what it listened to (the server's onclose).
    process.stdin.once('end', () => void server.close().catch(() => undefined).finally(resolve));
  });
  await server.connect(transport);
  await closed;
}

/**
 * Serve one connection over stdin/stdout whose server can be made only
 * once the client has said who it is (see handover.ts): `boot` answers
 * `initialize`, and after the client's `initialized` (`Handover.opened`), `open(boot)` makes
 * the real server (it may ask the client through `boot`, as for its roots).
 * Resolves when the client hangs up; rejects, with the connection closed,
 * when `open` fails.
 */
export async function serveStdioDeferred(boot: Server, open: (boot: Server) => Promise<Server>, rootsChanged: () => void): Promise<void> {
  const handover = new Handover(new StdioServerTransport(), rootsChanged);
  let current = boot;
  let failed: (error: unknown) => void = () => undefined;
  const closed = new Promise<void>((resolve, reject) => {
    failed = reject;
    // The client hung up: the connection closes, and with it what it listened to (the server's onclose).
    process.stdin.once('end', () => void current.close().catch(() => undefined).finally(resolve));
  });
  await boot.connect(handover.boot);
  await handover.start();
  void handover.opened
    .then(() => open(boot))
    .then(async (server) => {
      current = server;
      await server.connect(handover.real);
    })
    .catch(async (error: unknown) => {
      await boot.close().catch(() => undefined);
      failed(error);
    });
  await closed;
}
