import { createPolicy, type AccessPolicy } from '../../access/policy.js';
import { TokenStore } from '../../access/tokens.js';
import { buildInstructions, instructionsBeforeVault } from '../../server/instructions.js';
import type { ServedVault } from '../../server/served-vault.js';
import { createMcpServer, serverShell, type ServerOptions } from '../../server/server.js';
import { serveStdio, serveStdioDeferred } from '../../server/transports/stdio.js';
import { ALL_TOOLS } from '../../tools/index.js';
import type { ServeConfig } from '../args.js';
import type { EarlyScan } from '../../vault/workers/scan-pool.js';
import { feedPuller } from '../feed-scheduler.js';
import { log, version } from '../log.js';
import { openServedVault } from '../open-served-vault.js';
import { clientVaultFolder } from '../roots.js';
import { stopServing, stopSignals } from '../stopping.js';

/** `serve`: over stdio, or over HTTP with `--http`. */
export async function serveCommand(config: ServeConfig, earlyScan?: EarlyScan): Promise<void> {
  if (config.http) await serveOverHttp(config, config.http, earlyScan);
  // Over HTTP many clients share one vault, so only a stdio client's roots can name it.
  else if (!config.vaultGiven) await serveFromRoots(config);
  else await serve(config, earlyScan);
}

/** The policy of the one stdio connection: the scopes and boundary of the command line. */
function stdioPolicy(config: ServeConfig): AccessPolicy {
  const policyOptions: Parameters<typeof createPolicy>[0] = { scopes: config.scopes };
  if (config.folder !== undefined) policyOptions.folder = config.folder;
  if (config.tag !== undefined) policyOptions.tag = config.tag;
  return createPolicy(policyOptions);
}

/** The name and version every server announces in its initialize answer. */
function serverInfo(): { name: string; version: string } {
  return { name: 'dexi-vault', version: version() };
}

/** What the stdio connection's server is built of, whichever way its vault was found. */
function stdioServerOptions(runtime: ServedVault, policy: AccessPolicy): ServerOptions {
  return { ...serverInfo(), tools: ALL_TOOLS, context: runtime.context(policy), log, logs: runtime.logs };
}

function logFailedRead(runtime: ServedVault): void {
  runtime.loaded.catch((error: unknown) => log(`Reading the vault failed: ${(error as Error).message}`));
}

/** `serve`: one connection over stdio, with the scopes and boundary of the command line. */
async function serve(config: ServeConfig, earlyScan: EarlyScan | undefined): Promise<void> {
  const runtime = await openServedVault(config, true, undefined, earlyScan);
  const options = stdioServerOptions(runtime, stdioPolicy(config));
  const { context } = options;
  log(`Serving ${runtime.own.root} over stdio (version ${version()}).`);
  logFailedRead(runtime);
  const server = createMcpServer(options);
  const puller = feedPuller(runtime, config.pullFeedsMinutes);
  const stop = stopSignals(runtime);
  // The SDK takes instructions when the server is built; the transport
  // writes them into the initialize answer instead, built at that moment.
  await Promise.race([serveStdio(server, () => buildInstructions(context.view, runtime.settings)), stop.signalled]);
  await stopServing(runtime, stop, puller);
}

/**
 * `serve` over stdio with no vault given: the vault is the client's first
 * root that is a folder, or the current folder for a client that offers
 * none (src/cli/roots.ts). A stand-in answers `initialize` with the same
 * capabilities (`serverShell`) and a general orientation; every request
 * after it waits until the vault is open and the real server has it
 * (transports/handover.ts). The vault's first read runs in the background
 * as with --vault, with the tools waiting on it as they always do.
 */
async function serveFromRoots(config: ServeConfig): Promise<void> {
  const policy = stdioPolicy(config);
  // logging: the real server has the vault's log feed (stdioServerOptions).
  const boot = serverShell({ ...serverInfo(), logging: true, instructions: instructionsBeforeVault(policy) }, policy);
  let runtime: ServedVault | undefined;
  let puller: ReturnType<typeof feedPuller> | undefined;
  const stop = stopSignals({ hurry: () => runtime?.hurry() });
  log(`Neither --vault nor $DEXI_VAULT names a vault: it is taken from the client's roots once the client connects (version ${version()}).`);
  const open = async (client: typeof boot): Promise<typeof boot> => {
    const { folder, from } = await clientVaultFolder(client, config.vault, log);
    runtime = await openServedVault({ ...config, vault: folder.root }, true, folder);
    log(`Serving ${runtime.own.root} over stdio (version ${version()}), ${from}.`);
    logFailedRead(runtime);
    puller = feedPuller(runtime, config.pullFeedsMinutes);
    return createMcpServer(stdioServerOptions(runtime, policy));
  };
  const rootsChanged = (): void =>
    log(`The client's roots changed; this server keeps serving ${runtime ? runtime.own.root : 'the vault it chose from them'} until it is started again.`);
  await Promise.race([serveStdioDeferred(boot, open, rootsChanged), stop.signalled]);
  await stopServing(runtime, stop, puller);
}

/** `serve --http`: one process, many connections, each token its own scopes and boundary. */
async function serveOverHttp(config: ServeConfig, http: NonNullable<ServeConfig['http']>, earlyScan: EarlyScan | undefined): Promise<void> {
  const runtime = await openServedVault(config, true, undefined, earlyScan);
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
      serverInfo: serverInfo(),
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
