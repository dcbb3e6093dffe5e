import { DexiError } from '../vault/errors.js';
import { describeCode } from './vault-folder.js';

/** What a system call was doing, in words, for the sentence about a file it could not use. */
const DOING: Record<string, string> = {
  open: 'open',
  read: 'read',
  write: 'write',
  mkdir: 'make the folder',
  rmdir: 'remove the folder',
  scandir: 'list the folder',
  opendir: 'list the folder',
  rename: 'replace',
  unlink: 'remove',
  stat: 'look at',
  lstat: 'look at',
  link: 'link',
  copyfile: 'copy',
};

/**
 * The one line a command that failed unexpectedly ends with, never a stack
 * trace: a file the system refused is named with the reason ("could not
 * open /v/.dexi/feeds.json (permission denied)"); anything else is a fault
 * of dexi-vault, said as one, with its stack only when `debug`
 * (DEXI_DEBUG, read by the CLI) asks for it.
 */
export function failureSentence(error: unknown, debug: string | undefined): string {
  const wanted = debug !== undefined && debug !== '' && debug !== '0' && debug !== 'false';
  const failure = error as NodeJS.ErrnoException;
  if (error instanceof Error && typeof failure.code === 'string' && typeof failure.path === 'string') {
    const doing = DOING[failure.syscall ?? ''] ?? 'use';
    const what = `Stopped: dexi-vault could not ${doing} ${failure.path} (${describeCode(failure.code)}).`;
    return wanted ? `${what}\n${failure.stack ?? ''}` : what;
  }
  const message = error instanceof Error ? error.message : String(error);
  const what = `Stopped by an unexpected error: ${message}. This is a fault of dexi-vault; please report it with this line${wanted ? '' : ' (DEXI_DEBUG=1 shows where it happened)'}.`;
  return wanted && error instanceof Error ? `${what}\n${error.stack ?? ''}` : what;
}

/**
 * How a command that threw ends: the line it leaves on stderr and its exit
 * code. A DexiError is a sentence meant for the person and carries its own
 * code (2 for a `UsageError`, else 1); anything else is unexpected, said by
 * failureSentence, exit code 1.
 */
export function commandEnding(error: unknown, debug: string | undefined): { line: string; exitCode: number } {
  if (error instanceof DexiError) return { line: error.message, exitCode: error.exitCode };
  return { line: failureSentence(error, debug), exitCode: 1 };
}
