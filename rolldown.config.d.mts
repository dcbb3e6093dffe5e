// Types of rolldown.config.mjs, for test/support/worker-bundles.ts, which bundles the same workers
// from their source with the same packages left outside.
import type { RolldownOptions } from 'rolldown';

declare const config: RolldownOptions & { input: Record<string, string> };
export default config;
