/**
 * Progress of a tool call, as MCP has the client ask for it: a request whose
 * `_meta.progressToken` is set hears `notifications/progress` with that token
 * while the call runs. The tool only says how far it is (ToolContext's
 * `progress`); this sends it, at most every PROGRESS_INTERVAL_MS and always
 * the last step, so that a rename over 10,000 notes is not 10,000 messages.
 */
import type { ProgressToken, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from '../tools/tool.js';

const PROGRESS_INTERVAL_MS = 100;

/** The context for one call: `context` with `progress` when the request carried a token. */
export function callContext(context: ToolContext, token: ProgressToken | undefined, send: (notification: ServerNotification) => Promise<void>): ToolContext {
  if (token === undefined) return context;
  let last = -Infinity;
  const progress = (done: number, total: number): void => {
    const now = performance.now();
    if (done < total && now - last < PROGRESS_INTERVAL_MS) return;
    last = now;
    // A client gone meanwhile is no reason to stop the call.
    send({ method: 'notifications/progress', params: { progressToken: token, progress: done, total } }).catch(() => undefined);
  };
  return { ...context, progress };
}
