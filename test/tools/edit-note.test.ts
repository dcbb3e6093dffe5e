/**
 * edit_note through the in-process client: each operation byte for byte on
 * the file, its refusals (nothing written, the same for an outside note as a
 * missing one), scopes and boundaries, and its record in the activity log,
 * which undo takes back.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { activityRows } from '../../src/cli/activity.js';
import { activityFile, parseActivity } from '../../src/vault/record/activity.js';
import { undo } from '../../src/vault/record/undo.js';
import { connect, removeDir, writeVault, type Harness, type HarnessOptions } from '../support/helpers.js';

const PLAN_ID = '00000000-0000-4000-8000-0000000000e1';
const WIN_ID = '00000000-0000-4000-8000-0000000000e2';
const TAGGED_ID = '00000000-0000-4000-8000-0000000000e3';
const OTHER_ID = '00000000-0000-4000-8000-0000000000e4';
const MISSING_ID = '00000000-0000-4000-8000-0000000000ff';

const PLAN = [
  '---',
  `id: ${PLAN_ID}`,
  '# a comment the edit keeps',
  'created: 2026-11-20T08:00:00+00:00',
  'updated: 2026-11-20T08:00:00+00:00',
  '---',
  '# Garden plan',
  'The tomatos go by the wall.',
  '',
  '## Tasks',
  '- dig the bed',
  '- buy seeds ^seeds',
  '',
  '```sh',
  '# not a heading',
  '```',
  '',
  '## Notes',
  'Old notes.',
  'More old notes.',
  '',
  '### Tasks',
  'Nested tasks.',
  '',
].join('\n');
const WIN = `---\r\nid: ${WIN_ID}\r\n---\r\n# Log\r\nfirst entry\r\n\r\n# Next\r\n`;
const TAGGED = `---\nid: ${TAGGED_ID}\n---\nShared idea. #garden\n\n## Steps\n- one\n`;
const OTHER = `---\nid: ${OTHER_ID}\n---\n## Tasks\nPrivate work notes.\n`;

const VAULT = {
  'Home/Garden plan.md': PLAN,
  'Home/Windows.md': WIN,
  'Home/Tagged.md': TAGGED,
  'Work/Other.md': OTHER,
};

let h: Harness | undefined;
afterEach(async () => {
  if (!h) return;
  await h.close();
  await removeDir(h.dir);
  h = undefined;
});

async function open(options: Partial<HarnessOptions> = {}): Promise<Harness> {
  h = await connect({ dir: await writeVault(VAULT), ...options });
  return h;
}

const file = (harness: Harness, vaultPath: string): Promise<string> => readFile(path.join(harness.dir, vaultPath), 'utf8');
/** PLAN with its body's `from` replaced by `to` and its `updated` stamped at the test clock's time. */
const planWith = (from: string, to: string): string => {
  expect(PLAN).toContain(from);
  return PLAN.replace(from, to).replace('updated: 2026-11-20T08:00:00+00:00', 'updated: 2026-11-30T12:00:00+00:00');
};

