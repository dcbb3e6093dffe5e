import { access, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/access/policy.js';
import { openShared, textOf, type Connection, type Shared } from '../support/harness.js';
import { removeDir } from '../support/helpers.js';

/**
 * delete_note and rename_tag ask the person first when the client can ask
 * (MCP elicitation, issue 34): accepted, the change is made; declined or
 * cancelled, nothing happens and the answer says so; a client that cannot
 * ask keeps the contract's behaviour (no question, the change is made).
 */

const exists = (file: string): Promise<boolean> => access(file).then(() => true, () => false);

describe('confirmation through the client', () => {
  let dir: string;
  let shared: Shared;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'dexi-confirm-'));
    await mkdir(path.join(dir, 'Work'));
    await writeFile(path.join(dir, 'Work', 'plan.md'), '# Plan\n\n#proj the plan\n');
    await writeFile(path.join(dir, 'Work', 'notes.md'), '# Notes\n\n#proj notes\n');
    await writeFile(path.join(dir, 'diary.md'), '# Diary\n\n#proj private\n');
    shared = await openShared(dir);
  });

  afterEach(async () => {
    await shared.close();
    await removeDir(dir);
  });

  /** A connection whose client answers every question with `action`, keeping the questions. */
  async function asking(action: ElicitResult['action'] | undefined, policy = createPolicy()): Promise<{ connection: Connection; asked: ElicitRequest['params'][] }> {
    const asked: ElicitRequest['params'][] = [];
    if (action === undefined) return { connection: await shared.connect({ policy }), asked };
    const connection = await shared.connect({ policy, capabilities: { elicitation: {} } });
    connection.client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return { action };
    });
    return { connection, asked };
  }

  const idOf = async (connection: Connection, title: string): Promise<string> => {
    const listed = (await connection.call('list_notes', {})).structuredContent as { items: { id: string; title: string }[] };
    const note = listed.items.find((item) => item.title === title);
    if (!note) throw new Error(`no note ${title}`);
    return note.id;
  };

  it.each([
    ['accepts', 'accept' as const, false],
    ['declines', 'decline' as const, true],
    ['cancels', 'cancel' as const, true],
    ['cannot be asked', undefined, false],
  ])('delete_note when the person %s', async (_what, action, kept) => {
    const { connection, asked } = await asking(action);
    const id = await idOf(connection, 'plan');
    const result = await connection.call('delete_note', { note_id: id });
    expect(asked).toEqual(action === undefined ? [] : [expect.objectContaining({ message: 'Delete the note "plan" (Work/plan.md)? This cannot be undone.' })]);
    expect(await exists(path.join(dir, 'Work', 'plan.md'))).toBe(kept);
    if (kept) {
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('The person declined to delete "plan" when asked; nothing was changed. Do not try again unless they ask for it.');
    } else expect(result.structuredContent).toMatchObject({ deleted: true, id, title: 'plan' });
  });

  it('delete_note asks nothing about an id it does not see: "Note not found", as without asking', async () => {
    const whole = await asking(undefined);
    const hidden = await idOf(whole.connection, 'diary');
    const { connection, asked } = await asking('accept', createPolicy({ folder: 'Work' }));
    const result = await connection.call('delete_note', { note_id: hidden });
    expect(textOf(result)).toBe('Note not found');
    expect(asked).toEqual([]);
    expect(await exists(path.join(dir, 'diary.md'))).toBe(true);
  });

  it.each([
    ['accepts', 'accept' as const],
    ['declines', 'decline' as const],
  ])('rename_tag when the person %s, counting only the notes the connection sees', async (_what, action) => {
    const { connection, asked } = await asking(action, createPolicy({ folder: 'Work' }));
    const result = await connection.call('rename_tag', { from: '#proj', to: '#project' });
    expect(asked.map((question) => question.message)).toEqual(['Rename the tag #proj to #project in 2 notes?']);
    const plan = await readFile(path.join(dir, 'Work', 'plan.md'), 'utf8');
    if (action === 'accept') {
      expect(result.structuredContent).toMatchObject({ renamed_notes: 2, tag: '#project' });
      expect(plan).toContain('#project the plan');
    } else {
      expect(textOf(result)).toBe('The person declined to rename #proj to #project when asked; nothing was changed. Do not try again unless they ask for it.');
      expect(plan).toContain('#proj the plan');
    }
    expect(await readFile(path.join(dir, 'diary.md'), 'utf8')).toContain('#proj private');
  });

  it('rename_tag of a tag no visible note carries asks nothing', async () => {
    const { connection, asked } = await asking('decline');
    const result = await connection.call('rename_tag', { from: '#nowhere', to: '#somewhere' });
    expect(result.structuredContent).toMatchObject({ renamed_notes: 0 });
    expect(asked).toEqual([]);
  });
});
