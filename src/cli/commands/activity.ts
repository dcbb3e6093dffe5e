import { settledEntries } from '../../vault/record/activity-settle.js';
import { ActivityLog } from '../../vault/record/activity.js';
import { systemClock } from '../../vault/clock.js';
import { activityItems, activityRows, sinceTime } from '../activity.js';
import { UsageError, type ActivityConfig } from '../args.js';
import { columns } from '../columns.js';
import { log } from '../log.js';
import { cannotWrite, openVaultFolder } from '../vault-folder.js';

/** The activity record of the vault at `dir`; `refused`, for undo, says what cannot happen when the vault cannot be written. */
export async function activityLogOf(dir: string, refused?: string): Promise<ActivityLog> {
  const folder = await openVaultFolder(dir, refused !== undefined);
  if (refused !== undefined && folder.readOnlyBecause !== undefined) throw cannotWrite(folder, refused);
  return new ActivityLog(folder.root, systemClock, log);
}

/** `activity [--since WHEN]`: the record, as aligned columns on stdout. */
export async function activityCommand(config: ActivityConfig): Promise<void> {
  const activity = await activityLogOf(config.vault);
  const since = config.since === undefined ? undefined : sinceTime(config.since, systemClock.now());
  if (config.since !== undefined && since === undefined) throw new UsageError(`--since takes a span such as 30m, 12h, 1d or 2w, or a date such as 2026-12-01; "${config.since}" is not a date.`);
  // A listing writes nothing: what a killed server left pending is judged from the files, and settled by the next start or undo.
  const entries = await settledEntries(activity, { persist: false });
  if (config.json === true) {
    process.stdout.write(`${JSON.stringify(activityItems(entries, since), null, 2)}\n`);
    return;
  }
  const rows = activityRows(entries, since);
  if (rows.length === 1) {
    log(config.since === undefined ? 'The assistant has changed nothing in this vault that is on record.' : `The assistant has changed nothing since ${config.since}.`);
    return;
  }
  process.stdout.write(columns(rows));
}
