import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, copySampleVault, removeDir, type Harness } from '../support/helpers.js';

/** What an assistant reads before it calls anything: tools/list and the initialize instructions. */
let h: Harness;
beforeAll(async () => {
  h = await connect({ dir: await copySampleVault() });
});
afterAll(async () => {
  await h.close();
  await removeDir(h.dir);
});

describe('tools/list as an assistant reads it', () => {
  it('describes every tool, its errors, and every parameter', async () => {
    const { tools } = await h.client.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(10);
    for (const tool of tools) {
      expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(120);
      expect(tool.description, `${tool.name} names its errors`).toMatch(/error/i);
      expect(tool.description, `${tool.name} says what it returns`).toMatch(/return/i);
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
      for (const [name, schema] of Object.entries(properties)) {
        expect(schema.description?.length ?? 0, `${tool.name}.${name}`).toBeGreaterThan(10);
      }
    }
  });

  it('points to the right tool for common questions', async () => {
    const { tools } = await h.client.listTools();
    const describe = (name: string) => tools.find((tool) => tool.name === name)?.description ?? '';
    expect(describe('list_notes')).toMatch(/what did I save this week/);
    expect(describe('search_notes')).toMatch(/semantic_search/);
    expect(describe('update_note')).toMatch(/append/);
    expect(describe('delete_note')).toMatch(/[Cc]onfirm/);
    expect(JSON.stringify(tools.find((tool) => tool.name === 'list_notes')?.inputSchema)).toMatch(/#hashtag.*@mention/);
    expect(JSON.stringify(tools.find((tool) => tool.name === 'list_notes')?.inputSchema)).toMatch(/unfiled/);
  });

  it('orients the assistant at initialize with the vault as it is now', async () => {
    const instructions = h.client.getInstructions() ?? '';
    expect(instructions).toMatch(/sees 44 notes in 1\d folders \(4 unfiled\)/);
    expect(instructions).toMatch(/#flashcards, #spanish/);
    expect(instructions).toMatch(/may read and write/);
    expect(instructions).toMatch(/search_notes.*get_note.*update_note/s);
  });

  it('states a connection boundary and read-only scope in the instructions', async () => {
    const bounded = await connect({ dir: h.dir, folder: 'Reading', scopes: ['notes:read'] });
    const instructions = bounded.client.getInstructions() ?? '';
    expect(instructions).toMatch(/limited to the folder Reading and its subfolders/);
    expect(instructions).toMatch(/read-only/);
    await bounded.close();
  });
});
