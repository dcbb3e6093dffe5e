import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli/args.js';
import { didYouMean, editDistance } from '../../src/cli/suggest.js';
import { TOPICS, USAGE, usageOf } from '../../src/cli/usage.js';

const env = { DEXI_VAULT: '/notes' };

describe('editDistance and didYouMean', () => {
  it.each([
    ['vault', 'vault', 0],
    ['vualt', 'vault', 1],
    ['idnex', 'index', 1],
    ['serv', 'serve', 1],
    ['folders', 'folder', 1],
    ['', 'abc', 3],
    ['kitten', 'sitting', 3],
  ])('%s → %s: %d', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
  });

  it.each([
    ['vualt', ['vault', 'model'], '--', ' Did you mean --vault?'],
    ['modle', ['vault', 'model'], '--', ' Did you mean --model?'],
    ['idnex', TOPICS, '', ' Did you mean index?'],
    ['REVOKE', ['create', 'list', 'revoke'], '', ' Did you mean revoke?'],
    ['x', ['vault', 'model'], '--', ''],
    ['frobnicate', TOPICS, '', ''],
    ['fetch', ['vault', 'folder', 'help'], '--', ''],
  ])('%s among %j', (typed, known, prefix, expected) => {
    expect(didYouMean(typed, known, prefix)).toBe(expected);
  });
});

describe('the command line says what was meant', () => {
  it.each([
    [['serve', '--vualt', '/v'], "Unknown option '--vualt'. Did you mean --vault?"],
    [['index', '--modle', 'none'], "Unknown option '--modle'. Did you mean --model?"],
    [['--raed-only'], "Unknown option '--raed-only'. Did you mean --read-only?"],
    [['idnex'], 'Unknown command "idnex". Did you mean index?'],
    [['activty'], 'Unknown command "activty". Did you mean activity?'],
    [['feeds', 'lsit'], 'Unknown feeds action "lsit"; use add, list, pull or remove. Did you mean list?'],
    [['token', 'revok', 'ci'], 'Unknown token action "revok"; use create, list or revoke. Did you mean revoke?'],
    [['activity', '--snice', '1d'], "Unknown option '--snice'. Did you mean --since?"],
  ])('%j', (argv, message) => {
    expect(() => parseCli(argv, env)).toThrow(message);
  });
});

describe('help, whole or for one command', () => {
  it.each([
    [['--help'], undefined],
    [['help'], undefined],
    [['help', 'index'], 'index'],
    [['index', '--help'], 'index'],
    [['serve', '-h'], 'serve'],
    [['--vault', '/v', '--help'], 'serve'],
    [['token', '--help'], 'token'],
    [['token', 'list', '--help'], 'token'],
    [['import', '--help'], 'import'],
    [['import', 'email', 'x', '--help'], 'import'],
    [['feeds', 'list', '--help'], 'feeds'],
    [['activity', '--help'], 'activity'],
    [['undo', '--help'], 'undo'],
    [['status', '--help'], 'status'],
  ])('%j', (argv, topic) => {
    expect(parseCli(argv, env)).toEqual(topic === undefined ? { command: 'help' } : { command: 'help', topic });
  });

  it('refuses help on a command that does not exist', () => {
    expect(() => parseCli(['help', 'frob'], env)).toThrow('There is no command "frob"; the commands are serve, index, status, token, import, feeds, activity, undo.');
  });

  it.each(TOPICS.map((topic) => [topic]))('%s: its own lines of the usage, and no other command', (topic) => {
    const text = usageOf(topic);
    expect(text.startsWith('Usage:\n')).toBe(true);
    expect(text).toContain(`  dexi-vault ${topic}`);
    expect(text.endsWith('--vault defaults to $DEXI_VAULT, else the current directory.')).toBe(true);
    for (const other of TOPICS.filter((candidate) => candidate !== topic)) expect(text, other).not.toContain(`dexi-vault ${other} `);
    // Every line of it is a line of the whole usage.
    for (const line of text.split('\n')) if (line !== '') expect(USAGE.split('\n'), line).toContain(line);
  });

  it('serve\'s help holds its options, index\'s only its own', () => {
    expect(usageOf('serve')).toContain('--http PORT');
    expect(usageOf('index')).not.toContain('--http PORT');
    expect(usageOf('index').split('\n')).toHaveLength(5);
  });
});
