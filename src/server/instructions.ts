import { hasScope } from '../access/policy.js';
import type { VaultView } from '../access/view.js';
import type { VaultSettings } from '../vault/settings.js';
import { counted } from '../format/counts.js';

/** The orientation an assistant reads at `initialize`: what this vault and connection are. */
export function buildInstructions(view: VaultView, settings: VaultSettings): string {
  const { policy } = view;
  const lines: string[] = [
    "dexi-vault: the person's notes, a folder of Markdown files they also edit themselves. Every note has an id; list and search results give ids, get_note gives the full text.",
  ];
  if (view.ready) {
    const { folders, unfiled } = view.folderCounts();
    let count = unfiled;
    for (const n of folders.values()) count += n;
    lines.push(`This connection sees ${counted(count, 'note')} in ${counted(folders.size, 'folder')} (${unfiled.toLocaleString('en')} unfiled).`);
  } else {
    lines.push('The vault is still being read; tools say so until it is ready.');
  }
  const bounds: string[] = [];
  if (policy.folder !== undefined) bounds.push(`the folder ${policy.folder} and its subfolders`);
  if (policy.tag !== undefined) bounds.push(`notes tagged ${policy.tag}`);
  if (bounds.length > 0) lines.push(`It is limited to ${bounds.join(' and ')}; nothing outside exists for it, and new notes are kept inside.`);
  lines.push(hasScope(policy, 'notes:write') ? (hasScope(policy, 'notes:read') ? 'It may read and write.' : 'It may write but not read.') : 'It is read-only.');
  if (settings.reviewTags.length > 0) lines.push(`Review decks (spaced repetition): ${settings.reviewTags.join(', ')}.`);
  lines.push(
    'Suggested flow: find notes (search_notes for words, list_notes for filters like "this week"), read one with get_note, then change only what was asked: edit_note to fix a word, add lines under a heading or replace one section, set_properties for frontmatter, update_note in append mode to add at the end; replace a whole body only when a rewrite was asked for, and confirm before deleting.',
    'get_note gives at most 50,000 characters of a body (truncated: true when cut): read a long note by its outline, one heading at a time.',
    'Notes link to each other with [[wikilinks]]: get_note lists the notes a note links to (links) and the notes that link to it (backlinks, "what links here"); follow them by id to explore. move_note files a note into a folder or renames it, and keeps every link to it working.',
  );
  return lines.join('\n');
}
