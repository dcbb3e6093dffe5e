import { describe, expect, it } from 'vitest';
import { PolicyError } from '../../src/access/policy.js';
import { TokenError } from '../../src/access/tokens.js';
import { UsageError } from '../../src/cli/args.js';
import { commandEnding, failureSentence } from '../../src/cli/failure.js';
import { DexiError as FilesDexiError } from '../../src/storage/errors.js';
import { BodyEditError } from '../../src/format/body-ops.js';
import { FrontmatterLayoutError } from '../../src/format/frontmatter-edit.js';
import { OutlineTargetError } from '../../src/format/outline.js';
import { BookmarksError } from '../../src/import/bookmarks.js';
import { ConversionError } from '../../src/import/convert-pool.js';
import { EmailError } from '../../src/import/email.js';
import { FeedError } from '../../src/import/feed.js';
import { FeedsError } from '../../src/import/feeds.js';
import { FetchError } from '../../src/import/fetch.js';
import { ImportStoppedError } from '../../src/import/import-run.js';
import { HttpStartError, thrownResult } from '../../src/server/errors.js';
import { HistoryError } from '../../src/vault/record/activity.js';
import { DexiError, NoteNotFoundError } from '../../src/vault/errors.js';
import { SettingsError } from '../../src/vault/settings.js';
import { UndoError } from '../../src/vault/record/undo.js';
import { VaultUnavailableError } from '../../src/vault/vault.js';

describe('one error base carries its exit code and its tool sentence', () => {
  it('is the same class from src/storage/errors.ts and src/vault/errors.ts', () => {
    expect(DexiError).toBe(FilesDexiError);
  });

  const cases: { error: DexiError; exitCode: number }[] = [
    { error: new UsageError('Unknown option --x.'), exitCode: 2 },
    { error: new SettingsError('settings.json is not valid JSON; fix or delete it.'), exitCode: 1 },
    { error: new VaultUnavailableError('The vault /v is not a folder.'), exitCode: 1 },
    { error: new TokenError('There is no token named "x".'), exitCode: 1 },
    { error: new PolicyError('Unknown scope "x".'), exitCode: 1 },
    { error: new HttpStartError('Port 1 on 127.0.0.1 is already in use.'), exitCode: 1 },
    { error: new BookmarksError('The file is not a bookmark export.'), exitCode: 1 },
    { error: new EmailError('The file is not a message.'), exitCode: 1 },
    { error: new FeedError('The address does not serve a feed.'), exitCode: 1 },
    { error: new FeedsError('You already follow https://example.com/feed.xml.'), exitCode: 1 },
    { error: new FetchError('https://example.com/', 'the server answered 500.'), exitCode: 1 },
    { error: new ConversionError('it took too long.', 'The page'), exitCode: 1 },
    { error: new ImportStoppedError('Stopped after 3 notes.'), exitCode: 1 },
    { error: new HistoryError('The old version is gone.'), exitCode: 1 },
    { error: new UndoError('Nothing to undo.'), exitCode: 1 },
    { error: new FrontmatterLayoutError('its frontmatter would not read back'), exitCode: 1 },
    { error: new BodyEditError('Text not found in the note'), exitCode: 1 },
    { error: new OutlineTargetError('Heading not found: Tasks'), exitCode: 1 },
    { error: new NoteNotFoundError(), exitCode: 1 },
  ];

  it.each(cases.map((item) => [item.error.name, item] as const))('%s ends a command with its sentence and exit code %#', (_name, { error, exitCode }) => {
    expect(error).toBeInstanceOf(DexiError);
    expect(commandEnding(error, undefined)).toEqual({ line: error.message, exitCode });
  });

  it.each(cases.map((item) => [item.error.name, item] as const))('%s ends a tool call with its sentence, word for word', (_name, { error }) => {
    const logged: string[] = [];
    expect(thrownResult('get_note', error, (line) => logged.push(line))).toEqual({ content: [{ type: 'text', text: error.message }], isError: true });
    expect(logged).toEqual([]);
  });

  it('ends anything else as unexpected: failureSentence on the command line, "could not finish" in a tool', () => {
    const fault = new TypeError('x is undefined');
    expect(commandEnding(fault, undefined)).toEqual({ line: failureSentence(fault, undefined), exitCode: 1 });
    const refused = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    const logged: string[] = [];
    const result = thrownResult('update_note', refused, (line) => logged.push(line));
    expect(result.content).toEqual([{ type: 'text', text: 'update_note could not finish (permission denied on the vault folder). Nothing was lost; try again, and see the server log if it keeps failing.' }]);
    expect(logged).toHaveLength(1);
  });
});
