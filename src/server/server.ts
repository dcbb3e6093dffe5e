import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { hasScope, isBounded, type AccessPolicy, type Scope } from '../access/policy.js';
import type { Logger } from '../vault/vault.js';
import { missingScope, type ToolContext, type ToolDefinition } from '../tools/tool.js';
import { answerBytesOfJson, formatMiB } from '../tools/answer-size.js';
import { describeInvalidArguments, describeUnknownArguments, errorResult, thrownResult } from './errors.js';
import { LazyJsonSchemaValidator } from './lazy-validator.js';
import { CallGate, DEFAULT_LIMITS, type ServerLimits } from './limits.js';
import { serveAsPrompts } from './prompts.js';
import { serveNotesAsResources } from './resources.js';
import type { LogFeed } from './log-feed.js';
import { linksAllowed, noteLinks } from './resource-links.js';
import { awaitReadWithProgress, callContext } from './progress.js';

export interface ServerOptions {
  name: string;
  version: string;
  tools: readonly ToolDefinition[];
  context: ToolContext;
  /** Sent with the initialize answer; leave it out when the transport adds them (see live-instructions.ts). */
  instructions?: string;
  log: Logger;
  /** Defaults: DEFAULT_LIMITS. */
  limits?: Partial<ServerLimits>;
  /** The lines with a level that clients should see: with it, the server offers MCP logging. */
  logs?: LogFeed;
}

/** How long a question to the person waits for their answer: they may be away from the screen for a while. */
const CONFIRM_WAIT_MS = 10 * 60_000;

/** The JSON-RPC envelope around a result: `{"jsonrpc":"2.0","id":…,"result":{"content":[{"type":"text","text":…}],"structuredContent":…}}`. */
const ENVELOPE_BYTES = 1024;

/**
 * A tool's JSON schemas, made on the first tools/list and kept for the
 * process: converting the zod schemas takes ~20 ms, which would otherwise
 * delay every `initialize` (and every HTTP session).
 */
const jsonSchemas = new WeakMap<ToolDefinition, { input: Tool['inputSchema']; output: Tool['outputSchema'] }>();

function schemasOf(tool: ToolDefinition): { input: Tool['inputSchema']; output: Tool['outputSchema'] } {
  let schemas = jsonSchemas.get(tool);
  if (!schemas) {
    const input = z.toJSONSchema(tool.input, { io: 'input' }) as Record<string, unknown>;
    const output = z.toJSONSchema(tool.output, { io: 'output' }) as Record<string, unknown>;
    delete input.$schema;
    delete output.$schema;
    schemas = { input: input as Tool['inputSchema'], output: output as Tool['outputSchema'] };
    jsonSchemas.set(tool, schemas);
  }
  return schemas;
}

function acceptedKeys(tool: ToolDefinition): string[] {
  return tool.input instanceof z.ZodObject ? Object.keys(tool.input.shape) : [];
}

/**
 * One MCP server for one connection. The connection's access policy (inside
 * `context.view`) decides which tools are listed and callable; arguments are
 * checked here so that every failure is a plain sentence, and every domain
 * error becomes a tool error with the contract's exact words.
 */
export function createMcpServer(options: ServerOptions): Server {
  const { log } = options;
  const limits: ServerLimits = { ...DEFAULT_LIMITS, ...options.limits };
  // The tools are handed the answer limit this server enforces, to plan their answers against.
  const context: ToolContext = { ...options.context, maxResponseBytes: limits.maxResponseBytes };
  // Per connection: one client cannot make the server run unbounded work at once.
  const gate = new CallGate(limits);
  const policy = context.view.policy;
  // A connection that may not read has no notes to offer as resources.
  const readable = hasScope(policy, 'notes:read');
  const server = serverShell({ ...options, logging: options.logs !== undefined }, policy);
  const stops: (() => void)[] = [];
  if (readable) {
    serveAsPrompts(server, context);
    stops.push(serveNotesAsResources(server, context));
  }
  if (options.logs) stops.push(forwardLogs(server, options.logs, isBounded(policy)));
  // Transports set their own onclose after this (stdio.ts chains onto it): the vault listeners go with the connection.
  server.onclose = () => {
    for (const stop of stops) stop();
  };
  const links = linksAllowed(server);
  const tools = options.tools.filter((tool) => tool.available?.(context) !== false);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const granted = (scope: Scope): boolean => hasScope(policy, scope);
  const listed = tools.filter((tool) => missingScope(tool, granted) === undefined);

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed.map(describeTool) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      return errorResult(`There is no tool named ${request.params.name}. Available: ${listed.map((item) => item.name).join(', ')}.`);
    }
    const lacking = missingScope(tool, granted);
    if (lacking !== undefined) return errorResult(`This connection lacks the ${lacking} scope that ${tool.name} needs.`);
    const args = request.params.arguments ?? {};
    const accepted = acceptedKeys(tool);
    const unknown = Object.keys(args).filter((key) => !accepted.includes(key));
    if (unknown.length > 0) return errorResult(describeUnknownArguments(tool.name, unknown, accepted));
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) return errorResult(describeInvalidArguments(tool.name, parsed.error));
    const release = await gate.enter(extra.signal);
    if (!release) {
      return errorResult(
        `This connection already has ${limits.maxRunning} tool calls running and ${limits.maxWaiting} waiting, the most it takes at once; ` +
          `wait for some to finish, then call ${tool.name} again.`,
      );
    }
    try {
      const { call: plain, waiting, delivered } = callContext(context, request.params._meta?.progressToken, extra.sendNotification);
      const call = withConfirm(server, plain, extra.signal);
      await awaitReadWithProgress(call.view, waiting);
      const result = await tool.handler(parsed.data, call);
      await delivered?.();
      return answerOf(tool, result, limits.maxResponseBytes, readable && links());
    } catch (error) {
      return thrownResult(tool.name, error, log);
    } finally {
      release();
    }
  });
  return server;
}

