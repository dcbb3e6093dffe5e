import { describe, expect, it } from 'vitest';
import { parseCli, UsageError } from '../../src/cli/args.js';

const env = { DEXI_VAULT: '/notes' };

describe('parseCli: the import and feeds commands', () => {
  const accepted: [string[], unknown][] = [
    [['import', 'bookmarks', 'b.html'], { command: 'import', kind: 'bookmarks', vault: '/notes', input: 'b.html', folder: 'Bookmarks', fetch: false }],
    [['import', 'bookmarks', 'b.html', '--fetch', '--folder', 'Web/Saved/'], { command: 'import', kind: 'bookmarks', vault: '/notes', input: 'b.html', folder: 'Web/Saved', fetch: true }],
    [['import', 'email', 'Inbox', '--vault', '/v'], { command: 'import', kind: 'email', vault: '/v', input: 'Inbox', folder: 'Mail', fetch: false }],
    [['feeds', 'add', 'https://x.example/feed', '--folder', 'News'], { command: 'feeds', action: 'add', vault: '/notes', url: 'https://x.example/feed', folder: 'News' }],
    [['feeds', 'add', 'https://x.example/feed'], { command: 'feeds', action: 'add', vault: '/notes', url: 'https://x.example/feed' }],
    [['feeds', 'remove', 'https://x.example/feed'], { command: 'feeds', action: 'remove', vault: '/notes', url: 'https://x.example/feed' }],
    [['feeds', 'list'], { command: 'feeds', action: 'list', vault: '/notes' }],
    [['feeds', 'pull'], { command: 'feeds', action: 'pull', vault: '/notes' }],
    [['serve', '--pull-feeds', '30'], expect.objectContaining({ command: 'serve', pullFeedsMinutes: 30 })],
  ];
  it.each(accepted)('%j', (argv, config) => {
    expect(parseCli(argv, env)).toEqual(config);
  });

  const refused: [string[], string][] = [
    [['import'], 'import needs what to import: bookmarks FILE or email PATH.'],
    [['import', 'photos', 'x'], 'Cannot import "photos"; use bookmarks FILE or email PATH.'],
    [['import', 'email'], 'import email needs an .eml file, a folder of them or an mbox file.'],
    [['import', 'email', 'a', 'b'], 'import email takes one path; got 2.'],
    [['import', 'email', 'a', '--fetch'], "Unknown option '--fetch'."],
    [['import', 'email', 'a', '--folder', '../outside'], '--folder takes a folder of the vault, such as Reading/Web; "../outside" cannot be one: it is not a plain path of folder names.'],
    [['import', 'bookmarks', 'b.html', '--folder', '/etc'], '--folder takes a folder of the vault, such as Reading/Web; "/etc" cannot be one: it is an absolute path.'],
    [['feeds', 'add', 'u', '--folder', '.hidden'], '--folder takes a folder of the vault, such as Reading/Web; ".hidden" cannot be one: it names a hidden folder, which is not part of the vault.'],
    [['import', 'email', 'a', '--folder', 'Mail/nul'], '--folder takes a folder of the vault, such as Reading/Web; "Mail/nul" cannot be one: "nul" is a name Windows reserves for a device.'],
    [['feeds', 'add', 'u', '--folder', 'News\u202Etxt'], '--folder takes a folder of the vault, such as Reading/Web; "News\\u202Etxt" cannot be one: it contains invisible or text-direction characters.'],
    [['feeds'], 'The feeds command needs an action: add, list, pull or remove.'],
    [['feeds', 'fetch'], 'Unknown feeds action "fetch"; use add, list, pull or remove.'],
    [['feeds', 'add'], "feeds add needs the feed's address, e.g. dexi-vault feeds add https://example.com/feed.xml."],
    [['feeds', 'list', 'extra'], "Unexpected argument 'extra'. This command does not take positional arguments"],
    [['serve', '--pull-feeds', '0'], '--pull-feeds takes a whole number of minutes from 1 to 10080 (a week), not "0".'],
    [['serve', '--pull-feeds', '1.5'], '--pull-feeds takes a whole number of minutes from 1 to 10080 (a week), not "1.5".'],
  ];
  it.each(refused)('%j', (argv, message) => {
    let thrown: unknown;
    try {
      parseCli(argv, env);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as Error).message.split('\n')[0]).toBe(message);
  });
});