describe('edit_note', () => {
  it('fixes a word, and returns the note in full as get_note does', async () => {
    const harness = await open();
    const note = await harness.ok<{ text: string; id: string; title: string; links: unknown }>('edit_note', {
      note_id: PLAN_ID,
      operation: 'replace_text',
      old_text: 'tomatos',
      new_text: 'tomatoes',
    });
    expect(await file(harness, 'Home/Garden plan.md')).toBe(planWith('tomatos', 'tomatoes'));
    expect(note).toEqual(await harness.ok('get_note', { note_id: PLAN_ID }));
    expect(note.text).toContain('The tomatoes go by the wall.');
  });

  it('adds a bullet under a heading: it joins the list', async () => {
    const harness = await open();
    await harness.ok('edit_note', { note_id: PLAN_ID, operation: 'insert', heading: 'garden plan#tasks', text: '- water daily' });
    // The section runs to the next heading of its level: the code block is in it, so the bullet lands after it, set apart.
    expect(await file(harness, 'Home/Garden plan.md')).toBe(planWith('# not a heading\n```\n', '# not a heading\n```\n\n- water daily\n'));
    await harness.ok('edit_note', { note_id: PLAN_ID, operation: 'insert', heading: '^seeds', text: '- water daily' });
    expect(await file(harness, 'Home/Garden plan.md')).toContain('- buy seeds ^seeds\n- water daily\n\n```sh');
  });

  it('replaces a section, keeping its heading line and what follows', async () => {
    const harness = await open();
    await harness.ok('edit_note', { note_id: PLAN_ID, operation: 'replace_section', heading: 'Notes', text: 'New notes.' });
    expect(await file(harness, 'Home/Garden plan.md')).toBe(planWith('Old notes.\nMore old notes.\n\n### Tasks\nNested tasks.\n', 'New notes.\n'));
  });

  it('replaces a ^block', async () => {
    const harness = await open();
    await harness.ok('edit_note', { note_id: PLAN_ID, operation: 'replace_section', heading: '^seeds', text: '- bought seeds ^seeds' });
    expect(await file(harness, 'Home/Garden plan.md')).toBe(planWith('- buy seeds ^seeds', '- bought seeds ^seeds'));
  });

  it('keeps a CRLF note\'s line endings, and a note without `updated` gets none', async () => {
    const harness = await open();
    await harness.ok('edit_note', { note_id: WIN_ID, operation: 'insert', heading: 'Log', text: 'second entry\nwith two lines' });
    expect(await file(harness, 'Home/Windows.md')).toBe(`---\r\nid: ${WIN_ID}\r\n---\r\n# Log\r\nfirst entry\r\n\r\nsecond entry\r\nwith two lines\r\n\r\n# Next\r\n`);
    await harness.ok('edit_note', { note_id: WIN_ID, operation: 'replace_text', old_text: 'first entry\n\nsecond', new_text: 'entries:\none' });
    expect(await file(harness, 'Home/Windows.md')).toBe(`---\r\nid: ${WIN_ID}\r\n---\r\n# Log\r\nentries:\r\none entry\r\nwith two lines\r\n\r\n# Next\r\n`);
  });

  it.each([
    [{ operation: 'replace_text', old_text: 'nowhere', new_text: 'x' }, 'Text not found in the note'],
    [{ operation: 'replace_text', old_text: 'OLD NOTES', new_text: 'x' }, 'Text not found in the note'],
    [{ operation: 'replace_text', old_text: 'notes', new_text: 'x' }, 'The text occurs 2 times in the note; add surrounding text to old_text so that it occurs once, or set all to true to replace every occurrence.'],
    [{ operation: 'insert', heading: 'Missing', text: 'x' }, 'Heading not found: Missing'],
    [{ operation: 'insert', heading: 'not a heading', text: 'x' }, 'Heading not found: not a heading'],
    [{ operation: 'replace_section', heading: 'Tasks', text: 'x' }, '"Tasks" matches 2 headings in the note; name the one you mean with the heading above it, as Parent#Child.'],
    [{ operation: 'insert', text: '\n\n' }, 'The text to insert is empty; nothing was written.'],
    [{ operation: 'replace_text', old_text: 'a' }, 'operation replace_text needs new_text ("" to delete the text).'],
    [{ operation: 'insert', text: 'x', all: true }, 'all does not go with operation insert; it takes text, position, heading.'],
    [{ operation: 'replace_section', text: 'x' }, 'operation replace_section needs heading.'],
  ])('refuses %j, writing nothing', async (args, message) => {
    const harness = await open();
    expect(await harness.fail('edit_note', { note_id: PLAN_ID, ...args })).toBe(message);
    expect(await file(harness, 'Home/Garden plan.md')).toBe(PLAN);
    expect(parseActivity(await readFile(activityFile(harness.dir), 'utf8').catch(() => ''))).toEqual([]);
  });

  it('replaces every occurrence with all', async () => {
    const harness = await open();
    await harness.ok('edit_note', { note_id: PLAN_ID, operation: 'replace_text', old_text: 'notes', new_text: 'ideas', all: true });
    expect(await file(harness, 'Home/Garden plan.md')).toBe(planWith('Old notes.\nMore old notes.', 'Old ideas.\nMore old ideas.'));
  });
});

