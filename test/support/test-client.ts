import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

/**
 * Each schema compiled once a test process, kept by its text. After
 * `listTools` the SDK's client checks every structured answer against the
 * tool's output schema, and it compiles every tool's schema again at each
 * `listTools`, with an Ajv instance of its own per client: in a profiled run
 * of the whole suite that was 22.8 s of the test processes' CPU, 16.6 s of
 * it in the leak test, which lists the tools before each of its calls under
 * each boundary. The schemas are the server's, the same for every
 * connection, so a validator compiled once checks every answer as before.
 */
class CompiledOnce implements jsonSchemaValidator {
  private readonly ajv = new AjvJsonSchemaValidator();
  private readonly compiled = new Map<string, JsonSchemaValidator<unknown>>();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const key = JSON.stringify(schema);
    let validator = this.compiled.get(key);
    if (validator === undefined) {
      validator = this.ajv.getValidator<unknown>(schema);
      this.compiled.set(key, validator);
    }
    return validator as JsonSchemaValidator<T>;
  }
}

const COMPILED_ONCE = new CompiledOnce();

/** An MCP client for a test, offering `capabilities` when given, that checks structured answers with the schemas compiled once. */
export function testClient(name: string, capabilities?: ClientCapabilities): Client {
  return new Client({ name, version: '1.0.0' }, { ...(capabilities ? { capabilities } : {}), jsonSchemaValidator: COMPILED_ONCE });
}
