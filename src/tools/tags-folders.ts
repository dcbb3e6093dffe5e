import { z } from 'zod';
import { tagKey } from '../format/tags.js';
import { choice, intParam } from './schemas.js';
import { defineTool } from './tool.js';

/**
 * Tag usage counts (notes per tag), most used first, ties alphabetical.
 * Tags that fold alike (`tagKey`: `#straße` and `#strasse`) are one tag,
 * counted once per note and shown in the spelling most notes use (ties: the
 * first in code-unit order), as a tag filter and a tag boundary treat them.
 * Pure.
 */
export function countTags(tagLists: Iterable<readonly string[]>, sigil: '#' | '@', limit: number): { tag: string; count: number }[] {
  const byKey = new Map<string, { count: number; spellings: Map<string, number> }>();
  for (const tags of tagLists) {
    const counted = new Set<string>();
    for (const tag of tags) {
      if (!tag.startsWith(sigil)) continue;
      const key = tagKey(tag);
      let entry = byKey.get(key);
      if (!entry) byKey.set(key, (entry = { count: 0, spellings: new Map() }));
      entry.spellings.set(tag, (entry.spellings.get(tag) ?? 0) + 1);
      if (counted.has(key)) continue;
      counted.add(key);
      entry.count++;
    }
  }
  const shown = (spellings: Map<string, number>): string => {
    let best: [string, number] | undefined;
    for (const item of spellings) if (!best || item[1] > best[1] || (item[1] === best[1] && item[0] < best[0])) best = item;
    return (best as [string, number])[0];
  };
  return [...byKey.values()]
    .map(({ count, spellings }) => ({ tag: shown(spellings), count }))
    .sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0))
    .slice(0, limit);
}

export const listTagsTool = defineTool({
  name: 'list_tags',
  title: 'List tags',
  description:
    "The person's tags with how many notes use each, most used first. Hashtags (#topic) categorise subjects; mentions (@name) reference people or entities. " +
    'Tags come from the note text (and frontmatter tags); they are not set directly, so to tag a note, write the #tag into its text. ' +
    'Pass a tag to list_notes to see its notes. Returns {tags: [{tag, count}]}. Errors: plain messages for an unknown kind, a limit outside 1–200, or while the vault is still being read.',
  scope: 'notes:read',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({
    kind: choice('kind', ['hashtag', 'mention'] as const, 'hashtag (#topic, the default) or mention (@name).').optional().default('hashtag'),
    limit: intParam('limit', 1, 200, 50, 'How many tags at most, 1 to 200.'),
  }),
  output: z.object({ tags: z.array(z.object({ tag: z.string(), count: z.number().int() })) }),
  async handler(args, { view }) {
    await view.assertReady();
    const tagLists = (function* () {
      for (const record of view.ownNotes()) yield record.tags;
    })();
    return { tags: countTags(tagLists, args.kind === 'mention' ? '@' : '#', args.limit) };
  },
});

export const listFoldersTool = defineTool({
  name: 'list_folders',
  title: 'List folders',
  description:
    "The person's folders with how many notes each holds directly, plus how many notes are unfiled (at the top level). " +
    'A note lives in at most one folder; tags handle cross-cutting topics. Pass a folder name to list_notes to browse it. ' +
    'Takes no parameters. Returns {folders: [{name, note_count}], unfiled_count}. Errors: a plain message while the vault is still being read at start-up.',
  scope: 'notes:read',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({}),
  output: z.object({
    folders: z.array(z.object({ name: z.string().describe('Folder path with / separators, e.g. Projects/Alpha.'), note_count: z.number().int() })),
    unfiled_count: z.number().int(),
  }),
  async handler(_args, { view }) {
    await view.assertReady();
    const { folders, unfiled } = view.folderCounts();
    return {
      folders: [...folders].sort(([a], [b]) => a.localeCompare(b)).map(([name, count]) => ({ name, note_count: count })),
      unfiled_count: unfiled,
    };
  },
});
