import { execFileSync } from 'node:child_process';

/** Run git in `dir` as a person would, with a fixed identity and, where given, a past commit date. */
export function git(dir: string, args: string[], date?: string): string {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.org', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.org' };
  if (date !== undefined) {
    env.GIT_AUTHOR_DATE = date;
    env.GIT_COMMITTER_DATE = date;
  }
  return execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'core.autocrlf=false', ...args], { cwd: dir, env, encoding: 'utf8' });
}

/** Make `dir` a git work tree with everything in it committed at `date`. */
export function commitAll(dir: string, message: string, date?: string): void {
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', message], date);
}

export function initRepo(dir: string, date?: string): void {
  git(dir, ['init', '-q']);
  commitAll(dir, 'first', date);
}

/** What `git status` would show a person: empty when the server wrote nothing. */
export function gitStatus(dir: string): string {
  return git(dir, ['status', '--porcelain', '--untracked-files=all']);
}
