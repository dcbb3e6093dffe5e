import { parseArgs, type ParseArgsConfig } from 'node:util';
import { folderNameProblem, printable } from '../storage/filenames.js';
import { folderPathProblem } from '../storage/paths.js';
import { normaliseBoundaryFolder, normaliseBoundaryTag, parseScopes, PolicyError, type Scope } from '../access/policy.js';
import { TokenError, validateTokenName } from '../access/tokens.js';
import { parseTagList, SettingsError } from '../vault/settings.js';
import { normaliseOrigin } from '../server/transports/origin.js';
import { isSinceForm } from './activity.js';
import { didYouMean } from './suggest.js';
import { helpOn, TOPICS, usage, type Topic } from './usage.js';

export { UsageError } from './usage.js';

export interface ServeConfig {
  command: 'serve';
  vault: string;
  /**
   * Whether --vault or $DEXI_VAULT named the vault. Without either, `vault`
   * is the current folder, and over stdio a client that offers roots names
   * the vault instead (src/cli/roots.ts).
   */
  vaultGiven: boolean;
  scopes: Set<Scope>;
  folder?: string;
  tag?: string;
  reviewTags?: string[];
  noteCap?: number | null;
  shared: { owner: string; dir: string }[];
  /**
   * Streamable HTTP instead of stdio; each token then brings its own scopes
   * and boundary. `allowOrigins`: the web pages (normalised origins) let
   * through besides this machine's.
   */
  http?: { port: number; host: string; allowOrigins: string[] };
  /** The sentence model for semantic search: `use-lite` (default), a model id or folder, or `none`. */
  model: string;
  /** Pull the subscribed feeds at start and then every this many minutes. */
  pullFeedsMinutes?: number;
}

export interface IndexConfig {
  command: 'index';
  vault: string;
  model: string;
}

export interface HelpConfig {
  command: 'help';
  /** The command whose help was asked for (`dexi-vault index --help`); the whole usage without one. */
  topic?: Topic;
}

export interface VersionConfig {
  command: 'version';
}

export type TokenConfig =
  | { command: 'token'; action: 'create'; vault: string; name: string; scopes: Set<Scope>; folder?: string; tag?: string }
  | { command: 'token'; action: 'list'; vault: string; json?: boolean }
  | { command: 'token'; action: 'revoke'; vault: string; name: string };

/** `import bookmarks FILE` and `import email PATH`. */
export interface ImportConfig {
  command: 'import';
  kind: 'bookmarks' | 'email';
  vault: string;
  input: string;
  /** Vault-relative; defaults to Bookmarks or Mail. */
  folder: string;
  /** Bookmarks only: save each page's readable text and the page itself. */
  fetch: boolean;
}

export type FeedsConfig =
  | { command: 'feeds'; action: 'add'; vault: string; url: string; folder?: string }
  | { command: 'feeds'; action: 'remove'; vault: string; url: string }
  | { command: 'feeds'; action: 'list'; vault: string; json?: boolean }
  | { command: 'feeds'; action: 'pull'; vault: string };

/** `activity [--since WHEN]`: what the assistant changed. */
export interface ActivityConfig {
  command: 'activity';
  vault: string;
  /** As given: a span (`1d`) or a date, read against the clock when the command runs. */
  since?: string;
  /** The record as JSON on stdout instead of a table. */
  json?: boolean;
}

/** `status [--json]`: where the vault stands, read without writing anything. */
export interface StatusConfig {
  command: 'status';
  vault: string;
  json?: boolean;
}

/** `undo NOTE` or `undo --last`. */
export interface UndoConfig {
  command: 'undo';
  vault: string;
  target: { note: string } | { last: true };
}

export type CliConfig = ServeConfig | IndexConfig | TokenConfig | ImportConfig | FeedsConfig | ActivityConfig | UndoConfig | StatusConfig | HelpConfig | VersionConfig;

/** Where each kind's notes go unless `--folder` says otherwise. */
export const DEFAULT_IMPORT_FOLDERS = { bookmarks: 'Bookmarks', email: 'Mail' } as const;

export { USAGE } from './usage.js';

