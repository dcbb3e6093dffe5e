import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

/**
 * The JSON Schema validator of one connection's server, made at its first
 * use. The SDK's `Server` makes an Ajv instance for every connection, to
 * check the answers to its questions (elicitation), which most connections
 * never ask: 0.62 ms of CPU a connection, 620 ms of 1,000 HTTP sessions
 * opened (profiled, `test/server/transports/http-many-sessions.test.ts`).
 * One instance shared by every connection is not the answer: Ajv keeps each
 * schema it compiles, keyed by the schema object, and every question is a
 * new object, so a shared one would grow for as long as the server runs.
 */
export class LazyJsonSchemaValidator implements jsonSchemaValidator {
  private made: jsonSchemaValidator | undefined;

  constructor(private readonly make: () => jsonSchemaValidator = () => new AjvJsonSchemaValidator()) {}

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.made ??= this.make();
    return this.made.getValidator<T>(schema);
  }
}
