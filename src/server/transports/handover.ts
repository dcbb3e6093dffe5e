import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isInitializedNotification,
  isInitializeRequest,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

const ROOTS_CHANGED = 'notifications/roots/list_changed';

/** The id a response answers, or undefined for a request or a notification (checked by shape: this runs on every message). */
function answeredId(message: JSONRPCMessage): RequestId | undefined {
  return 'id' in message && ('result' in message || 'error' in message) ? message.id : undefined;
}

/** One side of the handover: a transport a `Server` connects to. */
class Side implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(
    private readonly started: () => void,
    private readonly sending: (message: JSONRPCMessage, options?: TransportSendOptions) => Promise<void>,
    private readonly closing: () => Promise<void>,
  ) {}

  async start(): Promise<void> {
    this.started();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.sending(message, options);
  }

  close(): Promise<void> {
    return this.closing();
  }
}

/**
 * One client connection served by two servers in turn. The SDK's `Server`
 * is built for one vault, but with the vault taken from the client's roots
 * the vault is known only after `initialize` has been answered. So a
 * stand-in server (`boot`) answers `initialize` and `ping`, and asks the
 * client for its roots; every other message waits. Once the real server
 * connects (`real`), it is handed the recorded `initialize` request (its
 * answer is dropped: the client has had one) and `initialized`
 * notification, so that it knows the client's capabilities and protocol
 * version as if it had answered them itself, then the waiting messages in
 * their order, then the live ones. Nothing a client sends is refused
 * meanwhile: it is answered once the real server has it.
 *
 * `rootsChanged` hears the client's `notifications/roots/list_changed`,
 * which neither server acts on: the vault chosen stays served.
 */
export class Handover {
  readonly boot: Transport;
  readonly real: Transport;
  private initialize: JSONRPCMessage | undefined;
  private initialized: JSONRPCMessage | undefined;
  /** The `initialize` whose answer from the real server is dropped, once. */
  private replayedId: RequestId | undefined;
  private readonly waiting: { message: JSONRPCMessage; extra: MessageExtraInfo | undefined }[] = [];
  /** The stand-in's requests still unanswered: their answers go to it even after the handover (both servers number requests from 0). */
  private readonly bootAsked = new Set<RequestId>();
  private live = false;
  /**
   * Settles on the client's `initialized`, or on its first other request
   * after `initialize` from a client that never sends it: either way the
   * client takes the connection as open, and nothing it asks would be
   * answered without the real server.
   */
  readonly opened: Promise<void>;
  private markOpened: () => void = () => undefined;

  constructor(
    private readonly inner: Transport,
    rootsChanged: () => void,
  ) {
    this.boot = new Side(
      () => undefined,
      (message, options) => {
        if (isJSONRPCRequest(message)) this.bootAsked.add(message.id);
        return inner.send(message, options);
      },
      // The stand-in closes the connection only while it has it: after the handover, the real server's close does.
      () => (this.live ? Promise.resolve() : inner.close()),
    );
    this.real = new Side(
      () => this.handOver(),
      (message, options) => this.sendFromReal(message, options),
      () => inner.close(),
    );
    this.opened = new Promise((resolve) => {
      this.markOpened = resolve;
    });
    inner.onmessage = (message, extra) => {
      if ('method' in message && message.method === ROOTS_CHANGED) rootsChanged();
      else this.route(message, extra);
    };
    inner.onclose = () => {
      this.boot.onclose?.();
      if (this.live) this.real.onclose?.();
    };
    inner.onerror = (error) => (this.live ? this.real : this.boot).onerror?.(error);
  }

  /** Start the connection (the stand-in's `connect` starts only its side). */
  start(): Promise<void> {
    return this.inner.start();
  }

  private route(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    const answered = answeredId(message);
    if (answered !== undefined && this.bootAsked.delete(answered)) {
      this.boot.onmessage?.(message, extra);
      return;
    }
    if (this.live) {
      this.real.onmessage?.(message, extra);
      return;
    }
    if (isInitializeRequest(message)) this.initialize ??= message;
    else if (isInitializedNotification(message)) this.initialized ??= message;
    const forBoot =
      isInitializeRequest(message) ||
      isInitializedNotification(message) ||
      // A ping, which it answers at once; an answer to nothing it asked, which it reports.
      answered !== undefined ||
      (isJSONRPCRequest(message) && message.method === 'ping');
    if (forBoot) this.boot.onmessage?.(message, extra);
    else this.waiting.push({ message, extra });
    if (this.initialized !== undefined || (this.initialize !== undefined && !forBoot)) this.markOpened();
  }

  /** The real server has connected: it hears what the client said so far, in order, then everything live. */
  private handOver(): void {
    const deliver = (message: JSONRPCMessage | undefined, extra?: MessageExtraInfo): void => {
      if (message !== undefined) this.real.onmessage?.(message, extra);
    };
    if (this.initialize !== undefined && isJSONRPCRequest(this.initialize)) this.replayedId = this.initialize.id;
    deliver(this.initialize);
    deliver(this.initialized);
    for (const { message, extra } of this.waiting.splice(0)) deliver(message, extra);
    this.live = true;
  }

  private sendFromReal(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.replayedId !== undefined && answeredId(message) === this.replayedId) {
      this.replayedId = undefined;
      return Promise.resolve();
    }
    return this.inner.send(message, options);
  }
}
