import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, the built CLI and the inspector's launcher. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = path.join(ROOT, 'dist', 'app', 'dexi-vault.js');
export const INSPECTOR = path.join(ROOT, 'node_modules', '.bin', 'mcp-inspector');

/** Every tool (the contract's twelve, move_note and the ones beyond the seed): what a connection with both scopes lists when the server runs with a model (the default). */
export const TOOL_NAMES = [
  'search_notes',
  'semantic_search',
  'find_similar',
  'list_notes',
  'get_note',
  'get_daily_note',
  'list_tags',
  'list_folders',
  'list_tasks',
  'list_properties',
  'create_note',
  'update_note',
  'edit_note',
  'move_note',
  'set_properties',
  'complete_task',
  'rename_tag',
  'delete_note',
  'get_due_reviews',
  'grade_review',
];

export interface Run {
  /** The exit code; null when the process was killed (e.g. by the timeout). */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Run a program to completion; never throws for a non-zero exit. */
export function run(
  file: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = execFile(
      file,
      [...args],
      { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, timeout: options.timeoutMs ?? 20_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const ms = Math.round(performance.now() - started);
        if (error && typeof (error as { code?: unknown }).code === 'string') {
          // Could not start at all (ENOENT, EACCES): a test-setup failure, not an exit code.
          reject(error);
          return;
        }
        resolve({ code: child.exitCode, signal: child.signalCode, stdout: String(stdout), stderr: String(stderr), ms });
      },
    );
    // The CLI serves over stdin: give it an empty one so a command that did start ends.
    child.stdin?.end();
  });
}

/** Run the built CLI with the current Node. */
export function runCli(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<Run> {
  return run(process.execPath, [CLI, ...args], options);
}

/** The `*.md` files of a vault the server counts as notes (no dot-folders, no node_modules). */
export async function countNotes(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((rel) => {
    const segments = rel.split(path.sep);
    return rel.endsWith('.md') && !segments.some((segment) => segment.startsWith('.') || segment === 'node_modules');
  }).length;
}

/** A stack frame line, as Node prints them. */
export const STACK_FRAME = /^\s+at .+/m;

/**
 * Poll `attempt` until it returns a value (not undefined), at most `timeoutMs`.
 * For conditions the server reports only when asked (e.g. "the index is still
 * being built"); the interval is a polling step, not a wait for something to happen.
 */
export async function eventually<T>(attempt: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await attempt();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (performance.now() > deadline) {
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