/**
 * The server of one connection, with no handlers of its own yet and the
 * capabilities its policy allows: resources, prompts and completions only
 * for one that may read, logging with a log feed. The one place they are
 * decided: `createMcpServer` builds on it, and so does the stand-in that
 * answers `initialize` before the vault is known (`serveFromRoots` in src/cli/commands/serve.ts),
 * so that a client is told the same either way.
 */
export function serverShell(options: Pick<ServerOptions, 'name' | 'version' | 'instructions'> & { logging: boolean }, policy: AccessPolicy): Server {
  return new Server(
    { name: options.name, version: options.version },
    {
      capabilities: {
        tools: { listChanged: false },
        ...(options.logging ? { logging: {} } : {}),
        ...(hasScope(policy, 'notes:read') ? { resources: { subscribe: true, listChanged: true }, prompts: { listChanged: false }, completions: {} } : {}),
      },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      jsonSchemaValidator: new LazyJsonSchemaValidator(),
    },
  );
}

/**
 * The call's context with `confirm` when the client can ask the person
 * (form elicitation): a question with nothing to fill in, which they accept
 * or decline. A client that cannot answer (an error) counts as declining:
 * nothing destructive happens on a question nobody saw answered.
 */
function withConfirm(server: Server, context: ToolContext, signal: AbortSignal): ToolContext {
  if (server.getClientCapabilities()?.elicitation?.form === undefined) return context;
  const confirm = async (question: string): Promise<boolean> => {
    const answer = await server.elicitInput({ mode: 'form', message: question, requestedSchema: { type: 'object', properties: {} } }, { signal, timeout: CONFIRM_WAIT_MS }).catch(() => undefined);
    return answer?.action === 'accept';
  };
  return { ...context, confirm };
}

/**
 * Send the feed's lines to this connection as `notifications/message`, at
 * and above the level it set (the SDK keeps it, per session). A connection
 * limited to a folder or a tag hears only lines that name nothing in the
 * vault: a skipped note's path would name a note outside its boundary.
 */
function forwardLogs(server: Server, logs: LogFeed, bounded: boolean): () => void {
  return logs.listen((line, detail) => {
    if (bounded && detail.public !== true) return;
    // A client gone meanwhile misses the line; stderr has it.
    server.sendLoggingMessage({ level: detail.level, logger: 'dexi-vault', data: line }, server.transport?.sessionId).catch(() => undefined);
  });
}

/** A tool as tools/list describes it. */
function describeTool(tool: ToolDefinition): Tool {
  const { input, output } = schemasOf(tool);
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: input,
    outputSchema: output,
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/**
 * A tool's result as its answer (with a resource link for each note it
 * lists, when `withLinks`), unless the answer would be larger than
 * `maxResponseBytes`: then a tool error saying what became of the call.
 */
function answerOf(tool: ToolDefinition, result: unknown, maxResponseBytes: number, withLinks: boolean): CallToolResult {
  const text = JSON.stringify(result);
  const linked = withLinks ? noteLinks(result) : [];
  // The one place every answer passes: none may exceed what the transport carries.
  const bytes = answerBytesOfJson(text) + (linked.length > 0 ? answerBytesOfJson(JSON.stringify(linked)) : 0) + ENVELOPE_BYTES;
  if (bytes > maxResponseBytes) {
    const outcome = tool.annotations.readOnlyHint
      ? 'Nothing was changed. Ask for less at once (a smaller size or limit); a single note this large can be read only in an editor.'
      : 'The change was made; only this answer is left out, so do not repeat the call.';
    return errorResult(`The answer of ${tool.name} would be ${formatMiB(bytes)} as JSON, over the ${formatMiB(maxResponseBytes)} one answer may hold. ${outcome}`);
  }
  return { content: [{ type: 'text', text }, ...linked], structuredContent: result as Record<string, unknown> };
}
