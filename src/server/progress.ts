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

/** A request's progress, and the highest progress it has sent so far (-Infinity before the first). */
interface Sender {
  progress: Progress;
  highest: () => number;
  /** Resolves once the last notification sent is written, and a turn of the event loop after. */
  delivered: () => Promise<void>;
}

/**
 * What sends one request's progress. The protocol wants each notification's
 * progress above the last: one that is not is not sent.
 */
function sender(token: ProgressToken, send: Send): Sender {
  let last = -Infinity;
  let sent = -Infinity;
  let written: Promise<unknown> = Promise.resolve();
  const progress: Progress = (done, total, message) => {
    const now = performance.now();
    const final = total !== undefined && done >= total;
    if (done <= sent || (!final && now - last < PROGRESS_INTERVAL_MS)) return;
    last = now;
    sent = done;
    const params = { progressToken: token, progress: done, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) };
    // A client gone meanwhile is no reason to stop the call.
    written = send({ method: 'notifications/progress', params }).catch(() => undefined);
  };
  // The SDK's client handles a notification a microtask after reading it and
  // an answer at once: when the last step and the answer came in one read,
  // the answer had already retired the token, and the step was reported as
  // an error ("unknown progress token"; seen over stdio with the built CLI).
  // So the answer goes out a turn of the event loop after the last step.
  const delivered = async (): Promise<void> => {
    if (sent === -Infinity) return;
    await written;
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
  return { progress, highest: () => sent, delivered };
}

/** What sends one request's progress, or undefined when it carried no token. */
export function progressSender(token: ProgressToken | undefined, send: Send): Progress | undefined {
  return token === undefined ? undefined : sender(token, send).progress;
}

/**
 * One call's context, with `progress` when the request carried a token, and
 * what the wait for the vault's first read tells (`waiting`) before the call
 * runs. Both go out on the one token, so the call's own steps, which count
 * from 0, are sent above the highest the wait sent: otherwise every one of
 * them would be below it, and none would be sent.
 */
export function callContext(
  context: ToolContext,
  token: ProgressToken | undefined,
  send: Send,
): { call: ToolContext; waiting?: Progress; delivered?: () => Promise<void> } {
  if (token === undefined) return { call: context };
  const { progress: waiting, highest, delivered } = sender(token, send);
  let base: number | undefined;
  const progress: Progress = (done, total, message) => {
    base ??= Math.max(0, highest());
    waiting(base + done, total === undefined ? undefined : base + total, message);
  };
  return { call: { ...context, progress }, waiting, delivered };
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
