import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { callContext, progressSender } from '../../src/server/progress.js';
import type { ToolContext } from '../../src/tools/tool.js';

type Sent = { progress: number; total?: number };

function recorder(): { send: (notification: ServerNotification) => Promise<void>; sent: Sent[]; events: string[] } {
  const sent: Sent[] = [];
  const events: string[] = [];
  const send = async (notification: ServerNotification): Promise<void> => {
    const params = notification.params as Sent;
    // Written a few turns later, as a transport's write is.
    await new Promise((resolve) => setTimeout(resolve, 5));
    sent.push({ progress: params.progress, ...(params.total === undefined ? {} : { total: params.total }) });
    events.push(`written ${params.progress}`);
  };
  return { send, sent, events };
}

describe('progressSender', () => {
  it('sends nothing without a token', () => {
    expect(progressSender(undefined, recorder().send)).toBeUndefined();
  });

  it.each([
    { name: 'a rising count within the interval sends the first and the last step', steps: [[1, 3], [2, 3], [3, 3]], expected: [1, 3] },
    { name: 'a step not above the last sent is dropped', steps: [[5, 10], [2, 10], [10, 10]], expected: [5, 10] },
    { name: 'a count without a total sends its first step', steps: [[1], [2]], expected: [1] },
  ])('$name', async ({ steps, expected }) => {
    const { send, sent } = recorder();
    const progress = progressSender(7, send);
    for (const [done, total] of steps) progress?.(done as number, total);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(sent.map((step) => step.progress)).toEqual(expected);
  });
});

describe('callContext', () => {
  const context = {} as ToolContext;

  it('has nothing to wait for without a token', () => {
    const { call, waiting, delivered } = callContext(context, undefined, recorder().send);
    expect(call).toBe(context);
    expect(waiting).toBeUndefined();
    expect(delivered).toBeUndefined();
  });

  it('lets the answer go only after the last step is written', async () => {
    const { send, events } = recorder();
    const { call, delivered } = callContext(context, 'token', send);
    call.progress?.(1, 2);
    call.progress?.(2, 2);
    await delivered?.();
    events.push('answer');
    expect(events).toEqual(['written 1', 'written 2', 'answer']);
  });

  it('counts the call’s own steps on above what the wait for the first read sent', async () => {
    const { send, sent } = recorder();
    const { call, waiting, delivered } = callContext(context, 'token', send);
    waiting?.(39, 44);
    call.progress?.(1, 1);
    await delivered?.();
    expect(sent).toEqual([
      { progress: 39, total: 44 },
      { progress: 40, total: 40 },
    ]);
  });
});
