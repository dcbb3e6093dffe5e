import { z } from 'zod';
import { MAX_TAG_LENGTH } from '../format/tag-rename.js';
import { text } from './schemas.js';
import { defineTool } from './tool.js';
import { DeclinedError } from '../vault/errors.js';
import { counted } from '../format/counts.js';

export const renameTagTool = defineTool({
  name: 'rename_tag',
  title: 'Rename a tag',
  description:
    'Rename a tag across the vault, e.g. #proj to #project, when the person asks to rename, merge or reorganise a tag: ' +
    'every note of theirs this connection may change that carries it gets it renamed, inline in the text and in the tags property, ' +
    'nested tags along with it (#proj/alpha becomes #project/alpha; #projects is another tag and stays). ' +
    'Tags in code, comments, links and URLs are not tags and stay, and nothing else in a note changes. ' +
    'Renaming to a tag that already exists merges the two. The whole rename is one change that `dexi-vault undo --last` takes back. ' +
    'Use list_tags first to see the tags and their spelling. ' +
    'Where the client can ask the person, the server asks them first (how many notes would change); if they decline, nothing changes and the call says so. ' +
    'Returns renamed_notes (how many notes changed) and tag (the new tag); a note that could not be written (read-only, busy with another program) ' +
    'is skipped and named in skipped and message. Errors: a plain refusal for a from or to that is not one tag (empty, with spaces, other characters), ' +
    'for the same tag twice, and, on a connection limited to a tag, for a rename that would take notes out of that tag.',
  scope: 'notes:write',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({
    from: text('from', { min: 1, max: MAX_TAG_LENGTH, description: 'The tag to rename, e.g. "#proj" (a bare name is a hashtag); its nested tags are renamed with it.' }),
    to: text('to', { min: 1, max: MAX_TAG_LENGTH, description: 'The new tag, e.g. "#project", written as given; letters, digits, _, - and / for nesting, no spaces.' }),
  }),
  output: z.object({
    renamed_notes: z.number().int().describe('How many notes were changed.'),
    tag: z.string().describe('The new tag, as list_tags shows it.'),
    skipped: z.array(z.string()).optional().describe('The ids of notes that carry the tag but could not be written (the first 20).'),
    message: z.string().optional().describe('What was left undone, in a sentence, when anything was.'),
  }),
  async handler(args, { view, progress, confirm }) {
    await view.assertReady();
    const asked = confirm && (async (from: string, to: string, notes: number): Promise<void> => {
      if (!(await confirm(`Rename the tag ${from} to ${to} in ${counted(notes, 'note')}?`))) throw new DeclinedError(`to rename ${from} to ${to}`);
    });
    return view.renameTag(args.from, args.to, 'rename_tag', progress, asked || undefined);
  },
});
