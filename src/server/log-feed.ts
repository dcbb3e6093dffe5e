/**
 * The server's log lines that an MCP client should see, handed to every
 * connection that listens (each connection's server sends them as
 * `notifications/message`, at the level the client set with
 * `logging/setLevel`: the SDK keeps that level and drops what is below it).
 * Every line still goes to stderr first, as before; only a line given a
 * level (src/vault/logger.ts) goes on to clients.
 */
import type { LogDetail, Logger } from '../vault/logger.js';

export type LogListener = (line: string, detail: LogDetail) => void;

export class LogFeed {
  private readonly listeners = new Set<LogListener>();

  constructor(private readonly write: Logger) {}

  /** The logger handed down to the vault, the indexes and the feeds. */
  readonly log: Logger = (line, detail) => {
    this.write(line, detail);
    if (detail) for (const listener of this.listeners) listener(line, detail);
  };

  /** Hear every line with a level, until the returned function is called (the connection closed). */
  listen(listener: LogListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** How many connections listen: a connection that closed must not still be counted. */
  get listening(): number {
    return this.listeners.size;
  }
}
