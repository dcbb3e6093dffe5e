import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describe, expect, it } from 'vitest';
import { LazyJsonSchemaValidator } from '../../src/server/lazy-validator.js';

describe('LazyJsonSchemaValidator', () => {
  it('makes its validator at the first schema, once, and answers as it does', () => {
    let made = 0;
    const lazy = new LazyJsonSchemaValidator(() => {
      made++;
      return new AjvJsonSchemaValidator();
    });
    expect(made).toBe(0);
    const check = lazy.getValidator<{ confirmed: boolean }>({ type: 'object', properties: { confirmed: { type: 'boolean' } }, required: ['confirmed'] });
    const other = lazy.getValidator<string>({ type: 'string' });
    expect(made).toBe(1);
    expect(check({ confirmed: true })).toEqual({ valid: true, data: { confirmed: true }, errorMessage: undefined });
    expect(check({ confirmed: 'yes' }).valid).toBe(false);
    expect(other('text').valid).toBe(true);
    expect(other(3).valid).toBe(false);
  });
});
