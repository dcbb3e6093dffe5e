import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { tokensFile } from '../storage/dexi-dir.js';
import { replaceFileAtomic } from '../storage/atomic.js';
import { withFileLock } from '../storage/file-lock.js';
import { formatIso } from '../format/time.js';
import { createPolicy, normaliseBoundaryFolder, normaliseBoundaryTag, PolicyError, SCOPES, type AccessPolicy, type Scope } from './policy.js';
import { DexiError } from '../vault/errors.js';

/**
 * Bearer tokens for `serve --http`. Each token is one connection: its own
 * scopes and boundary. Only a SHA-256 hash of each token is stored, in
 * `<vault>/.dexi/tokens.json` (beside settings.json, not in the disposable
 * cache), so the file can be read by anyone who may read the vault settings
 * without giving away a usable token.
 */

/** A stored token: everything but the secret itself. */
export interface TokenEntry {
  name: string;
  /** SHA-256 of the secret, lower-case hex. */
  hash: string;
  scopes: Scope[];
  folder?: string;
  tag?: string;
  created: string;
}

/** What may be shown about a token: no secret, and not its hash either. */
export type TokenInfo = Omit<TokenEntry, 'hash'>;

/** A plain sentence for the person at the command line or in the server log. */
export class TokenError extends DexiError {}

/** A recognisable prefix, so that a leaked token is easy to spot (and to search for) in logs and repositories. */
export const TOKEN_PREFIX = 'dexi_';
const TOKEN_FILE_VERSION = 1;
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function tokensPath(vaultDir: string): string {
  return tokensFile(vaultDir);
}

/** 32 random bytes: guessing one is hopeless, so a fast unsalted hash is enough to store it. */
export function generateSecret(): string {
  return `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function hashToken(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A token name: what `token list` shows and `token revoke` takes. */
export function validateTokenName(name: string): string {
  if (!NAME_PATTERN.test(name)) {
    throw new TokenError(
      `A token name is 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit; "${name}" is not one.`,
    );
  }
  return name;
}

/** Names are unique regardless of case, so that `revoke Laptop` cannot miss a token called `laptop`. */
export function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * The entry whose hash equals `hash`. Security: every entry is compared in
 * full with a constant-time comparison and the loop never stops early, so the
 * response time tells nothing about how close a guess came, nor which entry
 * matched.
 */
export function findTokenByHash(entries: readonly TokenEntry[], hash: string): TokenEntry | undefined {
  const wanted = Buffer.from(hash, 'hex');
  let found: TokenEntry | undefined;
  for (const entry of entries) {
    const candidate = Buffer.from(entry.hash, 'hex');
    const equal = candidate.length === wanted.length && timingSafeEqual(candidate, wanted);
    if (equal && found === undefined) found = entry;
  }
  return found;
}

/** The access policy a token grants. */
export function policyOfToken(entry: Pick<TokenEntry, 'scopes' | 'folder' | 'tag'>): AccessPolicy {
  const options: Parameters<typeof createPolicy>[0] = { scopes: entry.scopes };
  if (entry.folder !== undefined) options.folder = entry.folder;
  if (entry.tag !== undefined) options.tag = entry.tag;
  return createPolicy(options);
}

export function publicInfo(entry: TokenEntry): TokenInfo {
  const { hash: _hash, ...info } = entry;
  return info;
}

const entrySchema = z.object({
  name: z.string().regex(NAME_PATTERN),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  scopes: z.array(z.enum(SCOPES)).min(1),
  folder: z.string().optional(),
  tag: z.string().optional(),
  created: z.string(),
});
const fileSchema = z.object({ version: z.literal(TOKEN_FILE_VERSION), tokens: z.array(entrySchema) });

/** Parse the token file. A damaged file refuses every token rather than guessing which ones still hold. */
export function parseTokenFile(text: string, file = 'tokens.json'): TokenEntry[] {
  const broken = `${file} is damaged, so every HTTP token is refused; fix it, or delete it and create the tokens again.`;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new TokenError(broken);
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) throw new TokenError(broken);
  try {
    return parsed.data.tokens.map((item) => {
      const entry: TokenEntry = { name: item.name, hash: item.hash, scopes: [...new Set(item.scopes)], created: item.created };
      if (item.folder !== undefined) entry.folder = normaliseBoundaryFolder(item.folder);
      if (item.tag !== undefined) entry.tag = normaliseBoundaryTag(item.tag);
      return entry;
    });
  } catch (error) {
    if (error instanceof PolicyError) throw new TokenError(broken);
    throw error;
  }
}

export function serialiseTokenFile(entries: readonly TokenEntry[]): string {
  // One key order for every entry, so the file reads (and diffs) the same way however an entry was built.
  const tokens = entries.map(({ name, hash, scopes, folder, tag, created }) => ({ name, hash, scopes, folder, tag, created }));
  return `${JSON.stringify({ version: TOKEN_FILE_VERSION, tokens }, null, 2)}\n`;
}

/**
 * Identifies one version of the file without reading it. The inode is part
 * of it because every write is a rename of a new file: two writes within one
 * mtime tick with the same size still differ.
 */
async function signatureOf(file: string): Promise<string> {
  try {
    const info = await stat(file, { bigint: true });
    return `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw new TokenError(`Cannot read ${file}: ${(error as Error).message}`);
  }
}

