import { createPolicy } from '../../access/policy.js';
import { TokenStore } from '../../access/tokens.js';
import { buildInstructions } from '../../server/instructions.js';
import type { ServedVault } from '../../server/served-vault.js';
import { createMcpServer } from '../../server/server.js';
import { serveStdio } from '../../server/transports/stdio.js';
import { ALL_TOOLS } from '../../tools/index.js';
import type { ServeConfig } from '../args.js';
import { feedPuller } from '../feed-scheduler.js';
import { log, version } from '../log.js';
import { openServedVault } from '../open-served-vault.js';
import { stopServing, stopSignals } from '../stopping.js';

/** `serve`: over stdio, or over HTTP with `--http`. */
export async function serveCommand(config: ServeConfig): Promise<void> {
  if (config.http) await serveOverHttp(config, config.http);
  else await serve(config);
}

function logFailedRead(runtime: ServedVault): void {
  runtime.loaded.catch((error: unknown) => log(`Reading the vault failed: ${(error as Error).message}`));
}

/** `serve`: one connection over stdio, with the scopes and boundary of the command line. */
async function serve(config: ServeConfig): Promise<void> {
  const runtime = await openServedVault(config);
  const policyOptions: Parameters<typeof createPolicy>[0] = { scopes: config.scopes };
  if (config.folder !== undefined) policyOptions.folder = config.folder;
  if (config.tag !== undefined) policyOptions.tag = config.tag;
  const context = runtime.context(createPolicy(policyOptions));
  log(`Serving ${runtime.own.root} over stdio (version ${version()}).`);
  logFailedRead(runtime);
  const server = createMcpServer({
    name: 'dexi-vault',
    version: version(),
    tools: ALL_TOOLS,
    context,
    log,
    logs: runtime.logs,
  });
  const puller = feedPuller(runtime, config.pullFeedsMinutes);
  const stop = stopSignals(runtime);
  // The SDK takes instructions when the server is built; the transport
  // writes them into the initialize answer instead, built at that moment.
  await Promise.race([serveStdio(server, () => buildInstructions(context.view, runtime.settings)), stop.signalled]);
  await stopServing(runtime, stop, puller);
}

/** `serve --http`: one process, many connections, each token its own scopes and boundary. */
async function serveOverHttp(config: ServeConfig, http: NonNullable<ServeConfig['http']>): Promise<void> {
  const runtime = await openServedVault(config);
  logFailedRead(runtime);
  const tokens = new TokenStore(runtime.own.root);
  let handle;
  try {
    // Loaded only here, so that stdio start-up does not pay for the HTTP stack.
    const { serveHttp } = await import('../../server/transports/http.js');
    handle = await serveHttp({
      runtime,
      tokens,
      port: http.port,
      host: http.host,
      allowedOrigins: http.allowOrigins,
      tools: ALL_TOOLS,
      serverInfo: { name: 'dexi-vault', version: version() },
      log,
    });
  } catch (error) {
    await runtime.close();
    throw error;
  }
  log(`Serving ${runtime.own.root} over Streamable HTTP at ${handle.url} (version ${version()}); every request needs "Authorization: Bearer TOKEN".`);
  const known = await tokens.entries().catch(() => undefined);
  if (known?.length === 0) {
    log(runtime.own.readOnly ? 'There are no tokens, and none can be made in a vault folder that cannot be written, so every request is refused.' : 'There are no tokens yet, so every request is refused; create one with: dexi-vault token create --name NAME');
  }
  const puller = feedPuller(runtime, config.pullFeedsMinutes);
  const stop = stopSignals(runtime);
  await stop.signalled;
  log('Stopping: closing the sessions.');
  await handle.close();
  await stopServing(runtime, stop, puller);
}
