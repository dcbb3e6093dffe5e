import { describe, expect, it } from 'vitest';
import { parseCli, UsageError } from '../../src/cli/args.js';

/** The first line of the usage error `argv` is refused with. */
function usageErrorOf(argv: string[], env: Record<string, string> = {}): string {
  let thrown: unknown;
  try {
    parseCli(argv, { DEXI_VAULT: '/notes', ...env });
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(UsageError);
  return (thrown as Error).message.split('\n')[0] as string;
}

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
    expect(usageErrorOf(argv, env)).toBe(message);
  });
});

describe('parseCli: whether the vault was given, or is left to the client\'s roots', () => {
  const cases: [string[], Record<string, string>, string, boolean][] = [
    [['serve', '--vault', '/v'], {}, '/v', true],
    [['serve', '--vault', '/v'], { DEXI_VAULT: '/notes' }, '/v', true],
    [['serve'], { DEXI_VAULT: '/notes' }, '/notes', true],
    [['serve', '--read-only'], { DEXI_VAULT: '/notes' }, '/notes', true],
    [['serve'], {}, process.cwd(), false],
    [['--model', 'none'], {}, process.cwd(), false],
    [['serve', '--http', '0'], {}, process.cwd(), false],
  ];
  it.each(cases)('%j with %j serves %s, given: %s', (argv, env, vault, given) => {
    const config = parseCli(argv, env);
    expect(config.command === 'serve' && { vault: config.vault, given: config.vaultGiven }).toEqual({ vault, given });
  });
});

describe('parseCli: activity and undo', () => {
  const accepted: [string[], unknown][] = [
    [['activity'], { command: 'activity', vault: '/notes' }],
    [['activity', '--since', '1d'], { command: 'activity', vault: '/notes', since: '1d' }],
    [['activity', '--since', '2026-12-01', '--vault', '/v'], { command: 'activity', vault: '/v', since: '2026-12-01' }],
    [['undo', '--last'], { command: 'undo', vault: '/notes', target: { last: true } }],
    [['undo', 'Projects/Plan.md'], { command: 'undo', vault: '/notes', target: { note: 'Projects/Plan.md' } }],
    [['undo', '00000000-0000-4000-8000-000000000001', '--vault', '/v'], { command: 'undo', vault: '/v', target: { note: '00000000-0000-4000-8000-000000000001' } }],
  ];
  it.each(accepted)('%j', (argv, config) => {
    expect(parseCli(argv, { DEXI_VAULT: '/notes' })).toEqual(config);
  });

  const refused: [string[], string][] = [
    [['activity', '--since', 'yesterday'], '--since takes a span such as 30m, 12h, 1d or 2w, or a date such as 2026-12-01; not "yesterday".'],
    [['activity', 'extra'], "Unexpected argument 'extra'. This command does not take positional arguments"],
    [['undo'], 'undo needs the note to put back (its id or path, as "dexi-vault activity" shows it), or --last.'],
    [['undo', 'a.md', 'b.md'], 'undo takes one note; got 2.'],
    [['undo', 'a.md', '--last'], 'undo takes a note or --last, not both.'],
  ];
  it.each(refused)('%j', (argv, message) => {
    expect(usageErrorOf(argv)).toBe(message);
  });
});

describe('parseCli: serve --http --allow-origin', () => {
  const accepted: [string[], string[]][] = [
    [['serve', '--http', '8080'], []],
    [['serve', '--http', '8080', '--allow-origin', 'https://app.example.com'], ['https://app.example.com']],
    // Normalised as browsers send it: lower case, no default port, no trailing slash; the same origin twice is one.
    [['serve', '--http', '8080', '--allow-origin', 'HTTPS://App.Example.com:443/', '--allow-origin', 'https://app.example.com'], ['https://app.example.com']],
    [['serve', '--http', '8080', '--allow-origin', 'http://192.168.1.5:3000', '--allow-origin', 'http://[fe80::1]:8080'], ['http://192.168.1.5:3000', 'http://[fe80::1]:8080']],
  ];
  it.each(accepted)('%j lets through %j', (argv, origins) => {
    const config = parseCli(argv, { DEXI_VAULT: '/notes' });
    expect(config.command === 'serve' && config.http?.allowOrigins).toEqual(origins);
  });

  const form = 'takes a web page\'s origin: http:// or https://, a host and an optional port, nothing after (e.g. https://app.example.com or http://192.168.1.5:3000)';
  const refused: [string[], string][] = [
    [['serve', '--allow-origin', 'https://app.example.com'], '--allow-origin only applies with --http PORT.'],
    [['serve', '--http', '0', '--allow-origin', 'app.example.com'], `--allow-origin ${form}; "app.example.com" is not one.`],
    [['serve', '--http', '0', '--allow-origin', 'https://app.example.com/mcp'], `--allow-origin ${form}; "https://app.example.com/mcp" is not one.`],
    [['serve', '--http', '0', '--allow-origin', '*'], `--allow-origin ${form}; "*" is not one.`],
    [['serve', '--http', '0', '--allow-origin', 'null'], `--allow-origin ${form}; "null" is not one.`],
    [['serve', '--http', '0', '--allow-origin', 'file:///home'], `--allow-origin ${form}; "file:///home" is not one.`],
    [['serve', '--http', '0', '--allow-origin', 'https://user@app.example.com'], `--allow-origin ${form}; "https://user@app.example.com" is not one.`],
  ];
  it.each(refused)('%j', (argv, message) => {
    expect(usageErrorOf(argv)).toBe(message);
  });
});
