import { createPolicy, type AccessPolicy } from '../access/policy.js';
import { VaultView } from '../access/view.js';
import type { ToolContext } from '../tools/tool.js';
import type { Clock } from '../vault/clock.js';
import type { VaultSettings } from '../vault/settings.js';
import { Vault, type Logger } from '../vault/vault.js';

export interface RuntimeOptions {
  vaultDir: string;
  settings: VaultSettings;
  /** Teammates' vaults, mounted read-only. */
  shared: readonly { owner: string; dir: string }[];
  clock: Clock;
  log: Logger;
}

/**
 * Everything one served vault needs, shared by all its connections: the
 * vault model and teammates' vaults. Opening is quick; reading the notes runs
 * in the background (`loaded`), so the server can answer `initialize` at once.
 */
export class Runtime {
  readonly loaded: Promise<void>;

  private constructor(
    readonly own: Vault,
    readonly teammates: readonly Vault[],
    readonly options: RuntimeOptions,
  ) {
    this.loaded = this.load();
  }

  static async open(options: RuntimeOptions): Promise<Runtime> {
    const own = await Vault.open({ root: options.vaultDir, clock: options.clock, log: options.log });
    const teammates = await Promise.all(
      options.shared.map(({ owner, dir }) => Vault.open({ root: dir, clock: options.clock, log: options.log, readOnly: true, owner })),
    );
    return new Runtime(own, teammates, options);
  }

  private async load(): Promise<void> {
    const started = performance.now();
    await Promise.all([this.own.load(), ...this.teammates.map((vault) => vault.load())]);
    const ms = Math.round(performance.now() - started);
    this.options.log(`Read ${this.own.size} notes in ${this.own.folders().length} folders of ${this.own.root} in ${ms} ms.`);
    for (const vault of this.teammates) {
      const shared = [...vault.all()].filter((record) => record.shared).length;
      this.options.log(`Mounted ${vault.owner}'s vault ${vault.root} read-only: ${shared} shared notes.`);
    }
  }

  get settings(): VaultSettings {
    return this.options.settings;
  }

  /** The tool context for one connection with the given access policy. */
  context(policy: AccessPolicy = createPolicy()): ToolContext {
    return { view: new VaultView(this.own, this.teammates, policy), settings: this.options.settings, clock: this.options.clock };
  }

  async close(): Promise<void> {
    await this.loaded.catch(() => undefined);
  }
}
