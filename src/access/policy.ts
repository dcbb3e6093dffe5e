import { normaliseTag, noteHasTag, tagCovers } from '../format/tags.js';
import { DexiError } from '../vault/errors.js';

export const SCOPES = ['notes:read', 'notes:write'] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * What one connection may do and see: its scopes and an optional boundary
 * (one folder, one tag, or both). Every tool decides visibility through the
 * pure functions below, and nowhere else.
 */
export interface AccessPolicy {
  readonly scopes: ReadonlySet<Scope>;
  /**
   * Vault-relative folder, no leading or trailing `/`, as given; covers its
   * subfolders. It stands for one real folder, resolved against the vault's
   * folders on every check (`boundaryFolder`).
   */
  readonly folder?: string;
  /** A normalised tag with its sigil (`#work`); covers its nested tags and every tag that folds like it (`tagKey`). */
  readonly tag?: string;
}

export class PolicyError extends DexiError {}

export function parseScopes(text: string): Set<Scope> {
  const scopes = new Set<Scope>();
  for (const part of text.split(',').map((item) => item.trim()).filter(Boolean)) {
    if (!(SCOPES as readonly string[]).includes(part)) {
      throw new PolicyError(`Unknown scope "${part}"; use notes:read, notes:write or both, separated by a comma.`);
    }
    scopes.add(part as Scope);
  }
  if (scopes.size === 0) throw new PolicyError('At least one scope is needed: notes:read, notes:write or both.');
  return scopes;
}

export function normaliseBoundaryFolder(folder: string): string {
  const cleaned = folder.replace(/\\/g, '/').replace(/^\/+|\/+$/g, '').replace(/\/{2,}/g, '/');
  if (cleaned === '' || cleaned.split('/').some((part) => part === '..' || part === '.' || part.startsWith('.'))) {
    throw new PolicyError(`The folder boundary "${folder}" is not a folder inside the vault.`);
  }
  return cleaned;
}

/** A boundary tag: `#work`, `@alice`, or a bare word taken as the hashtag. */
export function normaliseBoundaryTag(tag: string): string {
  const text = tag.trim();
  const normalised = normaliseTag(text.startsWith('#') || text.startsWith('@') ? text : `#${text}`);
  if (!normalised) throw new PolicyError(`The tag boundary "${tag}" is not a tag; write it like #work or @alice.`);
  return normalised;
}

export function createPolicy(options: { scopes?: Iterable<Scope>; folder?: string; tag?: string } = {}): AccessPolicy {
  const policy: { scopes: ReadonlySet<Scope>; folder?: string; tag?: string } = {
    scopes: new Set(options.scopes ?? SCOPES),
  };
  if (options.folder !== undefined) policy.folder = normaliseBoundaryFolder(options.folder);
  if (options.tag !== undefined) policy.tag = normaliseBoundaryTag(options.tag);
  return policy;
}

export function hasScope(policy: AccessPolicy, scope: Scope): boolean {
  return policy.scopes.has(scope);
}

export function isBounded(policy: AccessPolicy): boolean {
  return policy.folder !== undefined || policy.tag !== undefined;
}

/**
 * The folders of the person's vault, as the catalog knows them at this
 * moment (folders come and go while the server runs): a folder boundary is
 * resolved against them on every check. The `Vault` is one.
 */
export interface KnownFolders {
  /**
   * The folder a name stands for: the folder spelt exactly so, else the only
   * one equal to it under `foldName` (full Unicode case folding); undefined
   * when there is none, or several and none spelt exactly so.
   */
  findFolder(name: string): string | undefined;
}

/**
 * The one real folder a folder boundary stands for now: the folder spelt as
 * the boundary is when it exists; else the only folder that differs from it
 * just in case; else (no such folder, or several look-alikes such as `WORK/`
 * and `work/` for `Work`) the boundary's own spelling, which then matches
 * nothing until a folder of exactly that name exists (create_note makes it).
 * Without `known`, only the exact spelling. Undefined without a folder
 * boundary. Pure: a function of the policy and the folders known now.
 */
export function boundaryFolder(policy: AccessPolicy, known?: KnownFolders): string | undefined {
  if (policy.folder === undefined) return undefined;
  return known?.findFolder(policy.folder) ?? policy.folder;
}

/**
 * Whether `folder` (a note's real folder, as on disk) is the boundary's one
 * real folder (`boundaryFolder`) or below it, by whole segments. A look-alike
 * of the boundary folder is never inside it.
 */
export function folderInBoundary(policy: AccessPolicy, folder: string | null, known?: KnownFolders): boolean {
  const boundary = boundaryFolder(policy, known);
  if (boundary === undefined) return true;
  if (folder === null) return false;
  return folder === boundary || folder.startsWith(`${boundary}/`);
}

/** Whether one of the person's own notes lies inside the connection's boundary (`known`: see `folderInBoundary`). */
export function noteInBoundary(policy: AccessPolicy, note: { folder: string | null; tags: readonly string[] }, known?: KnownFolders): boolean {
  if (!folderInBoundary(policy, note.folder, known)) return false;
  if (policy.tag !== undefined && !noteHasTag(note.tags, [policy.tag])) return false;
  return true;
}

/**
 * The key of the own notes a bounded connection sees, as an index keeps
 * ranking statistics by it (`Visibility` in src/index/fulltext/visibility.ts): the
 * boundary's one real folder now (`boundaryFolder`) and its tag. Which of the
 * own notes are inside depends on these and the notes alone
 * (`noteInBoundary`), so equal keys mean equal sets while the notes stay as
 * they are: two tokens with one boundary share their statistics, and a
 * folder boundary that comes to stand for another folder gets a key of its
 * own. Pure.
 */
export function boundaryKey(policy: AccessPolicy, known?: KnownFolders): string {
  return JSON.stringify(['own', boundaryFolder(policy, known) ?? null, policy.tag ?? null]);
}

/** The key of the notes teammates share: what every connection that sees them sees of a teammate's vault. */
export const SHARED_NOTES_KEY = JSON.stringify(['shared']);

/** Teammates' shared notes are visible only to connections without a boundary. */
export function sharedNotesVisible(policy: AccessPolicy): boolean {
  return !isBounded(policy);
}

/** Whether a folder may be named to this connection (list_folders, a folder filter). */
export function folderVisible(policy: AccessPolicy, folder: string, holdsInBoundaryNote: boolean, known?: KnownFolders): boolean {
  if (!folderInBoundary(policy, folder, known)) return false;
  // Under a tag boundary only folders with an in-boundary note are shown, so
  // that folder names of other work cannot leak.
  if (policy.tag !== undefined) return holdsInBoundaryNote;
  return true;
}

/** Whether a set of tags still satisfies the tag boundary (for edits). */
export function keepsBoundaryTag(policy: AccessPolicy, tags: readonly string[]): boolean {
  return policy.tag === undefined || tags.some((tag) => tagCovers(policy.tag as string, tag));
}
