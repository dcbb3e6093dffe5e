/**
 * rename_tag as the vault's edit of one note (a Change: content in, new
 * content or undefined for nothing to write), so that each note's rename
 * goes through the one write path (lock, other writers, late text, the
 * record of writes) like any other edit. The rule itself is
 * format/tag-rename.ts.
 */
import { extractTags } from '../format/markdown.js';
import { parseFrontmatter, splitFrontmatter } from '../format/frontmatter.js';
import { renameTagInNote, type TagRename } from '../format/tag-rename.js';
import { frontmatterTags, mergeTags } from '../format/tags.js';
import type { Change } from './late-edits.js';
import type { Admit } from './note.js';

export interface TagRenameRequest {
  rename: TagRename;
  /** Sees the tags the note would have after the rename; throws to refuse it before anything is written. */
  guard?: (tagsAfter: string[]) => void;
  admit?: Admit;
}

/** The edit of one note for `request`; `written` hears, on each run of it, whether it changes the note. */
export function tagRenameChange(request: TagRenameRequest, written: (changes: boolean) => void): Change {
  return (content) => {
    const next = renameTagInNote(content, request.rename);
    if (next !== undefined) request.guard?.(tagsOf(next));
    written(next !== undefined);
    return next;
  };
}

/** A note file's tags, as parsing reads them: frontmatter `tags`, then the body's. */
function tagsOf(content: string): string[] {
  const split = splitFrontmatter(content);
  const parsed = parseFrontmatter(split.yaml);
  return mergeTags(frontmatterTags(parsed.ok ? parsed.data.tags : undefined), extractTags(split.body));
}
