import { ImportRun } from '../import/import-run.js';
import type { ImportReport } from '../import/report.js';
import type { ServedVault } from '../server/served-vault.js';
import { systemClock } from '../vault/clock.js';
import { log } from './log.js';
import { WARNING } from '../vault/logger.js';

/** What a server stops before it closes the vault: the pull under way is let finish. */
export interface FeedPuller {
  stop(): Promise<void>;
}

/** `serve --pull-feeds MINUTES`, unless the vault cannot be written; undefined when no feeds are pulled. */
export function feedPuller(runtime: ServedVault, minutes: number | undefined): FeedPuller | undefined {
  if (minutes === undefined) return undefined;
  if (!runtime.own.readOnly) return pullFeedsWhileServing(runtime, minutes);
  log('The feeds are not pulled: their articles would be notes in a vault that cannot be written.');
  return undefined;
}

/**
 * One pull of every feed followed; a failure is a line in the log, never the end of the server.
 * The feed module (and the feed and HTML parsers behind it) loads at the first pull: a server
 * that pulls no feeds does not pay for it at start-up.
 */
async function pullOnce(runtime: ServedVault, report: ImportReport): Promise<void> {
  try {
    const { describePull, pullFeeds } = await import('../import/feeds.js');
    const run = await ImportRun.start(runtime.own, { noteCap: runtime.settings.noteCap });
    try {
      const summary = await pullFeeds(run, report, () => systemClock.now());
      if (summary.feeds > 0) runtime.logs.log(describePull(summary), summary.failed > 0 ? WARNING : undefined);
    } finally {
      await run.close();
    }
  } catch (error) {
    runtime.logs.log(`Pulling the feeds failed: ${(error as Error).message}`, WARNING);
  }
}

/**
 * `serve --pull-feeds MINUTES`: pull once the vault has been read, then
 * every MINUTES, one pull at a time; the articles arrive through the same
 * create as a tool's, so every connection sees them at once.
 */
function pullFeedsWhileServing(runtime: ServedVault, minutes: number): FeedPuller {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const report: ImportReport = { progress: () => undefined, problem: log, finish: log };
  const next = (): void => {
    if (stopped) return;
    running = pullOnce(runtime, report).finally(() => {
      if (!stopped) timer = setTimeout(next, minutes * 60_000);
    });
  };
  runtime.loaded.then(next, () => undefined);
  log(`Pulling the feeds you follow every ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
