import path from 'node:path';
import { addFeed, describePull, pullFeeds, readSubscriptions, removeFeed } from '../../import/feeds.js';
import { systemClock } from '../../vault/clock.js';
import type { FeedsConfig } from '../args.js';
import { columns } from '../columns.js';
import { log } from '../log.js';
import { openForImport } from '../open-served-vault.js';
import { importReport } from '../progress.js';
import { cannotWrite, openVaultFolder } from '../vault-folder.js';

/** `feeds add|list|remove|pull`. */
export async function feedsCommand(config: FeedsConfig): Promise<void> {
  const vault = path.resolve(config.vault);
  if (config.action === 'list' || config.action === 'remove') {
    const folder = await openVaultFolder(vault, config.action === 'remove');
    if (folder.readOnlyBecause !== undefined) throw cannotWrite(folder, 'its list of feeds cannot be changed');
  }
  if (config.action === 'list') {
    const feeds = await readSubscriptions(vault);
    if (config.json === true) {
      // What the table shows; the validators kept for the next pull are the server's business.
      const items = feeds.map(({ name, folder, url, added, lastPulled, lastError }) => ({ name, folder, url, added, ...(lastPulled === undefined ? {} : { lastPulled }), ...(lastError === undefined ? {} : { lastError }) }));
      process.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
      return;
    }
    if (feeds.length === 0) {
      log(`You follow no feeds in ${vault} yet; add one with: dexi-vault feeds add URL`);
      return;
    }
    process.stdout.write(
      columns([['NAME', 'FOLDER', 'LAST PULLED', 'URL'], ...feeds.map((feed) => [feed.name, feed.folder, feed.lastError === undefined ? (feed.lastPulled ?? 'never') : `failed: ${feed.lastError}`, feed.url])]),
    );
    return;
  }
  if (config.action === 'remove') {
    const gone = await removeFeed(vault, config.url);
    log(`No longer following "${gone.name}" (${gone.url}); its notes in ${gone.folder}/ stay.`);
    return;
  }
  const { runtime, run } = await openForImport(vault, config.action === 'add' ? 'no feed can be followed into it' : 'no feed can be pulled into it');
  try {
    if (config.action === 'add') await addFeed(run, config.url, config.folder, importReport('Importing articles'), systemClock.now());
    else {
      const report = importReport('Pulling feeds');
      report.finish(describePull(await pullFeeds(run, report, () => systemClock.now())));
    }
  } finally {
    await run.close();
    await runtime.close();
  }
}