/** The options of serve and of index, beside --help, which every command takes. */
const SERVE_OPTIONS: NonNullable<ParseArgsConfig['options']> = {
  vault: { type: 'string' },
  scopes: { type: 'string' },
  'read-only': { type: 'boolean' },
  folder: { type: 'string' },
  tag: { type: 'string' },
  'review-tags': { type: 'string' },
  'note-cap': { type: 'string' },
  shared: { type: 'string', multiple: true },
  http: { type: 'string' },
  host: { type: 'string' },
  'allow-origin': { type: 'string', multiple: true },
  model: { type: 'string' },
  'pull-feeds': { type: 'string' },
};
/** `--json`, on the commands that list: their answer as JSON on stdout, for scripts. */
const JSON_OPTION: NonNullable<ParseArgsConfig['options']> = { json: { type: 'boolean' } };
const INDEX_OPTIONS: NonNullable<ParseArgsConfig['options']> = { vault: { type: 'string' }, model: { type: 'string' } };

/**
 * Turn the command line (and environment) into a complete configuration.
 * This is the only place configuration is read; everything below receives it.
 */
export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliConfig {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h') return { command: 'help' };
  if (first === 'help') return helpOn(rest[0]);
  if (first === '--version' || first === '-v') return { command: 'version' };
  const command = first === undefined || first.startsWith('-') ? 'serve' : first;
  const args = first === undefined || first.startsWith('-') ? argv : rest;
  if (command === 'token') return parseTokenCommand(rest, env);
  if (command === 'import') return parseImportCommand(rest, env);
  if (command === 'feeds') return parseFeedsCommand(rest, env);
  if (command === 'activity') return parseActivityCommand(rest, env);
  if (command === 'undo') return parseUndoCommand(rest, env);
  if (command === 'status') return parseStatusCommand(rest, env);
  if (command !== 'serve' && command !== 'index') throw usage(`Unknown command "${command}".${didYouMean(command, TOPICS, '')}`);

  const { values } = parseOptions(args, command === 'serve' ? SERVE_OPTIONS : INDEX_OPTIONS, false);
  if (values.help) return { command: 'help', topic: command };
  const given = (values.vault as string | undefined) ?? env.DEXI_VAULT;
  const vault = given ?? process.cwd();
  const model = (values.model as string | undefined) ?? 'use-lite';
  if (model.trim() === '') throw usage('--model takes a model: use-lite, a transformers.js model id or folder, or none.');
  if (command === 'index') return { command, vault, model };
  return serveConfig(values, env, { vault, vaultGiven: given !== undefined }, model);
}

/** The configuration of serve, from its options once the vault and the model are known. */
function serveConfig(values: Record<string, unknown>, env: NodeJS.ProcessEnv, vault: Pick<ServeConfig, 'vault' | 'vaultGiven'>, model: string): ServeConfig {
  const config: ServeConfig = { command: 'serve', ...vault, scopes: new Set(['notes:read', 'notes:write']), shared: [], model };
  try {
    applyAccessOptions(config, values, env);
    if (values['review-tags'] !== undefined) {
      const list = (values['review-tags'] as string).split(/[,\s]+/).filter(Boolean);
      config.reviewTags = parseTagList(list, '--review-tags');
    }
  } catch (error) {
    if (error instanceof PolicyError || error instanceof SettingsError) throw usage(error.message);
    throw error;
  }
  const cap = values['note-cap'] as string | undefined;
  if (cap !== undefined) {
    if (cap === 'none') config.noteCap = null;
    else if (/^\d+$/.test(cap)) config.noteCap = Number(cap);
    else throw usage(`--note-cap takes a whole number of notes (or "none"), not "${cap}".`);
  }
  config.shared = sharedVaults(values.shared as string[] | undefined);
  const http = parseHttpOptions(values);
  if (http && readOnly(undefined, env.DEXI_READ_ONLY)) {
    throw usage('DEXI_READ_ONLY cannot be used with --http: over HTTP each token carries its own scopes; make a read-only one with "dexi-vault token create --scopes notes:read".');
  }
  if (http) config.http = http;
  const pull = values['pull-feeds'] as string | undefined;
  if (pull !== undefined) {
    if (!/^\d+$/.test(pull) || Number(pull) < 1 || Number(pull) > 10_080) throw usage(`--pull-feeds takes a whole number of minutes from 1 to 10080 (a week), not "${pull}".`);
    config.pullFeedsMinutes = Number(pull);
  }
  return config;
}

