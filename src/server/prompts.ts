import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CompleteRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, McpError, type Prompt } from '@modelcontextprotocol/sdk/types.js';
import { hasScope, type Scope } from '../access/policy.js';
import { resolveFolderFilter } from '../tools/list-notes.js';
import type { ToolContext } from '../tools/tool.js';
import { DexiError } from '../vault/errors.js';
import { tagFilterCandidates } from '../format/tags.js';
import { formatLocal } from '../format/time.js';
import { readyForRequest } from './progress.js';
import { NOTE_TEMPLATE } from './resources.js';
import { completeNoteName, MAX_COMPLETIONS } from './note-names.js';

/**
 * Guided tasks a client can offer from a menu: each a message that sets the
 * assistant to work with the tools. A prompt is listed only to a connection
 * that holds the scopes of the tools it uses, and its arguments complete from
 * what the connection can see, so a folder or tag outside the boundary is
 * never offered.
 */

interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  scopes: Scope[];
  arguments: { name: string; description: string; kind: 'folder' | 'deck' }[];
  /** The message, for these arguments, on the day `today` (the server's clock, in its time zone). */
  text(args: Record<string, string | undefined>, today: Date): string;
}

const PROMPTS: PromptDefinition[] = [
  {
    name: 'review-session',
    title: 'Review session',
    description: 'Run a spaced-repetition session: quiz me on my due flashcards one at a time, revealing each answer only after I reply, and grade how well I recalled it.',
    scopes: ['notes:read', 'notes:write'],
    arguments: [{ name: 'deck', description: 'Only cards with this tag (e.g. #flashcards/spanish); all review decks when left out.', kind: 'deck' }],
    text: ({ deck }) =>
      `Run a spaced-repetition review session with me${deck ? ` on the cards tagged ${deck}` : ''}.\n\n` +
      `1. Call get_due_reviews with limit 50 to get the cards due now${deck ? `, and keep only those tagged ${deck} or a tag under it` : ''}.\n` +
      '2. Take them one at a time. Show me only the question (the card\'s title) and wait for my answer. Do not reveal the answer first.\n' +
      '3. After I reply, show the answer (the card\'s text), say briefly how my answer compares, and ask me how well I recalled it: 1 Again, 2 Hard, 3 Good, 4 Easy.\n' +
      '4. Record my grade with grade_review, then go on to the next card.\n' +
      '5. When no card is left, or I say stop, tell me how many cards we reviewed and how many I got right.',
  },
  {
    name: 'weekly-digest',
    title: 'Weekly digest',
    description: 'What I saved and changed this week, grouped by folder and tag.',
    scopes: ['notes:read'],
    arguments: [{ name: 'folder', description: 'Only this folder; the whole vault when left out.', kind: 'folder' }],
    text: ({ folder }) =>
      `Give me a digest of my notes from the last seven days${folder ? ` in the folder ${folder}` : ''}.\n\n` +
      `1. Call list_notes with period "week" and sort "created"${folder ? ` and folder "${folder}"` : ''}, page by page, for what I saved; then with sort "updated" for what I changed.\n` +
      '2. Group them by folder, and within a folder by their main tags; mention bookmarks, e-mails and feed articles (source) apart from my own notes.\n' +
      '3. For each group, one or two lines on what the notes are about, from their titles and snippets; call get_note only where a snippet is not enough.\n' +
      '4. End with anything that looks unfinished or worth following up.',
  },
  {
    name: 'tidy-inbox',
    title: 'Tidy the inbox',
    description: 'Suggest tags and folders for my unfiled notes, and file them only after I agree.',
    scopes: ['notes:read', 'notes:write'],
    arguments: [{ name: 'folder', description: 'The folder to tidy; the unfiled notes at the top level when left out.', kind: 'folder' }],
    text: ({ folder }) =>
      `Help me tidy ${folder ? `the folder ${folder}` : 'my unfiled notes (the ones at the top level)'}.\n\n` +
      `1. Call list_notes with folder "${folder ?? 'unfiled'}" to see them, and list_folders and list_tags to see how I organise the rest.\n` +
      '2. For each note, suggest the existing folder it belongs in (or none), and tags that fit my existing ones. Show me the whole plan as a list before doing anything.\n' +
      '3. Move nothing until I agree. Then file each note I approved with move_note, and add the approved tags with update_note (appending them, never replacing text).\n' +
      '4. Tell me what you moved and what you left.',
  },
  {
    name: 'plan-my-day',
    title: 'Plan my day',
    description: 'Read today\'s daily note and my open tasks due soon, and propose a plan for the day.',
    scopes: ['notes:read'],
    arguments: [],
    text: (_args, today) =>
      `Help me plan my day, today ${formatLocal(today, 'day')}.\n\n` +
      '1. Call get_daily_note (date "today") to read today\'s daily note. If there is none, say so and go on without it; do not create one unless I ask.\n' +
      `2. Call list_tasks with status "open" and due_before "${formatLocal(daysLater(today, PLAN_DAYS_AHEAD), 'day')}" for my open tasks due in the next few days, overdue ones included; page on while there are more.\n` +
      '3. Propose a plan for today: what to do first and what can wait, from what the daily note says (appointments, notes to self) and which tasks are overdue or due soonest. Keep it short, in time blocks where the note gives times, and say which note each task is in.\n' +
      '4. Change nothing (no note, no task) unless I ask; then tick a task done only when I say it is.',
  },
];

