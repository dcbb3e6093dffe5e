import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isInitializeRequest, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * The SDK's Server takes its `instructions` once, when it is built, but the
 * vault is still being read then (start-up never waits for it). This
 * transport decorator writes instructions built at the moment `initialize`
 * is answered into that one response, so an assistant learns the vault as it
 * is when it connects. Nothing else passes through it changed.
 */
export class LiveInstructionsTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private readonly initializeIds = new Set<RequestId>();

  constructor(
    private readonly inner: Transport,
    private readonly build: () => string,
  ) {
    inner.onmessage = (message, extra) => {
      if (isInitializeRequest(message) && 'id' in message) this.initializeIds.add(message.id as RequestId);
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ('id' in message && 'result' in message && this.initializeIds.delete(message.id)) {
      return this.inner.send({ ...message, result: { ...message.result, instructions: this.build() } }, options);
    }
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
