/**
 * What the command line says of itself: the whole usage, one command's part
 * of it (`dexi-vault index --help`), and the error of a command line that
 * cannot be run as written.
 */
import { DexiError } from '../vault/errors.js';

/**
 * A command line that cannot be run as written: said in one line with the
 * hint to --help, and the command exits 2 (every other DexiError exits 1).
 * The benchmark runner (bench/run.ts) throws it too.
 */
export class UsageError extends DexiError {
  override readonly exitCode: number = 2;
}

/** A usage error that ends with the hint to --help: the command's own help where the command is known. */
export function usage(message: string, topic?: Topic): UsageError {
  return new UsageError(`${message}\nRun "dexi-vault ${topic === undefined ? '' : `${topic} `}--help" for the options.`);
}

export const USAGE = `Usage:
  dexi-vault serve [--vault DIR]            MCP over stdio (the default command); with neither --vault nor
                                            $DEXI_VAULT, a client that offers roots names the vault: its first root
      --scopes notes:read,notes:write       what the connection may do (default: both)
      --read-only                           the same as --scopes notes:read (also DEXI_READ_ONLY=true)
      --folder NAME                         limit the connection to one folder and its subfolders
      --tag TAG                             limit the connection to notes with one tag (e.g. #work)
      --review-tags "#a,#b"                 review deck tags (overrides .dexi/settings.json)
      --note-cap N                          note limit (overrides .dexi/settings.json; "none" for no limit)
      --shared OWNER=DIR                    mount a teammate's vault read-only (repeatable)
      --http PORT [--host H]                Streamable HTTP at /mcp instead of stdio (host default 127.0.0.1);
                                            every request needs "Authorization: Bearer TOKEN", and each
                                            token brings its own scopes and boundary (so no --scopes,
                                            --folder or --tag with --http)
      --allow-origin ORIGIN                 with --http: also take requests from the web page at ORIGIN,
                                            e.g. https://app.example.com (repeatable); pages on this
                                            machine are always taken, other pages refused (403)
      --model MODEL                         semantic search model: use-lite (default, ships with npm install),
                                            a transformers.js feature-extraction model id or local folder
                                            (install @huggingface/transformers beside dexi-vault for these),
                                            or none to turn semantic search off
      --pull-feeds MINUTES                  pull the feeds you follow at start and every MINUTES while serving
  dexi-vault index [--vault DIR] [--model MODEL]
                                            build or refresh the indexes (text and vectors), with progress, and exit
  dexi-vault status [--vault DIR] [--json]  where the vault stands: notes and folders, the indexes, embeddings,
                                            feeds, tokens, the assistant's last change; reads, writes nothing
  dexi-vault token create --name NAME [--vault DIR] [--scopes ...] [--folder NAME] [--tag TAG]
                                            make a token for --http; prints it once, as the last line
  dexi-vault token list [--vault DIR] [--json]
                                            names, scopes, boundaries, created; never the tokens
  dexi-vault token revoke NAME [--vault DIR]
                                            refused from the next request on, no restart needed
  dexi-vault import bookmarks FILE [--vault DIR] [--folder F] [--fetch]
                                            a note per bookmark of a browser's HTML export (default folder
                                            Bookmarks), its browser folders as tags; --fetch also saves each
                                            page's readable text as the body and the page as the attachment
  dexi-vault import email PATH [--vault DIR] [--folder F]
                                            a note per message of an .eml file, a folder of them or an mbox
                                            file (default folder Mail), the message kept as its attachment
  dexi-vault feeds add URL [--vault DIR] [--folder F]
                                            follow an RSS, Atom or JSON feed and import its articles now
                                            (default folder Feeds/<feed name>)
  dexi-vault feeds list [--vault DIR] [--json]
                                            the feeds you follow, their folders and last pulls
  dexi-vault feeds pull [--vault DIR]       import the new articles of every feed (an unchanged feed costs one 304)
  dexi-vault feeds remove URL [--vault DIR] stop following a feed; its notes stay
  dexi-vault activity [--vault DIR] [--since 1d] [--json]
                                            what the assistant changed, one line per file written (--since
                                            takes 30m, 12h, 1d, 2w or a date such as 2026-12-01)
  dexi-vault undo NOTE|--last [--vault DIR] put a note back as it was before the assistant's last change to
                                            it (NOTE: its id or path), or undo the latest change of all;
                                            refused if the note has been changed since
  dexi-vault --help | --version

Importing again adds nothing twice and never changes a note already imported;
a note you deleted stays deleted.

--vault defaults to $DEXI_VAULT, else the current directory.`;

/** The commands, as `dexi-vault help COMMAND` and `COMMAND --help` name them. */
export const TOPICS = ['serve', 'index', 'status', 'token', 'import', 'feeds', 'activity', 'undo'] as const;
export type Topic = (typeof TOPICS)[number];

const FOOTER = '--vault defaults to $DEXI_VAULT, else the current directory.';

/**
 * One command's part of USAGE: its lines (a command's first line starts
 * `  dexi-vault COMMAND`, the lines after it are indented further), then
 * the note on --vault. Pure.
 */
export function usageOf(topic: Topic): string {
  const lines: string[] = [];
  let inside = false;
  for (const line of USAGE.split('\n')) {
    if (line.startsWith('  dexi-vault ')) inside = line.startsWith(`  dexi-vault ${topic} `) || line === `  dexi-vault ${topic}`;
    else if (!line.startsWith('      ')) inside = false;
    if (inside) lines.push(line);
  }
  return ['Usage:', ...lines, '', FOOTER].join('\n');
}

/** `dexi-vault help [COMMAND]`: the whole usage, or one command's. */
export function helpOn(topic: string | undefined): { command: 'help'; topic?: Topic } {
  if (topic === undefined) return { command: 'help' };
  const known = TOPICS.find((candidate) => candidate === topic);
  if (known === undefined) throw usage(`There is no command "${topic}"; the commands are ${TOPICS.join(', ')}.`);
  return { command: 'help', topic: known };
}
