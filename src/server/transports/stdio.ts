import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
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