/**
 * What a connection may do and see, as serve and token create both take it:
 * --scopes, --read-only (or DEXI_READ_ONLY), --folder and --tag. Throws the
 * policy's own errors, for the caller to make usage errors of.
 */
function applyAccessOptions(config: { scopes: Set<Scope>; folder?: string; tag?: string }, values: Record<string, unknown>, env: NodeJS.ProcessEnv): void {
  if (values.scopes !== undefined) config.scopes = parseScopes(values.scopes as string);
  if (readOnly(values['read-only'] as boolean | undefined, env.DEXI_READ_ONLY)) {
    if (values.scopes !== undefined && config.scopes.has('notes:write')) throw usage('--read-only and --scopes with notes:write ask for opposite things; give one of them.');
    config.scopes = new Set(['notes:read']);
  }
  if (values.folder !== undefined) config.folder = normaliseBoundaryFolder(values.folder as string);
  if (values.tag !== undefined) config.tag = normaliseBoundaryTag(values.tag as string);
}

/** The teammates' vaults of --shared OWNER=DIR, in the order given. */
function sharedVaults(entries: readonly string[] | undefined): ServeConfig['shared'] {
  const shared: ServeConfig['shared'] = [];
  for (const entry of entries ?? []) {
    const match = /^([^=]+)=(.+)$/.exec(entry);
    if (!match) throw usage(`--shared takes OWNER=DIR, e.g. --shared alice=../alice-notes; got "${entry}".`);
    shared.push({ owner: (match[1] as string).trim(), dir: match[2] as string });
  }
  return shared;
}

function parseOptions(args: readonly string[], options: NonNullable<ParseArgsConfig['options']>, positionals: boolean): { values: Record<string, unknown>; positionals: string[] } {
  try {
    return parseArgs({ args: [...args], strict: true, allowPositionals: positionals, options: { ...options, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '.');
    const unknown = /^Unknown option '(--?[^']+)'/u.exec(message)?.[1];
    if (unknown === undefined) throw usage(message);
    throw usage(`${message.replace(/\.?$/u, '.')}${didYouMean(unknown.replace(/^-+/u, ''), [...Object.keys(options), 'help'], '--')}`);
  }
}

function folderOption(value: string | boolean | undefined): string | undefined {
  if (value === undefined) return undefined;
  const folder = String(value).trim().replace(/\/+$/g, '');
  if (folder === '') throw usage('--folder needs a folder of the vault, such as Reading/Web.');
  // Checked once here, rather than refused again for every item imported into it.
  const problem = folderPathProblem(folder) ?? folderNameProblem(folder);
  if (problem) throw usage(`--folder takes a folder of the vault, such as Reading/Web; "${printable(folder)}" cannot be one: ${problem}.`);
  return folder;
}

/** `import bookmarks FILE` and `import email PATH`. */
function parseImportCommand(argv: readonly string[], env: NodeJS.ProcessEnv): ImportConfig | HelpConfig {
  const [kind, ...args] = argv;
  if (kind === '--help' || kind === '-h') return { command: 'help', topic: 'import' };
  if (kind !== 'bookmarks' && kind !== 'email') {
    throw usage(kind === undefined || kind.startsWith('-') ? 'import needs what to import: bookmarks FILE or email PATH.' : `Cannot import "${kind}"; use bookmarks FILE or email PATH.`);
  }
  const parsed = parseOptions(args, { vault: { type: 'string' }, folder: { type: 'string' }, ...(kind === 'bookmarks' ? { fetch: { type: 'boolean' } } : {}) }, true);
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) return { command: 'help', topic: 'import' };
  const [input, ...extra] = parsed.positionals;
  if (input === undefined) {
    throw usage(kind === 'bookmarks' ? 'import bookmarks needs the export file, e.g. dexi-vault import bookmarks bookmarks.html.' : 'import email needs an .eml file, a folder of them or an mbox file.');
  }
  if (extra.length > 0) throw usage(`import ${kind} takes one ${kind === 'bookmarks' ? 'file' : 'path'}; got ${parsed.positionals.length}.`);
  const vault = (values.vault as string | undefined) ?? env.DEXI_VAULT ?? process.cwd();
  return { command: 'import', kind, vault, input, folder: folderOption(values.folder) ?? DEFAULT_IMPORT_FOLDERS[kind], fetch: values.fetch === true };
}

const FEEDS_ACTIONS = ['add', 'list', 'pull', 'remove'] as const;

