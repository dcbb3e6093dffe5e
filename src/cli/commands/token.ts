import path from 'node:path';
import { createToken, listTokens, revokeToken, tokensPath, type TokenInfo } from '../../access/tokens.js';
import { systemClock } from '../../vault/clock.js';
import type { TokenConfig } from '../args.js';
import { columns } from '../columns.js';
import { cannotWrite, openVaultFolder } from '../vault-folder.js';

function describeBoundary(token: Pick<TokenInfo, 'folder' | 'tag'>): string {
  const parts: string[] = [];
  if (token.folder !== undefined) parts.push(`folder ${token.folder}`);
  if (token.tag !== undefined) parts.push(`tag ${token.tag}`);
  return parts.length > 0 ? parts.join(', ') : 'none';
}

/** `token create|list|revoke`. Only the new token itself goes to stdout, so it can be captured with `| tail -1`. */
export async function token(config: TokenConfig, log: (line: string) => void): Promise<void> {
  const vault = path.resolve(config.vault);
  const folder = await openVaultFolder(vault, config.action !== 'list');
  if (folder.readOnlyBecause !== undefined) throw cannotWrite(folder, config.action === 'create' ? 'no token can be made for it' : 'the token cannot be revoked');
  switch (config.action) {
    case 'create': {
      const options: Parameters<typeof createToken>[1] = { name: config.name, scopes: config.scopes };
      if (config.folder !== undefined) options.folder = config.folder;
      if (config.tag !== undefined) options.tag = config.tag;
      const { token: made, secret } = await createToken(vault, options, systemClock.now());
      const boundary = describeBoundary(made);
      log(`Created the token "${made.name}" for ${vault}: ${made.scopes.join(', ')}${boundary === 'none' ? ', no boundary' : `, limited to ${boundary}`}.`);
      log(`Copy it now: it is shown only this once (${tokensPath(vault)} keeps only its hash). Clients send it as "Authorization: Bearer TOKEN" to dexi-vault serve --http.`);
      process.stdout.write(`${secret}\n`);
      return;
    }
    case 'list': {
      const tokens = await listTokens(vault);
      if (config.json === true) {
        // The same fields as the table; the token itself is never kept, so never shown.
        const items = tokens.map((item) => ({ name: item.name, scopes: item.scopes, ...(item.folder === undefined ? {} : { folder: item.folder }), ...(item.tag === undefined ? {} : { tag: item.tag }), created: item.created }));
        process.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
        return;
      }
      if (tokens.length === 0) {
        log(`No tokens for ${vault} yet; create one with: dexi-vault token create --name NAME`);
        return;
      }
      process.stdout.write(columns([['NAME', 'SCOPES', 'BOUNDARY', 'CREATED'], ...tokens.map((item) => [item.name, item.scopes.join(','), describeBoundary(item), item.created])]));
      return;
    }
    case 'revoke': {
      const gone = await revokeToken(vault, config.name);
      log(`Revoked the token "${gone.name}"; a running server refuses it from its next request on.`);
      return;
    }
  }
}
