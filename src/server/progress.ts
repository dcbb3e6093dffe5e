/**
 * Progress of a call, as MCP has the client ask for it: a request whose
 * `_meta.progressToken` is set hears `notifications/progress` with that token
 * while the call runs. The call only says how far it is (ToolContext's
 * `progress`); this sends it, at most every PROGRESS_INTERVAL_MS and always
 * the last step, so that a rename over 10,000 notes is not 10,000 messages.
 */
import type { ProgressToken, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { VaultView } from '../access/view.js';
import { READY_WAIT_WITH_PROGRESS_MS } from '../access/readiness.js';
import { viewReadyForRequest } from './errors.js';
import type { ToolContext } from '../tools/tool.js';

const PROGRESS_INTERVAL_MS = 100;

type Send = (notification: ServerNotification) => Promise<void>;
type Progress = NonNullable<ToolContext['progress']>;

/**
 * What sends one call's progress, or undefined when its request carried no
 * token. The protocol wants each notification's progress above the last:
 * one that is not (a second phase counting from 0 again) is not sent.
 */
export function progressSender(token: ProgressToken | undefined, send: Send): Progress | undefined {
  if (token === undefined) return undefined;
  let last = -Infinity;
  let sent = -Infinity;
  return (done, total, message) => {
    const now = performance.now();
    const final = total !== undefined && done >= total;
    if (done <= sent || (!final && now - last < PROGRESS_INTERVAL_MS)) return;
    last = now;
    sent = done;
    const params = { progressToken: token, progress: done, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) };
    // A client gone meanwhile is no reason to stop the call.
    send({ method: 'notifications/progress', params }).catch(() => undefined);
  };
}

/** The context for one call: `context` with `progress` when the request carried a token. */
export function callContext(context: ToolContext, token: ProgressToken | undefined, send: Send): ToolContext {
  const progress = progressSender(token, send);
  return progress ? { ...context, progress } : context;
}

/**
 * Before a call whose client asked for progress: wait for the first read of
 * the vault, longer than a call without a token does, telling the client how
 * far the read is. If the read is still not done, the call goes on and says
 * so itself.
 */
export async function awaitReadWithProgress(view: VaultView, progress: Progress | undefined): Promise<void> {
  if (!progress) return;
  const told = (done: number, total?: number): void =>
    progress(done, total, total === undefined ? `Waiting for the vault to be read (${done} s so far)` : `Reading the vault: ${done.toLocaleString('en')} of ${total.toLocaleString('en')} notes`);
  await view.assertReady(undefined, READY_WAIT_WITH_PROGRESS_MS, told).catch(() => undefined);
}

/**
 * Before a request other than a tool call (a prompt, a resource list, read
 * or subscription): the same wait as a tool call's, then the protocol error
 * of a vault still being read.
 */
export async function readyForRequest(view: VaultView, params: { _meta?: { progressToken?: ProgressToken } } | undefined, send: Send): Promise<void> {
  await awaitReadWithProgress(view, progressSender(params?._meta?.progressToken, send));
  await viewReadyForRequest(view);
}
