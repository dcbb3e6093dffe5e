import { describeCall, undo } from '../../vault/record/undo.js';
import type { UndoConfig } from '../args.js';
import { activityLogOf } from './activity.js';

/** `undo NOTE|--last`: the assistant's last call on a note, or its last call of all, taken back. */
export async function undoCommand(config: UndoConfig): Promise<void> {
  const activity = await activityLogOf(config.vault, 'nothing can be undone in it');
  const call = await undo(activity, config.target);
  const back = call.entries.length === 1 ? 'the note is back as it was before' : `its ${call.entries.length} files are back as they were before`;
  process.stdout.write(`Undid the assistant's ${describeCall(call)}: ${back}.\n`);
}