/** `feeds add|list|pull|remove`. */
function parseFeedsCommand(argv: readonly string[], env: NodeJS.ProcessEnv): FeedsConfig | HelpConfig {
  const [given, ...args] = argv;
  if (given === '--help' || given === '-h') return { command: 'help', topic: 'feeds' };
  if (given === undefined || given.startsWith('-')) throw usage('The feeds command needs an action: add, list, pull or remove.');
  const action = FEEDS_ACTIONS.find((known) => known === given);
  if (action === undefined) throw usage(`Unknown feeds action "${given}"; use add, list, pull or remove.${didYouMean(given, FEEDS_ACTIONS, '')}`);
  const withUrl = action === 'add' || action === 'remove';
  const parsed = parseOptions(args, { vault: { type: 'string' }, ...(action === 'add' ? { folder: { type: 'string' } } : {}), ...(action === 'list' ? JSON_OPTION : {}) }, withUrl);
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) return { command: 'help', topic: 'feeds' };
  const vault = (values.vault as string | undefined) ?? env.DEXI_VAULT ?? process.cwd();
  if (action === 'list') return values.json === true ? { command: 'feeds', action, vault, json: true } : { command: 'feeds', action, vault };
  if (action === 'pull') return { command: 'feeds', action, vault };
  const [url, ...extra] = parsed.positionals;
  if (url === undefined) throw usage(`feeds ${action} needs the feed's address, e.g. dexi-vault feeds ${action} https://example.com/feed.xml.`);
  if (extra.length > 0) throw usage(`feeds ${action} takes one address; got ${parsed.positionals.length}.`);
  if (action === 'remove') return { command: 'feeds', action, vault, url };
  const folder = folderOption(values.folder);
  return folder === undefined ? { command: 'feeds', action, vault, url } : { command: 'feeds', action, vault, url, folder };
}

/**
 * `--read-only`, or DEXI_READ_ONLY from an MCP bundle's manifest, which can only
 * hand a boolean setting down as the text "true" or "false".
 */
function readOnly(flag: boolean | undefined, fromEnv: string | undefined): boolean {
  if (flag) return true;
  const value = fromEnv?.trim().toLowerCase() ?? '';
  if (value === '' || value === 'false' || value === '0' || value === 'no') return false;
  if (value === 'true' || value === '1' || value === 'yes') return true;
  throw usage(`DEXI_READ_ONLY takes true or false, not "${fromEnv ?? ''}".`);
}

function parseActivityCommand(argv: readonly string[], env: NodeJS.ProcessEnv): ActivityConfig | HelpConfig {
  const { values } = parseOptions(argv, { vault: { type: 'string' }, since: { type: 'string' }, ...JSON_OPTION }, false);
  if (values.help) return { command: 'help', topic: 'activity' };
  const vault = (values.vault as string | undefined) ?? env.DEXI_VAULT ?? process.cwd();
  const since = values.since as string | undefined;
  const json = values.json === true ? { json: true } : {};
  if (since === undefined) return { command: 'activity', vault, ...json };
  // The span is read against the clock when the command runs; here only its form is checked.
  if (!isSinceForm(since)) throw usage(`--since takes a span such as 30m, 12h, 1d or 2w, or a date such as 2026-12-01; not "${since}".`);
  return { command: 'activity', vault, since: since.trim(), ...json };
}

function parseStatusCommand(argv: readonly string[], env: NodeJS.ProcessEnv): StatusConfig | HelpConfig {
  const { values } = parseOptions(argv, { vault: { type: 'string' }, ...JSON_OPTION }, false);
  if (values.help) return { command: 'help', topic: 'status' };
  const vault = (values.vault as string | undefined) ?? env.DEXI_VAULT ?? process.cwd();
  return values.json === true ? { command: 'status', vault, json: true } : { command: 'status', vault };
}

function parseUndoCommand(argv: readonly string[], env: NodeJS.ProcessEnv): UndoConfig | HelpConfig {
  const { values, positionals } = parseOptions(argv, { vault: { type: 'string' }, last: { type: 'boolean' } }, true);
  if (values.help) return { command: 'help', topic: 'undo' };
  const vault = (values.vault as string | undefined) ?? env.DEXI_VAULT ?? process.cwd();
  if (values.last === true) {
    if (positionals.length > 0) throw usage('undo takes a note or --last, not both.');
    return { command: 'undo', vault, target: { last: true } };
  }
  const [note, ...extra] = positionals;
  if (note === undefined || note.trim() === '') throw usage('undo needs the note to put back (its id or path, as "dexi-vault activity" shows it), or --last.');
  if (extra.length > 0) throw usage(`undo takes one note; got ${positionals.length}.`);
  return { command: 'undo', vault, target: { note: note.trim() } };
}

