/**
 * What the server says as it runs. Every line goes to the person's stderr;
 * a line with a level is also one an MCP client should see (a note skipped,
 * a model that failed, a feed that failed), and goes to the connections
 * that asked for its level (src/server/log-feed.ts).
 */

/** The levels a line can carry, as MCP's logging names them. */
export type LogLevel = 'info' | 'warning' | 'error';

export interface LogDetail {
  level: LogLevel;
  /**
   * The line names nothing in the vault (no note, folder, tag, feed or
   * token), so a connection limited to a folder or a tag may hear it too;
   * every other line reaches only connections that see the whole vault.
   */
  public?: true;
}

export type Logger = (line: string, detail?: LogDetail) => void;

/** A warning about the vault's own files, for connections that see the whole vault. */
export const WARNING: LogDetail = { level: 'warning' };
/** A warning that names nothing in the vault: every connection hears it. */
export const PUBLIC_WARNING: LogDetail = { level: 'warning', public: true };
/** Something the server could not do (save an index, record a write). */
export const ERROR: LogDetail = { level: 'error' };
