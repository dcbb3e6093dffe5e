import { hasScope, type AccessPolicy } from '../access/policy.js';
import type { VaultView } from '../access/view.js';
import type { VaultSettings } from '../vault/settings.js';
import { counted } from '../format/counts.js';

const OPENING = "dexi-vault: the person's notes, a folder of Markdown files they also edit themselves. Every note has an id; list and search results give ids, get_note gives the full text.";

const FLOW = [
  'Suggested flow: find notes (search_notes for words, list_notes for filters like "this week"), read one with get_note, then change only what was asked: edit_note to fix a word, add lines under a heading or replace one section, set_properties for frontmatter, update_note in append mode to add at the end; replace a whole body only when a rewrite was asked for, and confirm before deleting.',
  'get_note gives at most 50,000 characters of a body (truncated: true when cut): read a long note by its outline, one heading at a time.',
  'Notes link to each other with [[wikilinks]]: get_note lists the notes a note links to (links) and the notes that link to it (backlinks, "what links here"); follow them by id to explore. move_note files a note into a folder or renames it, and keeps every link to it working.',
];

/** The boundary line, when the connection has one. */
function boundaryLines(policy: AccessPolicy): string[] {
  const bounds: string[] = [];
  if (policy.folder !== undefined) bounds.push(`the folder ${policy.folder} and its subfolders`);
  if (policy.tag !== undefined) bounds.push(`notes tagged ${policy.tag}`);
  return bounds.length > 0 ? [`It is limited to ${bounds.join(' and ')}; nothing outside exists for it, and new notes are kept inside.`] : [];
}

function accessLine(policy: AccessPolicy): string {
  return hasScope(policy, 'notes:write') ? (hasScope(policy, 'notes:read') ? 'It may read and write.' : 'It may write but not read.') : 'It is read-only.';
}

/** The orientation an assistant reads at `initialize`: what this vault and connection are. */
export function buildInstructions(view: VaultView, settings: VaultSettings): string {
  const { policy } = view;
  const lines: string[] = [OPENING];
  if (view.ready) {
    const { folders, unfiled } = view.folderCounts();
    let count = unfiled;
    for (const n of folders.values()) count += n;
    lines.push(`This connection sees ${counted(count, 'note')} in ${counted(folders.size, 'folder')} (${unfiled.toLocaleString('en')} unfiled).`);
  } else {
    lines.push('The vault is still being read; tools say so until it is ready.');
  }
  lines.push(...boundaryLines(policy), accessLine(policy));
  if (settings.reviewTags.length > 0) lines.push(`Review decks (spaced repetition): ${settings.reviewTags.join(', ')}.`);
  lines.push(...FLOW);
  return lines.join('\n');
}

/**
 * The orientation sent when `initialize` is answered before the vault is
 * known (the vault is taken from the client's roots, asked for after it):
 * what the command line decided (`policy`), nothing of the notes. A vault
 * folder that turns out to be unwritable narrows writing away later, so
 * writing is only promised with that caveat.
 */
export function instructionsBeforeVault(policy: AccessPolicy): string {
  const access = hasScope(policy, 'notes:write') ? `${accessLine(policy).replace(/\.$/u, '')}, unless the vault folder cannot be written: then it is read-only.` : accessLine(policy);
  return [
    OPENING,
    "The vault is the first folder among the client's roots (or the folder the server was started in, when the client offers none); it is opened once the client has named it, and tools wait for it.",
    ...boundaryLines(policy),
    access,
    ...FLOW,
  ].join('\n');
}
