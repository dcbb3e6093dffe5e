/**
 * The vault taken from an MCP client's roots, for `serve` over stdio when
 * neither --vault nor $DEXI_VAULT names one. A root is only a folder the
 * client names: it passes the same checks as --vault (`openVaultFolder`),
 * and the scopes and boundary of the command line apply to it as to any
 * vault. One server serves one vault: the first root that is a folder is
 * it, and the others are said in the log and left alone.
 */
import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError, type Root } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { printable } from '../storage/filenames.js';
import { openVaultFolder, type VaultFolder } from './vault-folder.js';

/** A root as a folder path to try, or why it is not one. */
export type RootCandidate = { uri: string; path: string } | { uri: string; skipped: string };

/**
 * The folder each root names, in the client's order, or why it names none:
 * only `file://` URIs on this machine are folders (`file://localhost/…` is
 * this machine; another host is not). Pure: whether the folder is there is
 * for `openVaultFolder` to say.
 */
export function rootCandidates(roots: readonly Pick<Root, 'uri'>[]): RootCandidate[] {
  return roots.map(({ uri }) => {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      return { uri, skipped: 'it is not a URI' };
    }
    if (url.protocol !== 'file:') return { uri, skipped: `its scheme is ${url.protocol.slice(0, -1)}, and only file:// roots name a folder` };
    if (url.hostname !== '' && url.hostname !== 'localhost') return { uri, skipped: `it names a folder on another machine (${url.hostname})` };
    // fileURLToPath drops them, so file:///a/#b (an unescaped #) would name /a/, a folder the client did not name.
    if (url.search !== '' || url.hash !== '') return { uri, skipped: 'it has a query or a fragment (an unescaped ? or #), which a folder\'s URI does not' };
    let folder: string;
    try {
      // Decodes percent-escapes; refuses an escaped separator (%2F), which would name a different path.
      folder = fileURLToPath(url);
    } catch {
      return { uri, skipped: 'its path holds an escaped / (%2F), which names no single folder' };
    }
    if (folder.includes('\0')) return { uri, skipped: 'its path holds a NUL character' };
    // A Windows client's file:///C:/Notes is, on this system's rules, the path /C:/Notes: looked for like any other, and most likely not there.
    return { uri, path: folder };
  });
}

/**
 * The vault folder of the first usable root, each root skipped said in one
 * line of `log`; undefined when none is usable. The folder is checked as
 * --vault's is, with the write probe (a folder that cannot be written is
 * served read-only, as with --vault). The log names a root by its URI,
 * printable however the client spelled it.
 */
export async function firstRootFolder(roots: readonly Pick<Root, 'uri'>[], log: (line: string) => void): Promise<VaultFolder | undefined> {
  const candidates = rootCandidates(roots);
  for (const [index, candidate] of candidates.entries()) {
    if ('skipped' in candidate) {
      log(`Skipped the client's root ${printable(candidate.uri)}: ${candidate.skipped}.`);
      continue;
    }
    try {
      const folder = await openVaultFolder(candidate.path, true);
      const rest = candidates.length - index - 1;
      if (rest > 0) log(`The client offered ${candidates.length} roots; one server serves one vault, so the ${rest === 1 ? 'root' : `${rest} roots`} after ${printable(candidate.uri)} ${rest === 1 ? 'is' : 'are'} not served.`);
      return folder;
    } catch (error) {
      log(`Skipped the client's root ${printable(candidate.uri)}: ${(error as Error).message}`);
    }
  }
  return undefined;
}

/** How long the client is given to list its roots: every request waits meanwhile, so not the SDK's minute. */
const ROOTS_WAIT_MS = 10_000;

/**
 * A roots/list answer, read leniently: the SDK's own schema refuses the
 * whole list for one root that is not `file://`, where one such root is
 * only to be skipped (`rootCandidates`).
 */
const ROOTS_ANSWER = z.object({ roots: z.array(z.looseObject({ uri: z.string() })) });

/** The client's roots, or none (said in the log) when it does not answer in time or answers what is not a list of roots. */
async function askRoots(client: Server, log: (line: string) => void): Promise<Pick<Root, 'uri'>[]> {
  try {
    return (await client.request({ method: 'roots/list' }, ROOTS_ANSWER, { timeout: ROOTS_WAIT_MS })).roots;
  } catch (error) {
    const timedOut = error instanceof McpError && error.code === (ErrorCode.RequestTimeout as number);
    const why = error instanceof z.ZodError ? 'it is not a list of roots, each with a uri' : (error as Error).message;
    log(timedOut ? `The client did not list its roots within ${ROOTS_WAIT_MS / 1000} s.` : `The client's list of roots could not be read: ${why}.`);
    return [];
  }
}

/**
 * The vault folder of a stdio client with no vault given: its first usable
 * root, or `current` (the folder the server was started in, as before
 * roots) for a client that offers no roots, lists none usable, or does not
 * answer. `from` says which, for the log. A `current` that is no vault
 * throws, as --vault's would.
 */
export async function clientVaultFolder(client: Server, current: string, log: (line: string) => void): Promise<{ folder: VaultFolder; from: string }> {
  if (client.getClientCapabilities()?.roots === undefined) {
    return { folder: await openVaultFolder(current, true), from: 'the current folder (the client offers no roots, and neither --vault nor $DEXI_VAULT names a vault)' };
  }
  const roots = await askRoots(client, log);
  const folder = await firstRootFolder(roots, log);
  if (folder) return { folder, from: "the client's root" };
  const why = roots.length === 0 ? 'the client named no root' : "none of the client's roots is a folder that can be served";
  return { folder: await openVaultFolder(current, true), from: `the current folder (${why})` };
}
