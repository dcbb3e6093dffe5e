import { readFileSync } from 'node:fs';

/** Log lines go to stderr: stdout belongs to the protocol. */
export const log = (line: string): void => {
  process.stderr.write(`dexi-vault: ${line}\n`);
};

/** The package's version, as `--version` prints it and the servers announce it. */
export function version(): string {
  // This module sits two folders below the package, in src/cli/ as in dist/cli/ and dist/app/.
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
