#!/usr/bin/env node
import { parseCli, USAGE, type CliConfig } from './args.js';
import { activityCommand } from './commands/activity.js';
import { feedsCommand } from './commands/feeds.js';
import { importCommand } from './commands/import.js';
import { indexCommand } from './commands/index.js';
import { serveCommand } from './commands/serve.js';
import { token } from './commands/token.js';
import { undoCommand } from './commands/undo.js';
import { commandEnding } from './failure.js';
import { log, version } from './log.js';

/**
 * The composition root: the command line and the environment become one
 * configuration (args.ts), and the command it names runs with it. Each
 * command lives in commands/; whatever ends one early is said in one line,
 * with the exit code the error carries (commandEnding).
 */
async function run(config: CliConfig): Promise<void> {
  switch (config.command) {
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return;
    case 'version':
      process.stdout.write(`${version()}\n`);
      return;
    case 'index':
      return indexCommand(config);
    case 'serve':
      return serveCommand(config);
    case 'token':
      return token(config, log);
    case 'import':
      return importCommand(config);
    case 'feeds':
      return feedsCommand(config);
    case 'activity':
      return activityCommand(config);
    case 'undo':
      return undoCommand(config);
  }
}

async function main(): Promise<number> {
  try {
    await run(parseCli(process.argv.slice(2), process.env));
    return 0;
  } catch (error) {
    const { line, exitCode } = commandEnding(error, process.env.DEXI_DEBUG);
    log(line);
    return exitCode;
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    log(String(error));
    process.exitCode = 1;
  },
);