/** How far ahead plan-my-day looks for tasks due. */
const PLAN_DAYS_AHEAD = 3;

/** The same time `days` calendar days later, in the server's time zone. */
function daysLater(date: Date, days: number): Date {
  const later = new Date(date);
  later.setDate(later.getDate() + days);
  return later;
}


export function serveAsPrompts(server: Server, context: ToolContext): void {
  const { view } = context;
  const offered = PROMPTS.filter((prompt) => prompt.scopes.every((scope) => hasScope(view.policy, scope)));
  const byName = new Map(offered.map((prompt) => [prompt.name, prompt]));
  const promptOf = (name: string): PromptDefinition => {
    const prompt = byName.get(name);
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `There is no prompt "${name}"; prompts/list shows the ones this connection may use.`);
    return prompt;
  };

  const visibleFolders = (): string[] => [...view.folderCounts().folders.keys()];
  const visibleTags = (): string[] => {
    const tags = new Set<string>();
    for (const record of view.ownNotes()) for (const tag of record.tags) if (tag.startsWith('#')) tags.add(tag);
    return [...tags];
  };

  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: offered.map(
      (prompt): Prompt => ({
        name: prompt.name,
        title: prompt.title,
        description: prompt.description,
        arguments: prompt.arguments.map((argument) => ({ name: argument.name, description: argument.description, required: false })),
      }),
    ),
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const prompt = promptOf(request.params.name);
    const given = request.params.arguments ?? {};
    const unknown = Object.keys(given).filter((key) => !prompt.arguments.some((argument) => argument.name === key));
    if (unknown.length > 0) throw new McpError(ErrorCode.InvalidParams, `The prompt "${prompt.name}" takes ${prompt.arguments.map((a) => a.name).join(', ')}, not ${unknown.join(', ')}.`);
    // Only a folder or a tag given needs the vault: a prompt's text is the same before the first read is done.
    if (prompt.arguments.some((argument) => (given[argument.name]?.trim() ?? '') !== '')) {
      await readyForRequest(view, request.params, extra.sendNotification);
    }
    const args: Record<string, string | undefined> = {};
    for (const argument of prompt.arguments) {
      const value = given[argument.name]?.trim();
      if (value === undefined || value === '') continue;
      try {
        if (argument.kind === 'folder') args[argument.name] = resolveFolderFilter(value, visibleFolders());
        else if (!tagFilterCandidates(value)) throw new DexiError(`deck must be a tag such as "#flashcards"; "${value}" is not one.`);
        else args[argument.name] = value.startsWith('#') ? value.toLowerCase() : `#${value.toLowerCase()}`;
      } catch (error) {
        if (error instanceof DexiError) throw new McpError(ErrorCode.InvalidParams, error.toolSentence);
        throw error;
      }
    }
    return { description: prompt.description, messages: [{ role: 'user' as const, content: { type: 'text' as const, text: prompt.text(args, context.clock.now()) } }] };
  });

  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref, argument } = request.params;
    if (ref.type === 'ref/resource') {
      if (ref.uri !== NOTE_TEMPLATE || argument.name !== 'note_id') return { completion: { values: [] } };
      await view.assertReady().catch(() => undefined);
      return { completion: completeNoteName(view, argument.value) };
    }
    const definition = promptOf(ref.name).arguments.find((candidate) => candidate.name === argument.name);
    if (!definition) return { completion: { values: [] } };
    await view.assertReady().catch(() => undefined);
    const typed = argument.value.toLowerCase();
    let candidates: string[];
    if (definition.kind === 'folder') candidates = visibleFolders();
    else {
      // Review decks first, then every other tag the connection sees.
      const decks = context.settings.reviewTags.map((tag) => tag.toLowerCase());
      const tags = visibleTags();
      const isDeck = (tag: string): boolean => decks.some((deck) => tag === deck || tag.startsWith(`${deck}/`));
      candidates = [...decks.filter((deck) => tags.some((tag) => tag === deck || tag.startsWith(`${deck}/`))), ...tags.filter(isDeck).filter((tag) => !decks.includes(tag)).sort(), ...tags.filter((tag) => !isDeck(tag)).sort()];
    }
    const bare = typed.replace(/^#/, '');
    const matching = candidates.filter((candidate) => candidate.toLowerCase().replace(/^#/, '').startsWith(bare));
    const values = (definition.kind === 'folder' ? matching.sort((a, b) => a.localeCompare(b)) : matching).slice(0, MAX_COMPLETIONS);
    return { completion: { values, total: matching.length, hasMore: matching.length > MAX_COMPLETIONS } };
  });
}
