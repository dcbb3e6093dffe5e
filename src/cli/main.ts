#!/usr/bin/env node
import { parseCli, type CliConfig } from './args.js';
import { USAGE, usageOf } from './usage.js';
import { commandEnding } from './failure.js';
import { log, version } from './log.js';

/**
 * The composition root: the command line and the environment become one
 * configuration (args.ts), and the command it names runs with it. Each
 * command lives in commands/; whatever ends one early is said in one line,
 * with the exit code the error carries (commandEnding). A command's module
 * is loaded only when it runs: loading them all (the MCP SDK, the importers'
 * HTML and feed parsers, the vector index's native add-on) cost every start,
 * `--version` included, some 0.4 s of CPU.
 */
async function run(config: CliConfig): Promise<void> {
  switch (config.command) {
    case 'help':
      process.stdout.write(`${config.topic === undefined ? USAGE : usageOf(config.topic)}\n`);
      return;
    case 'version':
      process.stdout.write(`${version()}\n`);
      return;
    case 'index':
      return (await import('./commands/index.js')).indexCommand(config);
    case 'serve': {
      // Begun before the command's modules load: see early-scan.ts. Only a vault named on the command line can be listed this early.
      const early = config.vaultGiven ? (await import('./early-scan.js')).beginEarlyScan(config.vault) : undefined;
      return (await import('./commands/serve.js')).serveCommand(config, early);
    }
    case 'token':
      return (await import('./commands/token.js')).token(config, log);
    case 'import':
      return (await import('./commands/import.js')).importCommand(config);
    case 'feeds':
      return (await import('./commands/feeds.js')).feedsCommand(config);
    case 'activity':
      return (await import('./commands/activity.js')).activityCommand(config);
    case 'undo':
      return (await import('./commands/undo.js')).undoCommand(config);
    case 'status':
      return (await import('./commands/status.js')).statusCommand(config);
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
