import { afterEach, describe, expect, it } from 'vitest';
import { connect, removeDir, writeVault, type Harness } from '../support/helpers.js';

const opened: Harness[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((harness) => harness.close()));
  await Promise.all(dirs.splice(0).map((dir) => removeDir(dir)));
});

const VAULT = {
  'Inbox note.md': 'Unfiled, about #garden.\n',
  'Cards/Hola.md': 'Hello. #flashcards/spanish\n',
  'Cards/Gato.md': 'Cat. #flashcards/spanish\n',
  'Cards/Softmax.md': 'Temperature. #flashcards\n',
  'Projects/Alpha/Plan.md': 'The plan. #work\n',
  'Projects/Beta/Notes.md': 'Beta. #work/beta\n',
  'Private/Diary.md': 'Dear diary. #secret\n',
};

async function open(options: Omit<Parameters<typeof connect>[0], 'dir'> = {}): Promise<Harness> {
  const dir = await writeVault(VAULT);
  dirs.push(dir);
  const harness = await connect({ dir, ...options });
  opened.push(harness);
  return harness;
}

async function complete(h: Harness, prompt: string, argument: string, value: string): Promise<string[]> {
  const answer = await h.client.complete({ ref: { type: 'ref/prompt', name: prompt }, argument: { name: argument, value } });
  return answer.completion.values;
}

describe('prompts', () => {
  it('lists the three guided tasks, each with its optional argument', async () => {
    const h = await open();
    const { prompts } = await h.client.listPrompts();
    expect(prompts.map((prompt) => [prompt.name, prompt.arguments?.map((argument) => argument.name)])).toEqual([
      ['review-session', ['deck']],
      ['weekly-digest', ['folder']],
      ['tidy-inbox', ['folder']],
      ['plan-my-day', []],
    ]);
  });

  it('plan-my-day sets the assistant to read today\'s daily note and the open tasks due in the next days, and change nothing', async () => {
    const h = await open();
    h.clock.current = new Date(2026, 11, 30, 9, 0);
    const plan = await h.client.getPrompt({ name: 'plan-my-day' });
    const text = (plan.messages[0]?.content as { text: string }).text;
    expect(text).toContain('today 2026-12-30');
    expect(text).toMatch(/get_daily_note \(date "today"\)[\s\S]*list_tasks with status "open" and due_before "2027-01-02"[\s\S]*Propose a plan[\s\S]*Change nothing/);
    // A read-only connection is offered it; it names no note, folder or tag.
    const reader = await open({ scopes: ['notes:read'] });
    expect((await reader.client.listPrompts()).prompts.map((prompt) => prompt.name)).toContain('plan-my-day');
    for (const word of ['garden', 'Diary', 'secret', 'Projects']) expect(text).not.toContain(word);
  });

  it('gives a message that sets the assistant to work with the tools, naming the argument as the vault spells it', async () => {
    const h = await open();
    const review = await h.client.getPrompt({ name: 'review-session', arguments: { deck: 'flashcards/spanish' } });
    const text = (review.messages[0]?.content as { text: string }).text;
    expect(text).toContain('get_due_reviews');
    expect(text).toContain('grade_review');
    expect(text).toContain('#flashcards/spanish');
    expect(text).toMatch(/Do not reveal the answer first/);
    const digest = await h.client.getPrompt({ name: 'weekly-digest', arguments: { folder: 'projects/alpha' } });
    expect((digest.messages[0]?.content as { text: string }).text).toContain('folder "Projects/Alpha"');
    const tidy = await h.client.getPrompt({ name: 'tidy-inbox' });
    expect((tidy.messages[0]?.content as { text: string }).text).toMatch(/list_notes with folder "unfiled"[\s\S]*Move nothing until I agree[\s\S]*move_note/);
  });

  it('refuses, in a sentence, a folder it cannot see, a deck that is no tag, an unknown argument and an unknown prompt', async () => {
    const h = await open({ folder: 'Projects' });
    await expect(h.client.getPrompt({ name: 'weekly-digest', arguments: { folder: 'Private' } })).rejects.toThrow('Folder not found: Private');
    await expect(h.client.getPrompt({ name: 'weekly-digest', arguments: { folder: 'No such' } })).rejects.toThrow('Folder not found: No such');
    await expect(h.client.getPrompt({ name: 'review-session', arguments: { deck: '!!!' } })).rejects.toThrow('deck must be a tag such as "#flashcards"; "!!!" is not one.');
    await expect(h.client.getPrompt({ name: 'tidy-inbox', arguments: { colour: 'red' } })).rejects.toThrow('The prompt "tidy-inbox" takes folder, not colour.');
    await expect(h.client.getPrompt({ name: 'write-poem' })).rejects.toThrow('There is no prompt "write-poem"; prompts/list shows the ones this connection may use.');
  });

  it('offers only the prompts whose tools the connection may use', async () => {
    const reader = await open({ scopes: ['notes:read'] });
    expect((await reader.client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['weekly-digest', 'plan-my-day']);
    await expect(reader.client.getPrompt({ name: 'tidy-inbox' })).rejects.toThrow(/There is no prompt "tidy-inbox"/);
  });
});

describe('completions', () => {
  it('completes folders and decks from what the connection sees, review decks first', async () => {
    const h = await open();
    expect(await complete(h, 'weekly-digest', 'folder', 'proj')).toEqual(['Projects', 'Projects/Alpha', 'Projects/Beta']);
    expect(await complete(h, 'tidy-inbox', 'folder', 'PROJECTS/A')).toEqual(['Projects/Alpha']);
    expect(await complete(h, 'review-session', 'deck', '')).toEqual(['#flashcards', '#flashcards/spanish', '#garden', '#secret', '#work', '#work/beta']);
    expect(await complete(h, 'review-session', 'deck', '#fl')).toEqual(['#flashcards', '#flashcards/spanish']);
    expect(await complete(h, 'review-session', 'deck', 'wo')).toEqual(['#work', '#work/beta']);
  });

  it('never offers a folder or tag outside the boundary', async () => {
    const h = await open({ folder: 'Projects' });
    expect(await complete(h, 'weekly-digest', 'folder', '')).toEqual(['Projects', 'Projects/Alpha', 'Projects/Beta']);
    expect(await complete(h, 'review-session', 'deck', '')).toEqual(['#work', '#work/beta']);
    const tagged = await open({ tag: '#work' });
    // As list_folders under a tag boundary: the folders that hold an in-boundary note.
    expect(await complete(tagged, 'weekly-digest', 'folder', '')).toEqual(['Projects/Alpha', 'Projects/Beta']);
    expect(await complete(tagged, 'review-session', 'deck', '')).toEqual(['#work', '#work/beta']);
  });
});
