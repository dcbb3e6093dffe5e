import { readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createToken,
  findTokenByHash,
  generateSecret,
  hashToken,
  listTokens,
  parseTokenFile,
  policyOfToken,
  revokeToken,
  sameName,
  serialiseTokenFile,
  TokenError,
  TokenStore,
  tokensPath,
  validateTokenName,
  type TokenEntry,
} from '../../src/access/tokens.js';
import { removeDir, tempDir } from '../support/helpers.js';

const dirs: string[] = [];
async function vault(): Promise<string> {
  const dir = await tempDir('dexi-tokens-');
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map(removeDir));
});

function entry(name: string, secret: string, extra: Partial<TokenEntry> = {}): TokenEntry {
  return { name, hash: hashToken(secret), scopes: ['notes:read'], created: '2026-11-30T12:00:00+00:00', ...extra };
}

describe('hashToken', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['dexi_x', hashToken('dexi_x')],
  ])('SHA-256 of %j is %s', (secret, hex) => {
    expect(hashToken(secret)).toBe(hex);
    expect(hashToken(secret)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('generateSecret', () => {
  it('is dexi_ and 32 random bytes in base64url, different every time', () => {
    const secrets = Array.from({ length: 200 }, generateSecret);
    for (const secret of secrets) {
      expect(secret).toMatch(/^dexi_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(secret.slice(5), 'base64url')).toHaveLength(32);
    }
    expect(new Set(secrets).size).toBe(secrets.length);
  });
});

describe('validateTokenName', () => {
  it.each([
    ['laptop', true],
    ['claude-desktop', true],
    ['ci.bot_2', true],
    ['A', true],
    ['x'.repeat(64), true],
    ['x'.repeat(65), false],
    ['', false],
    ['two words', false],
    ['-leading-dash', false],
    ['.hidden', false],
    ['slash/name', false],
    ['naïve', false],
    ['quote"', false],
  ])('%j valid: %s', (name, valid) => {
    if (valid) expect(validateTokenName(name)).toBe(name);
    else expect(() => validateTokenName(name)).toThrow(TokenError);
  });

  it.each([
    ['laptop', 'laptop', true],
    ['Laptop', 'laptop', true],
    ['laptop', 'laptop2', false],
  ])('sameName(%j, %j) is %s', (a, b, same) => {
    expect(sameName(a, b)).toBe(same);
  });
});

describe('findTokenByHash', () => {
  const one = entry('one', 'secret-one');
  const two = entry('two', 'secret-two');
  it.each([
    ['the first entry', [one, two], hashToken('secret-one'), 'one'],
    ['the last entry', [one, two], hashToken('secret-two'), 'two'],
    ['no entry', [one, two], hashToken('secret-three'), undefined],
    ['an empty store', [], hashToken('secret-one'), undefined],
    ['a hash one character short', [one], hashToken('secret-one').slice(0, 63), undefined],
    ['a hash that is not hex', [one], 'zz'.repeat(32), undefined],
    ['the first of two equal hashes', [one, { ...one, name: 'copy' }], hashToken('secret-one'), 'one'],
  ])('finds %s', (_label, entries, hash, name) => {
    expect(findTokenByHash(entries, hash)?.name).toBe(name);
  });
});

describe('parseTokenFile', () => {
  const good = serialiseTokenFile([entry('one', 's1', { folder: 'Work', tag: '#ml' }), entry('two', 's2', { scopes: ['notes:read', 'notes:write'] })]);
  it('reads what serialiseTokenFile writes', () => {
    const entries = parseTokenFile(good);
    expect(entries.map((item) => item.name)).toEqual(['one', 'two']);
    expect(entries[0]).toMatchObject({ folder: 'Work', tag: '#ml', scopes: ['notes:read'] });
    expect(serialiseTokenFile(entries)).toBe(good);
  });

  it.each([
    ['not JSON', '{'],
    ['a bare list', '[]'],
    ['an unknown version', JSON.stringify({ version: 2, tokens: [] })],
    ['a short hash', JSON.stringify({ version: 1, tokens: [{ ...entry('a', 's'), hash: 'abc' }] })],
    ['an unknown scope', JSON.stringify({ version: 1, tokens: [{ ...entry('a', 's'), scopes: ['notes:admin'] }] })],
    ['no scope', JSON.stringify({ version: 1, tokens: [{ ...entry('a', 's'), scopes: [] }] })],
    ['a folder outside the vault', JSON.stringify({ version: 1, tokens: [{ ...entry('a', 's'), folder: '../elsewhere' }] })],
    ['a bad name', JSON.stringify({ version: 1, tokens: [{ ...entry('a', 's'), name: 'two words' }] })],
  ])('refuses %s with one plain sentence', (_label, text) => {
    expect(() => parseTokenFile(text, 'tokens.json')).toThrow(
      'tokens.json is damaged, so every HTTP token is refused; fix it, or delete it and create the tokens again.',
    );
  });
});

describe('policyOfToken', () => {
  it('grants the scopes and boundary stored with the token', () => {
    const policy = policyOfToken({ scopes: ['notes:read'], folder: 'Work', tag: '#ml' });
    expect([...policy.scopes]).toEqual(['notes:read']);
    expect(policy.folder).toBe('Work');
    expect(policy.tag).toBe('#ml');
    expect(policyOfToken({ scopes: ['notes:read', 'notes:write'] }).folder).toBeUndefined();
  });
});

describe('the token file', () => {
  it('is created 0600 under .dexi (not the cache), holding hashes and never secrets', async () => {
    const dir = await vault();
    const { token, secret } = await createToken(dir, { name: 'laptop', scopes: ['notes:read'], folder: '/Work/', tag: 'ml' }, new Date('2026-11-30T12:00:00Z'));
    expect(token).toEqual({ name: 'laptop', scopes: ['notes:read'], folder: 'Work', tag: '#ml', created: '2026-11-30T12:00:00+00:00' });
    expect(token).not.toHaveProperty('hash');
    const file = tokensPath(dir);
    expect(file).toBe(path.join(dir, '.dexi', 'tokens.json'));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(secret);
    expect(text).not.toContain(secret.slice(5));
    expect(text).toContain(hashToken(secret));
  });

  it('lists names, scopes, boundaries and times, never secrets or hashes', async () => {
    const dir = await vault();
    expect(await listTokens(dir)).toEqual([]);
    const a = await createToken(dir, { name: 'a' });
    await createToken(dir, { name: 'b', scopes: ['notes:write'], tag: '#inbox' });
    const listed = await listTokens(dir);
    expect(listed.map((item) => [item.name, item.scopes, item.folder, item.tag])).toEqual([
      ['a', ['notes:read', 'notes:write'], undefined, undefined],
      ['b', ['notes:write'], undefined, '#inbox'],
    ]);
    expect(JSON.stringify(listed)).not.toContain(a.secret);
    expect(JSON.stringify(listed)).not.toContain(hashToken(a.secret));
  });

  it('refuses a duplicate name, whatever its case, and an unknown name to revoke', async () => {
    const dir = await vault();
    await createToken(dir, { name: 'laptop' });
    await expect(createToken(dir, { name: 'Laptop' })).rejects.toThrow(
      'A token named "laptop" already exists; pick another name, or revoke it first with: dexi-vault token revoke laptop',
    );
    await expect(revokeToken(dir, 'phone')).rejects.toThrow('There is no token named "phone"; "dexi-vault token list" shows the names.');
    expect((await listTokens(dir)).map((item) => item.name)).toEqual(['laptop']);
  });

  it('refuses bad input before touching anything', async () => {
    const dir = await vault();
    await expect(createToken(dir, { name: 'ok', folder: '../up' })).rejects.toThrow(TokenError);
    await expect(createToken(dir, { name: 'ok', scopes: [] })).rejects.toThrow('A token needs at least one scope');
    await expect(createToken(dir, { name: 'bad name' })).rejects.toThrow(TokenError);
    await expect(createToken(path.join(dir, 'missing'), { name: 'ok' })).rejects.toThrow(/is not a folder/);
    await expect(stat(path.join(dir, '.dexi'))).rejects.toThrow();
  });

  it('loses no token when several are created at once', async () => {
    const dir = await vault();
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const made = await Promise.all(names.map((name) => createToken(dir, { name })));
    expect((await listTokens(dir)).map((item) => item.name).sort()).toEqual(names);
    const store = new TokenStore(dir);
    for (const { token, secret } of made) expect((await store.verify(secret))?.name).toBe(token.name);
  });
});

describe('TokenStore', () => {
  it('sees tokens created and revoked by others from the next check on', async () => {
    const dir = await vault();
    const store = new TokenStore(dir);
    expect(await store.verify('dexi_anything')).toBeUndefined();
    const first = await createToken(dir, { name: 'first' });
    expect((await store.verify(first.secret))?.name).toBe('first');
    expect(await store.verify(`${first.secret}x`)).toBeUndefined();
    const second = await createToken(dir, { name: 'second' });
    expect((await store.verify(second.secret))?.name).toBe('second');
    await revokeToken(dir, 'FIRST');
    expect(await store.verify(first.secret)).toBeUndefined();
    expect((await store.verify(second.secret))?.name).toBe('second');
  });

  it('refuses every token while the file is damaged, with a plain message, and recovers when it is fixed', async () => {
    const dir = await vault();
    const { secret } = await createToken(dir, { name: 'one' });
    const store = new TokenStore(dir);
    expect((await store.verify(secret))?.name).toBe('one');
    const good = await readFile(tokensPath(dir), 'utf8');
    await writeFile(tokensPath(dir), '{"version": 1, "tokens": [');
    await expect(store.verify(secret)).rejects.toThrow(/tokens\.json is damaged, so every HTTP token is refused/);
    await mkdir(path.join(dir, '.dexi'), { recursive: true });
    await writeFile(tokensPath(dir), good);
    expect((await store.verify(secret))?.name).toBe('one');
  });
});
