import { parseArgs } from 'node:util';
import { normaliseBoundaryFolder, normaliseBoundaryTag, parseScopes, PolicyError, type Scope } from '../access/policy.js';
import { parseTagList, SettingsError } from '../vault/settings.js';

export class UsageError extends Error {}

export interface ServeConfig {
  command: 'serve';
  vault: string;
  scopes: Set<Scope>;
  folder?: string;
  tag?: string;
  reviewTags?: string[];
  noteCap?: number | null;
  shared: { owner: string; dir: string }[];
}

export interface IndexConfig {
  command: 'index';
  vault: string;
}

export interface HelpConfig {
  command: 'help';
}

export interface VersionConfig {
  command: 'version';
}

export type CliConfig = ServeConfig | IndexConfig | HelpConfig | VersionConfig;

export const USAGE = `Usage:
  dexi-vault serve [--vault DIR]            MCP over stdio (the default command)
      --scopes notes:read,notes:write       what the connection may do (default: both)
      --folder NAME                         limit the connection to one folder and its subfolders
      --tag TAG                             limit the connection to notes with one tag (e.g. #work)
      --review-tags "#a,#b"                 review deck tags (overrides .dexi/settings.json)
      --note-cap N                          note limit (overrides .dexi/settings.json; "none" for no limit)
      --shared OWNER=DIR                    mount a teammate's vault read-only (repeatable)
  dexi-vault index [--vault DIR]            read the vault and exit (checks it, stamps ids)
  dexi-vault --help | --version

--vault defaults to $DEXI_VAULT, else the current directory.`;

function usage(message: string): UsageError {
  return new UsageError(`${message}\nRun "dexi-vault --help" for the options.`);
}

/**
 * Turn the command line (and environment) into a complete configuration.
 * This is the only place configuration is read; everything below receives it.
 */
export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliConfig {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') return { command: 'help' };
  if (first === '--version' || first === '-v') return { command: 'version' };
  const command = first === undefined || first.startsWith('-') ? 'serve' : first;
  const args = first === undefined || first.startsWith('-') ? argv : rest;
  if (command !== 'serve' && command !== 'index') throw usage(`Unknown command "${command}".`);

  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options:
        command === 'serve'
          ? {
              vault: { type: 'string' },
              scopes: { type: 'string' },
              folder: { type: 'string' },
              tag: { type: 'string' },
              'review-tags': { type: 'string' },
              'note-cap': { type: 'string' },
              shared: { type: 'string', multiple: true },
              help: { type: 'boolean', short: 'h' },
            }
          : { vault: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    throw usage((error as Error).message.replace(/\. To specify a positional argument.*$/s, '.'));
  }
  if (values.help) return { command: 'help' };
  const vault = (values.vault as string | undefined) ?? env.DEXI_VAULT ?? process.cwd();
  if (command === 'index') return { command, vault };

  const config: ServeConfig = { command, vault, scopes: new Set(['notes:read', 'notes:write']), shared: [] };
  try {
    if (values.scopes !== undefined) config.scopes = parseScopes(values.scopes as string);
    if (values.folder !== undefined) config.folder = normaliseBoundaryFolder(values.folder as string);
    if (values.tag !== undefined) config.tag = normaliseBoundaryTag(values.tag as string);
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
  for (const entry of (values.shared as string[] | undefined) ?? []) {
    const match = /^([^=]+)=(.+)$/.exec(entry);
    if (!match) throw usage(`--shared takes OWNER=DIR, e.g. --shared alice=../alice-notes; got "${entry}".`);
    config.shared.push({ owner: (match[1] as string).trim(), dir: match[2] as string });
  }
  return config;
}