/** `--http PORT [--host H]`; the connection policy then comes from each token, not from the command line. */
function parseHttpOptions(values: Record<string, unknown>): ServeConfig['http'] {
  const port = values.http as string | undefined;
  const host = values.host as string | undefined;
  const origins = (values['allow-origin'] as string[] | undefined) ?? [];
  if (port === undefined) {
    if (host !== undefined) throw usage('--host only applies with --http PORT.');
    if (origins.length > 0) throw usage('--allow-origin only applies with --http PORT.');
    return undefined;
  }
  const perConnection = ['scopes', 'read-only', 'folder', 'tag'].filter((key) => values[key] !== undefined).map((key) => `--${key}`);
  if (perConnection.length > 0) {
    throw usage(
      `${perConnection.join(' and ')} cannot be used with --http: over HTTP each token carries its own scopes and boundary; give them to "dexi-vault token create" instead.`,
    );
  }
  if (!/^\d+$/.test(port) || Number(port) > 65535) throw usage(`--http takes a port number from 1 to 65535 (0 picks a free one), not "${port}".`);
  if (host !== undefined && host.trim() === '') throw usage('--host needs an address, such as 127.0.0.1 or 0.0.0.0.');
  const allowOrigins = origins.map((origin) => {
    const normal = normaliseOrigin(origin.trim());
    if (normal === undefined) {
      throw usage(`--allow-origin takes a web page's origin: http:// or https://, a host and an optional port, nothing after (e.g. https://app.example.com or http://192.168.1.5:3000); "${origin}" is not one.`);
    }
    return normal;
  });
  return { port: Number(port), host: host?.trim() ?? '127.0.0.1', allowOrigins: [...new Set(allowOrigins)] };
}

const TOKEN_ACTIONS = ['create', 'list', 'revoke'] as const;

/** `token create|list|revoke`: managing the bearer tokens of `serve --http`. */
function parseTokenCommand(argv: readonly string[], env: NodeJS.ProcessEnv): TokenConfig | HelpConfig {
  const [action, ...args] = argv;
  if (action === '--help' || action === '-h') return { command: 'help', topic: 'token' };
  if (action === undefined || action.startsWith('-')) throw usage('The token command needs an action: create, list or revoke.');
  if (!(TOKEN_ACTIONS as readonly string[]).includes(action)) throw usage(`Unknown token action "${action}"; use create, list or revoke.${didYouMean(action, TOKEN_ACTIONS, '')}`);

  const parsed = parseOptions(
    args,
    { vault: { type: 'string' }, ...(action === 'create' ? { name: { type: 'string' }, scopes: { type: 'string' }, folder: { type: 'string' }, tag: { type: 'string' } } : {}), ...(action === 'list' ? JSON_OPTION : {}) },
    action === 'revoke',
  );
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) return { command: 'help', topic: 'token' };
  const vault = (values.vault as string | undefined) ?? env.DEXI_VAULT ?? process.cwd();

  if (action === 'list') return values.json === true ? { command: 'token', action, vault, json: true } : { command: 'token', action, vault };
  if (action === 'revoke') {
    const [name, ...extra] = parsed.positionals;
    if (name === undefined) throw usage('token revoke needs the name of the token, e.g. dexi-vault token revoke laptop.');
    if (extra.length > 0) throw usage(`token revoke takes one name; got ${parsed.positionals.length}.`);
    return { command: 'token', action, vault, name };
  }
  const name = values.name as string | undefined;
  if (name === undefined) throw usage('token create needs --name NAME, e.g. --name laptop.');
  const config: TokenConfig = { command: 'token', action: 'create', vault, name, scopes: new Set(['notes:read', 'notes:write']) };
  try {
    validateTokenName(name);
    applyAccessOptions(config, values, env);
  } catch (error) {
    if (error instanceof PolicyError || error instanceof TokenError) throw usage(error.message);
    throw error;
  }
  return config;
}
