import type { z } from 'zod';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { VaultView } from '../access/view.js';

export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** One plain sentence for a failed argument check, never the schema's own dump. */
export function describeInvalidArguments(toolName: string, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return `The arguments to ${toolName} are not valid.`;
  if (issue.path.length === 0) return `The arguments to ${toolName} must be an object of named parameters.`;
  // Messages written in the schemas already name the parameter.
  const name = issue.path.join('.');
  return issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`;
}

/** Unknown parameters are named rather than silently dropped, so a misspelt filter is noticed. */
export function describeUnknownArguments(toolName: string, unknown: string[], accepted: string[]): string {
  const takes = accepted.length === 0 ? 'it takes no parameters' : `it takes: ${accepted.join(', ')}`;
  return `${toolName} does not take ${unknown.join(', ')}; ${takes}.`;
}

/** The HTTP server could not start (port in use, bad host): said plainly, in the CLI. */
export class HttpStartError extends Error {}

/**
 * Wait for the vault's first read before answering a request that is not a
 * tool call (a resource, a prompt), as a tool call waits: a one-shot client
 * asks at once after initialize. Such requests can only fail as JSON-RPC
 * errors, so a vault still being read becomes one, with its plain sentence.
 */
export async function viewReadyForRequest(view: VaultView): Promise<void> {
  try {
    await view.assertReady();
  } catch (error) {
    throw new McpError(ErrorCode.InternalError, error instanceof Error ? error.message : String(error));
  }
}
