import type { z } from 'zod';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { VaultView } from '../access/view.js';
import { DexiError } from '../vault/errors.js';
import type { Logger } from '../vault/vault.js';

export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * The tool error a call ends with when its handler threw: a DexiError's own
 * sentence, word for word; anything else is logged with its stack, and the
 * assistant reads that the tool could not finish, with the reason when the
 * system gave one a person can act on.
 */
export function thrownResult(toolName: string, error: unknown, log: Logger): CallToolResult {
  if (error instanceof DexiError) return errorResult(error.toolSentence);
  const code = (error as NodeJS.ErrnoException).code;
  log(`${toolName} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  const detail = code === 'EACCES' || code === 'EPERM' ? ' (permission denied on the vault folder)' : code === 'ENOSPC' ? ' (the disk is full)' : '';
  return errorResult(`${toolName} could not finish${detail}. Nothing was lost; try again, and see the server log if it keeps failing.`);
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
export class HttpStartError extends DexiError {}

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
    throw new McpError(ErrorCode.InternalError, error instanceof DexiError ? error.toolSentence : error instanceof Error ? error.message : String(error));
  }
}
