import { importBookmarks } from '../../import/import-bookmarks.js';
import { importEmail } from '../../import/import-email.js';
import type { ImportConfig } from '../args.js';
import { openForImport } from '../open-served-vault.js';
import { importReport } from '../progress.js';

/** `import bookmarks|email`. */
export async function importCommand(config: ImportConfig): Promise<void> {
  const { runtime, run } = await openForImport(config.vault, `no ${config.kind === 'bookmarks' ? 'bookmark' : 'message'} can be imported into it`);
  try {
    if (config.kind === 'bookmarks') await importBookmarks(run, { file: config.input, folder: config.folder, fetchPages: config.fetch }, importReport('Importing bookmarks'));
    else await importEmail(run, { path: config.input, folder: config.folder }, importReport('Importing messages'));
  } finally {
    await run.close();
    await runtime.close();
  }
}