/** Every stored token; none when the file does not exist yet. */
export async function readTokens(vaultDir: string): Promise<TokenEntry[]> {
  const file = tokensPath(vaultDir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new TokenError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  return parseTokenFile(text, file);
}

/** Read, change and write the token file, atomically and one change at a time. */
async function updateTokens<T>(vaultDir: string, change: (entries: TokenEntry[]) => { entries: TokenEntry[]; result: T }): Promise<T> {
  await assertVault(vaultDir);
  const file = tokensPath(vaultDir);
  try {
    await mkdir(path.dirname(file), { recursive: true });
    return await withFileLock(file, (message) => new TokenError(message), async () => {
      const { entries, result } = change(await readTokens(vaultDir));
      // Security: 0600, only the person running the server may read the hashes.
      await replaceFileAtomic(file, serialiseTokenFile(entries), { mode: 0o600 });
      return result;
    });
  } catch (error) {
    if (error instanceof TokenError) throw error;
    throw new TokenError(`Cannot write ${file}: ${(error as Error).message}`);
  }
}

/** Creating a token must not conjure a vault folder out of a mistyped --vault. */
async function assertVault(vaultDir: string): Promise<void> {
  try {
    if ((await stat(vaultDir)).isDirectory()) return;
  } catch {
    // Reported below, in the same words as a file in the way.
  }
  throw new TokenError(`The vault ${vaultDir} is not a folder; give the vault with --vault DIR (or $DEXI_VAULT).`);
}

export interface NewToken {
  name: string;
  scopes?: Iterable<Scope>;
  folder?: string;
  tag?: string;
}

/** Create a token. The secret is returned here and nowhere else: only its hash is kept. */
export async function createToken(vaultDir: string, options: NewToken, now: Date = new Date()): Promise<{ token: TokenInfo; secret: string }> {
  const name = validateTokenName(options.name);
  const wanted = new Set(options.scopes ?? SCOPES);
  const entry: Omit<TokenEntry, 'hash'> = { name, scopes: SCOPES.filter((scope) => wanted.has(scope)), created: formatIso(now) };
  if (entry.scopes.length === 0) throw new TokenError('A token needs at least one scope: notes:read, notes:write or both.');
  try {
    if (options.folder !== undefined) entry.folder = normaliseBoundaryFolder(options.folder);
    if (options.tag !== undefined) entry.tag = normaliseBoundaryTag(options.tag);
  } catch (error) {
    if (error instanceof PolicyError) throw new TokenError(error.message);
    throw error;
  }
  const secret = generateSecret();
  const stored: TokenEntry = { ...entry, hash: hashToken(secret) };
  return updateTokens(vaultDir, (entries) => {
    const taken = entries.find((other) => sameName(other.name, name));
    if (taken) {
      throw new TokenError(`A token named "${taken.name}" already exists; pick another name, or revoke it first with: dexi-vault token revoke ${taken.name}`);
    }
    return { entries: [...entries, stored], result: { token: publicInfo(stored), secret } };
  });
}

/** Every token, without secrets or hashes. */
export async function listTokens(vaultDir: string): Promise<TokenInfo[]> {
  return (await readTokens(vaultDir)).map(publicInfo);
}

/** Revoke a token by name; a server refuses it from its next request on. */
export async function revokeToken(vaultDir: string, name: string): Promise<TokenInfo> {
  return updateTokens(vaultDir, (entries) => {
    const gone = entries.filter((entry) => sameName(entry.name, name));
    const first = gone[0];
    if (!first) throw new TokenError(`There is no token named "${name}"; "dexi-vault token list" shows the names.`);
    return { entries: entries.filter((entry) => !sameName(entry.name, name)), result: publicInfo(first) };
  });
}

/**
 * The server's view of the token file. It is checked on every request (a
 * `stat`, and a re-read only when the file changed), so a token created or
 * revoked from another process counts from the very next request, without a
 * restart.
 */
export class TokenStore {
  private cached: { signature: string; entries: readonly TokenEntry[] } | undefined;

  constructor(readonly vaultDir: string) {}

  get file(): string {
    return tokensPath(this.vaultDir);
  }

  async entries(): Promise<readonly TokenEntry[]> {
    const file = this.file;
    // Stat before reading: the content read is then at least as new as the
    // signature kept, so a change can only cause an extra read, never a stale answer.
    const signature = await signatureOf(file);
    if (this.cached?.signature === signature) return this.cached.entries;
    const entries = await readTokens(this.vaultDir);
    this.cached = { signature, entries };
    return entries;
  }

  /** The stored token this secret belongs to, if any. */
  async verify(secret: string): Promise<TokenEntry | undefined> {
    return findTokenByHash(await this.entries(), hashToken(secret));
  }
}
