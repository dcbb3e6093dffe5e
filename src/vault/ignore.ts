/** Hard limit on a note's size; larger files are skipped with one log line. */
export const MAX_NOTE_BYTES = 4 * 1024 * 1024;

/**
 * Names that are never part of the vault: dot-files and dot-folders (`.git`,
 * `.obsidian`, `.dexi`, `.trash`, and the server's own temporary files) and
 * `node_modules`.
 */
export function isIgnoredName(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/** Whether a vault-relative path (with `/`) passes through an ignored name. */
export function isIgnoredPath(vaultPath: string): boolean {
  return vaultPath.split('/').some((segment) => segment !== '' && isIgnoredName(segment));
}

export function isNoteFileName(name: string): boolean {
  return name.toLowerCase().endsWith('.md') && !isIgnoredName(name);
}
