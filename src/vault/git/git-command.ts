import { spawn } from 'node:child_process';

/*
 * Running git, for the history reader (git-history.ts).
 *
 * Safety of running git on the person's repository. Only read commands run
 * (rev-parse, ls-tree, log; never `status`, which refreshes the index), with
 * optional locks off, and with every setting that could make them start
 * another program or change the output's shape pinned on the command line:
 * no pager, no fsmonitor hook, no signature checks (gpg), no external diff
 * or text conversion, no colour, paths from the repository root.
 */
const GIT_SAFETY_ARGS = [
  '--no-pager',
  '-c', 'core.fsmonitor=false',
  '-c', 'log.showSignature=false',
  '-c', 'diff.relative=false',
  '-c', 'color.ui=false',
];

// The vault, not variables the server happened to inherit (from a git hook or
// an editor's terminal), decides which repository is read and how.
const INHERITED_GIT_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_PREFIX', 'GIT_NAMESPACE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_EXTERNAL_DIFF'];

function gitEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of INHERITED_GIT_VARIABLES) delete env[name];
  // No index.lock or other optional writes into .git for reading.
  env.GIT_OPTIONAL_LOCKS = '0';
  env.GIT_PAGER = 'cat';
  env.GIT_TERMINAL_PROMPT = '0';
  // A partial clone would otherwise fetch missing blobs for rename detection (git 2.44 and later honour this).
  env.GIT_NO_LAZY_FETCH = '1';
  return env;
}

export type GitRun = { kind: 'exited'; code: number; stderr: string } | { kind: 'unavailable'; reason: string };

const STDERR_KEPT = 4096;

/**
 * Run git, handing its output to `onStdout` as it arrives (a history of tens
 * of thousands of commits is tens of megabytes: never buffered whole). git
 * that cannot be started at all (not installed: ENOENT) is "unavailable"; an
 * exception from `onStdout` stops git and rejects, and so does an abort.
 */
export function runGit(gitBinary: string, args: string[], cwd: string, onStdout: (chunk: Buffer) => void, signal?: AbortSignal): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(gitBinary, [...GIT_SAFETY_ARGS, ...args], {
      cwd,
      env: gitEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      ...(signal ? { signal } : {}),
    });
    let stderr = '';
    let failure: unknown;
    child.stdout.on('data', (chunk: Buffer) => {
      if (failure !== undefined) return;
      try {
        onStdout(chunk);
      } catch (error) {
        failure = error;
        child.kill();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_KEPT) stderr += chunk.toString('utf8');
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (failure !== undefined) return;
      failure = error;
      if (signal?.aborted) reject(signal.reason);
      else if (error.code === 'ENOENT') resolve({ kind: 'unavailable', reason: 'git is not installed' });
      else resolve({ kind: 'unavailable', reason: `git could not be started: ${error.message}` });
    });
    child.on('close', (code) => {
      if (failure === undefined) resolve({ kind: 'exited', code: code ?? -1, stderr: stderr.trim() });
      else reject(signal?.aborted ? signal.reason : failure);
    });
  });
}

/** Run git and keep its whole output: for short answers such as rev-parse's. */
export async function runGitCollect(gitBinary: string, args: string[], cwd: string, signal?: AbortSignal): Promise<{ run: GitRun; stdout: string }> {
  const chunks: Buffer[] = [];
  const run = await runGit(gitBinary, args, cwd, (chunk) => chunks.push(chunk), signal);
  return { run, stdout: Buffer.concat(chunks).toString('utf8') };
}

