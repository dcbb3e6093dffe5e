import { chmod, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ProgressNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { freshVaults, vaultFiles, type Harness } from '../support/helpers.js';
import { activityFile, parseActivity } from '../../src/vault/record/activity.js';
import { undo } from '../../src/vault/record/undo.js';

const { harness, another } = freshVaults();

const ALPHA_ID = '00000000-0000-4000-8000-0000000000c1';

const VAULT: Record<string, string> = {
  'Projects/Alpha.md': `---\nid: ${ALPHA_ID}\n# mine\ntags: [proj, other] # kept\nstatus: 'open'\n---\n# Alpha\n\nOn #proj/Alpha, not \`#proj\`.\n`,
  'Projects/Beta.md': 'Beta #Proj\r\nsecond line #proj\r\n',
  'Notes/Gamma.md': 'Only #projects here, and code:\n\n```\n#proj\n```\n',
  'Notes/Delta.md': '---\ntags: "proj work"\n---\nDelta.\n',
  'Work/Epsilon.md': 'Epsilon #proj #work\n',
  'Outside/Zeta.md': 'Zeta #proj/z\n',
};

const AFTER: Record<string, string> = {
  'Projects/Alpha.md': `---\nid: ${ALPHA_ID}\n# mine\ntags: [project, other] # kept\nstatus: 'open'\n---\n# Alpha\n\nOn #project/Alpha, not \`#proj\`.\n`,
  'Projects/Beta.md': 'Beta #project\r\nsecond line #project\r\n',
  'Notes/Gamma.md': VAULT['Notes/Gamma.md'] as string,
  'Notes/Delta.md': '---\ntags: "project work"\n---\nDelta.\n',
  'Work/Epsilon.md': 'Epsilon #project #work\n',
  'Outside/Zeta.md': 'Zeta #project/z\n',
};

interface Renamed {
  renamed_notes: number;
  tag: string;
  skipped?: string[];
  message?: string;
}

const tags = async (h: Harness): Promise<string[]> => (await h.ok<{ tags: { tag: string }[] }>('list_tags', { limit: 100 })).tags.map((entry) => entry.tag).sort();

describe('rename_tag', () => {
  it('renames the tag and its nested tags in every note, in body and frontmatter, and nothing else', async () => {
    const h = await harness(VAULT);
    expect(await h.ok<Renamed>('rename_tag', { from: '#proj', to: '#project' })).toEqual({ renamed_notes: 5, tag: '#project' });
    expect(await vaultFiles(h.dir)).toEqual(AFTER);
    expect(await tags(h)).toEqual(['#other', '#project', '#project/alpha', '#project/z', '#projects', '#work']);
    // Done again, it finds nothing left to rename.
    expect(await h.ok<Renamed>('rename_tag', { from: 'proj', to: 'project' })).toEqual({ renamed_notes: 0, tag: '#project' });
  });

  it('is one call in the record of writes, which undo --last takes back byte for byte', async () => {
    const h = await harness(VAULT);
    await h.ok('rename_tag', { from: '#proj', to: '#project' });
    const entries = parseActivity(await readFile(activityFile(h.dir), 'utf8')).filter((entry) => 'action' in entry);
    expect(entries).toHaveLength(5);
    expect(new Set(entries.map((entry) => entry.call)).size).toBe(1);
    expect(entries.every((entry) => entry.tool === 'rename_tag')).toBe(true);
    await undo(h.runtime.activity, { last: true });
    expect(await vaultFiles(h.dir, 'base64')).toEqual(Object.fromEntries(Object.entries(VAULT).map(([key, value]) => [key, Buffer.from(value).toString('base64')])));
  });

  it('renames a nested tag alone, keeping the parent', async () => {
    const h = await harness(VAULT);
    expect(await h.ok<Renamed>('rename_tag', { from: '#proj/alpha', to: '#archive/alpha' })).toEqual({ renamed_notes: 1, tag: '#archive/alpha' });
    expect(await readFile(path.join(h.dir, 'Projects/Alpha.md'), 'utf8')).toContain('On #archive/alpha, not');
  });

  it('touches only the notes inside a folder boundary, and counts only those', async () => {
    const h = await harness(VAULT, { folder: 'Projects' });
    expect(await h.ok<Renamed>('rename_tag', { from: '#proj', to: '#project' })).toEqual({ renamed_notes: 2, tag: '#project' });
    const files = await vaultFiles(h.dir);
    for (const [file, text] of Object.entries(files)) expect(text, file).toBe(file.startsWith('Projects/') ? AFTER[file] : VAULT[file]);
  });

  it('under a tag boundary renames within it, and refuses what would take notes out of it', async () => {
    const h = await harness(VAULT, { tag: '#work' });
    // Epsilon carries #work in its body, Delta in its tags.
    expect(await h.ok<Renamed>('rename_tag', { from: '#proj', to: '#project' })).toEqual({ renamed_notes: 2, tag: '#project' });
    expect(await readFile(path.join(h.dir, 'Work/Epsilon.md'), 'utf8')).toBe(AFTER['Work/Epsilon.md']);
    expect(await readFile(path.join(h.dir, 'Notes/Delta.md'), 'utf8')).toBe(AFTER['Notes/Delta.md']);
    expect(await readFile(path.join(h.dir, 'Projects/Beta.md'), 'utf8')).toBe(VAULT['Projects/Beta.md']);
    expect(await h.fail('rename_tag', { from: '#work', to: '#job' })).toMatch(/^This connection is limited to the tag #work, and renaming #work would rename it/);
    expect(await h.fail('rename_tag', { from: '#WORK', to: '#job' })).toMatch(/limited to the tag #work/);
    const nested = await another(h.dir, { tag: '#proj/alpha' });
    expect(await nested.fail('rename_tag', { from: '#proj', to: '#project' })).toMatch(/limited to the tag #proj\/alpha, and renaming #proj would rename it/);
    const parent = await another(h.dir, { tag: '#proj' });
    expect(await parent.fail('rename_tag', { from: '#proj/alpha', to: '#other' })).toMatch(/#other is outside it; rename #proj\/alpha to a tag under #proj/);
    expect(await parent.ok<Renamed>('rename_tag', { from: '#proj/alpha', to: '#proj/first' })).toEqual({ renamed_notes: 1, tag: '#proj/first' });
    expect(await vaultFiles(h.dir)).toMatchObject({ 'Projects/Alpha.md': expect.stringContaining('On #proj/first, not') });
  });

  it('is refused to a read-only connection and runs for a write-only one', async () => {
    const h = await harness(VAULT, { scopes: ['notes:read'] });
    expect(await h.fail('rename_tag', { from: '#proj', to: '#project' })).toMatch(/lacks the notes:write scope/);
    const writer = await another(h.dir, { scopes: ['notes:write'] });
    expect(await writer.ok<Renamed>('rename_tag', { from: '#proj', to: '#project' })).toEqual({ renamed_notes: 5, tag: '#project' });
  });

  it.each([
    [{ from: '#proj', to: '  ' }, /^to is empty/],
    [{ from: '#proj', to: '#my project' }, /^to must be one tag, without spaces/],
    [{ from: '#proj', to: '#a.b' }, /^to must be a tag of letters, digits/],
    [{ from: '#proj', to: '#Proj' }, /^from and to are the same tag/],
    [{ from: '#proj', to: '' }, /to must be 1 to 200 characters/],
    [{ from: 'a b', to: '#x' }, /^from must be one tag/],
  ])('refuses %j with a sentence, writing nothing', async (args, sentence) => {
    const h = await harness(VAULT);
    expect(await h.fail('rename_tag', args)).toMatch(sentence);
    expect(await vaultFiles(h.dir)).toEqual(VAULT);
  });

  it('skips a note it cannot write, and says which', async () => {
    const h = await harness(VAULT);
    await chmod(path.join(h.dir, 'Projects/Beta.md'), 0o444);
    const answer = await h.ok<Renamed>('rename_tag', { from: '#proj', to: '#project' });
    expect(answer.renamed_notes).toBe(4);
    expect(answer.skipped).toHaveLength(1);
    expect(answer.message).toMatch(/^1 note still carries #proj, not written: .*Projects\/Beta\.md is read-only.*Call rename_tag again once it can be written\.$/);
    expect(await readFile(path.join(h.dir, 'Projects/Beta.md'), 'utf8')).toBe(VAULT['Projects/Beta.md']);
  });

  it('reports progress to a client that asks for it, and none to one that does not', async () => {
    const h = await harness(VAULT);
    const heard: { progress: number; total?: number }[] = [];
    await h.client.callTool({ name: 'rename_tag', arguments: { from: '#proj', to: '#project' } }, undefined, { onprogress: (step) => heard.push(step) });
    expect(heard.length).toBeGreaterThan(0);
    expect(heard.at(-1)).toEqual({ progress: 5, total: 5 });
    const silent = await another(h.dir, {});
    let notified = 0;
    silent.client.setNotificationHandler(ProgressNotificationSchema, () => {
      notified++;
    });
    expect((await silent.call('rename_tag', { from: '#project', to: '#proj' })).isError).toBeFalsy();
    expect(notified).toBe(0);
  });
});