describe('edit_note and access', () => {
  it('is refused to a read-only connection', async () => {
    const reader = await open({ scopes: ['notes:read'] });
    expect(await reader.fail('edit_note', { note_id: PLAN_ID, operation: 'insert', text: 'x' })).toBe('This connection lacks the notes:write scope that edit_note needs.');
    const { tools } = await reader.client.listTools();
    expect(tools.map((tool) => tool.name)).not.toContain('edit_note');
  });

  it('is not offered to a write-only connection, and refused the same whatever the id and the text', async () => {
    const writer = await open({ scopes: ['notes:write'] });
    const { tools } = await writer.client.listTools();
    expect(tools.map((tool) => tool.name)).not.toContain('edit_note');
    expect(tools.map((tool) => tool.name)).toContain('update_note');
    const refusal = await writer.fail('edit_note', { note_id: PLAN_ID, operation: 'replace_text', old_text: 'tomatos', new_text: 'x' });
    expect(refusal).toBe('This connection lacks the notes:read scope that edit_note needs.');
    expect(await writer.fail('edit_note', { note_id: MISSING_ID, operation: 'replace_text', old_text: 'nowhere', new_text: 'x' })).toBe(refusal);
    expect(await file(writer, 'Home/Garden plan.md')).toBe(PLAN);
  });

  it('under a folder boundary, a note outside is "Note not found" whatever the edit asks', async () => {
    const harness = await open({ folder: 'Home' });
    for (const args of [
      { operation: 'replace_text', old_text: 'Private', new_text: 'x' },
      { operation: 'replace_text', old_text: 'absent', new_text: 'x' },
      { operation: 'insert', heading: 'Tasks', text: 'x' },
      { operation: 'insert', heading: 'Missing', text: 'x' },
    ]) {
      expect(await harness.fail('edit_note', { note_id: OTHER_ID, ...args })).toBe('Note not found');
      expect(await harness.fail('edit_note', { note_id: MISSING_ID, ...args })).toBe('Note not found');
    }
    expect(await file(harness, 'Work/Other.md')).toBe(OTHER);
    await harness.ok('edit_note', { note_id: PLAN_ID, operation: 'replace_text', old_text: 'tomatos', new_text: 'tomatoes' });
  });

  it('under a tag boundary, a note without the tag is not found, and an edit removing the tag is refused', async () => {
    const harness = await open({ tag: '#garden' });
    expect(await harness.fail('edit_note', { note_id: PLAN_ID, operation: 'insert', text: 'x' })).toBe('Note not found');
    expect(await harness.fail('edit_note', { note_id: TAGGED_ID, operation: 'replace_text', old_text: ' #garden', new_text: '' })).toBe(
      'This edit would remove the tag #garden, which this connection is limited to; keep #garden in the text.',
    );
    expect(await file(harness, 'Home/Tagged.md')).toBe(TAGGED);
    await harness.ok('edit_note', { note_id: TAGGED_ID, operation: 'insert', heading: 'Steps', text: '- two' });
    expect(await file(harness, 'Home/Tagged.md')).toBe(`---\nid: ${TAGGED_ID}\n---\nShared idea. #garden\n\n## Steps\n- one\n- two\n`);
  });
});

describe('edit_note in the activity record', () => {
  it('shows in `dexi-vault activity`, and undo takes it back byte for byte', async () => {
    const harness = await open();
    await harness.ok('edit_note', { note_id: PLAN_ID, operation: 'replace_section', heading: 'Notes', text: 'Rewritten.' });
    const entries = parseActivity(await readFile(activityFile(harness.dir), 'utf8'));
    expect(entries).toEqual([expect.objectContaining({ tool: 'edit_note', by: 'stdio', action: 'changed', id: PLAN_ID, path: 'Home/Garden plan.md' })]);
    const rows = activityRows(entries, undefined);
    // A header, then the call.
    expect(rows).toHaveLength(2);
    expect(rows[1]?.join(' ')).toMatch(/edit_note stdio changed Home\/Garden plan\.md/);
    // The log names the call, never the note's text.
    const raw = await readFile(activityFile(harness.dir), 'utf8');
    expect(raw).not.toContain('Rewritten');
    expect(raw).not.toContain('Old notes');

    const undone = await undo(harness.runtime.activity, { note: PLAN_ID });
    expect(undone.entries).toHaveLength(1);
    expect(await file(harness, 'Home/Garden plan.md')).toBe(PLAN);
  });
});
