/** list_folders: the person's folders with how many notes each holds directly. */
import { z } from 'zod';
import { defineTool } from './tool.js';

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
