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
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
}
