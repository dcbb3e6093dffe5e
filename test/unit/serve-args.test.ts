import { describe, expect, it } from 'vitest';
import { parseCli, UsageError } from '../../src/cli/args.js';

describe('parseCli: read-only serving, from the flag or from an MCP bundle\'s DEXI_READ_ONLY', () => {
  const scopes: [string[], Record<string, string>, string[]][] = [
    [['serve'], {}, ['notes:read', 'notes:write']],
    [['serve', '--read-only'], {}, ['notes:read']],
    [['serve', '--read-only', '--scopes', 'notes:read'], {}, ['notes:read']],
    [['serve'], { DEXI_READ_ONLY: 'true' }, ['notes:read']],
    [['serve'], { DEXI_READ_ONLY: 'TRUE' }, ['notes:read']],
    [['serve'], { DEXI_READ_ONLY: '1' }, ['notes:read']],
    [['serve'], { DEXI_READ_ONLY: 'false' }, ['notes:read', 'notes:write']],
    [['serve'], { DEXI_READ_ONLY: '0' }, ['notes:read', 'notes:write']],
    // A bundle whose optional setting was left unset hands down an empty string.
    [['serve'], { DEXI_READ_ONLY: '' }, ['notes:read', 'notes:write']],
    [['serve', '--scopes', 'notes:write'], { DEXI_READ_ONLY: 'false' }, ['notes:write']],
  ];
  it.each(scopes)('%j with %j serves %j', (argv, env, expected) => {
    const config = parseCli(argv, { DEXI_VAULT: '/notes', ...env });
    expect(config.command).toBe('serve');
    if (config.command !== 'serve') return;
    expect([...config.scopes].sort()).toEqual(expected);
  });

  const refused: [string[], Record<string, string>, string][] = [
    [['serve', '--read-only', '--scopes', 'notes:read,notes:write'], {}, '--read-only and --scopes with notes:write ask for opposite things; give one of them.'],
    [['serve', '--scopes', 'notes:write'], { DEXI_READ_ONLY: 'true' }, '--read-only and --scopes with notes:write ask for opposite things; give one of them.'],
    [['serve'], { DEXI_READ_ONLY: 'maybe' }, 'DEXI_READ_ONLY takes true or false, not "maybe".'],
    [['serve', '--http', '0', '--read-only'], {}, '--read-only cannot be used with --http: over HTTP each token carries its own scopes and boundary; give them to "dexi-vault token create" instead.'],
    [
      ['serve', '--http', '0'],
      { DEXI_READ_ONLY: 'true' },
      'DEXI_READ_ONLY cannot be used with --http: over HTTP each token carries its own scopes; make a read-only one with "dexi-vault token create --scopes notes:read".',
    ],
  ];
  it.each(refused)('%j with %j is refused', (argv, env, message) => {
    let thrown: unknown;
    try {
      parseCli(argv, { DEXI_VAULT: '/notes', ...env });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as Error).message.split('\n')[0]).toBe(message);
  });
});
