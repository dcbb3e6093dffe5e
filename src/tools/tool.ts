import type { z } from 'zod';
import type { Scope } from '../access/policy.js';
import type { VaultView } from '../access/view.js';
import type { Clock } from '../vault/clock.js';
import type { VaultSettings } from '../vault/settings.js';
import type { Vault } from '../vault/vault.js';
import type { FullTextIndex } from '../index/fulltext.js';
import type { SemanticIndexer } from '../index/vectors/semantic-indexer.js';

/** What every tool is handed: the connection's view of the vault and the shared services. */
export interface ToolContext {
  view: VaultView;
  settings: VaultSettings;
  clock: Clock;
  /** The full-text index of each vault (own and teammates'). */
  fulltext: ReadonlyMap<Vault, FullTextIndex>;
  /** Semantic search, when the server runs with a model. */
  semantic: SemanticIndexer | undefined;
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
