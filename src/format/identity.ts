import { createHash } from 'node:crypto';

/**
 * Note identity without writing into the note.
 *
 * A note that carries no `id` in its frontmatter is named by where it lives:
 * a name-based UUID (RFC 9562 version 5) of its vault-relative path, Unicode
 * NFC with `/` separators. Every machine and every run derive the same id for
 * the same path, so two clones of a git-synced vault agree without anything
 * being written into the files.
 */

/** The namespace of dexi-vault's path ids (itself a v5 UUID of "dexi-vault" in the URL namespace). */
const PATH_NAMESPACE = uuidBytes('249faa0d-28da-5d49-bedb-3df7c96ba34e');

function uuidBytes(uuid: string): Buffer {
  return Buffer.from(uuid.replace(/-/g, ''), 'hex');
}

function formatUuid(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** RFC 9562 UUIDv5: SHA-1 of namespace and name, with version and variant bits set. */
export function uuidV5(namespace: Buffer, name: string): string {
  const digest = createHash('sha1').update(namespace).update(name, 'utf8').digest().subarray(0, 16);
  digest[6] = ((digest[6] as number) & 0x0f) | 0x50;
  digest[8] = ((digest[8] as number) & 0x3f) | 0x80;
  return formatUuid(digest);
}

/**
 * The id of a note without a frontmatter id. `owner` namespaces a teammate's
 * vault, so that the same path in two vaults never gives one id. `attempt`
 * above 1 gives the next candidate when the first is already held by another
 * note (one that was moved away from this path and kept its id).
 */
export function pathId(vaultPath: string, owner = '', attempt = 1): string {
  const name = vaultPath.normalize('NFC') + (attempt > 1 ? `\0${attempt}` : '');
  const namespace = owner === '' ? PATH_NAMESPACE : ownerNamespace(owner);
  return uuidV5(namespace, name);
}

/**
 * The id of a teammate's note whose frontmatter says `id`: a v5 UUID of that
 * id in the owner's namespace, the same on every machine, and never the id of
 * a note of the person's own vault.
 */
export function teammateNoteId(owner: string, frontmatterId: string): string {
  // A namespace apart from the owner's path ids, so that no path can give the same name.
  return uuidV5(uuidBytes(uuidV5(PATH_NAMESPACE, `owner-ids:${owner}`)), frontmatterId);
}

function ownerNamespace(owner: string): Buffer {
  return uuidBytes(uuidV5(PATH_NAMESPACE, `owner:${owner}`));
}

/**
 * Two files claim one frontmatter id (a note copied with its frontmatter).
 * The rule, fixed so that every machine decides alike, and never resolved by
 * rewriting either file:
 *
 * 1. a note the server already knew by that id keeps it (it saw it first,
 *    while running or in its cache), so that a copy never takes the id away
 *    from the note an assistant has been using;
 * 2. among notes met at the same time (a first start), the shorter path keeps
 *    it, then the one first in code-point order: a copy's name is usually the
 *    original's with something added (`Note 1.md`, `Note copy.md`).
 *
 * Every other claimant is known by its path id. Returns true when the
 * challenger takes the id.
 */
export function challengerKeepsId(
  challenger: { path: string; established: boolean },
  holder: { path: string; established: boolean },
): boolean {
  if (challenger.established !== holder.established) return challenger.established;
  const a = [...challenger.path.normalize('NFC')].length;
  const b = [...holder.path.normalize('NFC')].length;
  if (a !== b) return a < b;
  return challenger.path < holder.path;
}

/** The namespace of imported items' ids: a v5 UUID of "imported items" in the path namespace. */
const IMPORT_NAMESPACE = uuidBytes(uuidV5(PATH_NAMESPACE, 'imported items'));

/**
 * The id of the note made from an imported item (`kind`: bookmark, email,
 * feed; `key`: the item's own identity, such as a Message-ID). The same item
 * gives the same id on every machine and every run, so importing it again
 * finds its note, wherever the person has moved it since.
 */
export function importedItemId(kind: string, key: string): string {
  return uuidV5(IMPORT_NAMESPACE, `${kind}\0${key.normalize('NFC')}`);
}
