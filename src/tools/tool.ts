import type { z } from 'zod';
import type { Scope } from '../access/policy.js';
import type { VaultView } from '../access/view.js';
import type { Clock } from '../vault/clock.js';
import type { VaultSettings } from '../vault/settings.js';

/**
 * What every tool is handed: the connection's view of the vault, its one
 * handle on notes and searches (the raw vault and the indexes are not
 * reachable from a tool), the settings and the clock.
 */
export interface ToolContext {
  view: VaultView;
  settings: VaultSettings;
  clock: Clock;
  /**
   * The largest answer the server sends (its configured `maxResponseBytes`,
   * src/server/limits.ts), handed down by the server so that a tool which
   * sizes its answer (get_due_reviews) plans against the limit enforced;
   * MAX_RESPONSE_BYTES (answer-size.ts) when a tool runs outside a server.
   */
  maxResponseBytes?: number;
  /**
   * Tells the client how far a long call is (rename_tag: notes done of all
   * of them); set by the server for a call whose request asked for progress
   * (a `progressToken`), else left out and nothing is sent. `total` is left
   * out where it is unknown, `message` says in words what is being done.
   */
  progress?: (done: number, total?: number, message?: string) => void;
  /**
   * Asks the person, through their client, to confirm a change (MCP
   * elicitation): true when they accept. Set by the server only when the
   * client declares it can ask; a tool without it goes ahead as the
   * contract says, the assistant having confirmed with the person itself.
   */
  confirm?: (question: string) => Promise<boolean>;
}

export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition<Input extends z.ZodType = z.ZodType, Output extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  scope: Scope;
  /**
   * A second scope the tool needs beside `scope`: edit_note writes, but its
   * answers ("Text not found", how often a text occurs) tell what a note
   * holds, so it needs notes:read as well.
   */
  alsoNeeds?: Scope;
  annotations: ToolAnnotations;
  input: Input;
  output: Output;
  handler: (args: z.output<Input>, context: ToolContext) => Promise<z.input<Output>>;
  /** Whether the tool can work in this context (semantic tools need a model); listed only then. */
  available?: (context: ToolContext) => boolean;
}

/** Keeps each tool's handler typed against its own schemas. */
export function defineTool<Input extends z.ZodType, Output extends z.ZodType>(
  tool: ToolDefinition<Input, Output>,
): ToolDefinition {
  return tool as unknown as ToolDefinition;
}

/** The scope of `tool` that `granted` lacks, if any: a tool is listed and run only for a connection holding all it needs. */
export function missingScope(tool: Pick<ToolDefinition, 'scope' | 'alsoNeeds'>, granted: (scope: Scope) => boolean): Scope | undefined {
  if (!granted(tool.scope)) return tool.scope;
  return tool.alsoNeeds !== undefined && !granted(tool.alsoNeeds) ? tool.alsoNeeds : undefined;
}
