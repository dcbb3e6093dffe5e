import { MAX_RESPONSE_BYTES } from '../tools/answer-size.js';

/** What protects one connection's server from being overwhelmed. */
export interface ServerLimits {
  /** The largest answer sent; a larger result becomes a plain error. */
  maxResponseBytes: number;
  /** Tool calls of one connection that run at once. */
  maxRunning: number;
  /** Calls beyond those that wait their turn, in order; beyond that they are refused. */
  maxWaiting: number;
}

export const DEFAULT_LIMITS: ServerLimits = { maxResponseBytes: MAX_RESPONSE_BYTES, maxRunning: 8, maxWaiting: 64 };

/**
 * At most `maxRunning` tasks at once and `maxWaiting` more queued, first
 * come first served; a task beyond that is refused at once rather than
 * queued without bound.
 */
export class CallGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limits: Pick<ServerLimits, 'maxRunning' | 'maxWaiting'>) {}

  get counts(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /**
   * Wait for a turn. Resolves to the function that ends it, or to undefined
   * when the queue is full or `signal` aborted the wait.
   */
  async enter(signal?: AbortSignal): Promise<(() => void) | undefined> {
    if (this.running < this.limits.maxRunning) {
      this.running++;
      return this.releaser();
    }
    if (this.waiting.length >= this.limits.maxWaiting || signal?.aborted) return undefined;
    const admitted = await new Promise<boolean>((resolve) => {
      const turn = (): void => {
        signal?.removeEventListener('abort', abandon);
        resolve(true);
      };
      const abandon = (): void => {
        const index = this.waiting.indexOf(turn);
        if (index !== -1) this.waiting.splice(index, 1);
        resolve(false);
      };
      this.waiting.push(turn);
      signal?.addEventListener('abort', abandon, { once: true });
    });
    return admitted ? this.releaser() : undefined;
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      // The turn passes straight to the next waiting call, so `running` stays the same.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    };
  }
}
