// Types of `webprof/build-flags/rollup` (Rollup and Vite).
export type { PerfFlagsOptions } from './index.js';
import type { PerfFlagsOptions } from './index.js';

/**
 * A Rollup / Vite plugin (structurally their `Plugin`, so this file needs neither's types): replaces the perf
 * flags by literals, fails the build on an unknown group and keeps
 * the core's `.wasm` out of a bundle that no longer needs it. Throws PerfFlagError on a bad configuration.
 */
export function webprofPerf(options?: PerfFlagsOptions): {
  name: 'webprof-perf';
  enforce: 'pre';
  transform(code: string, id: string): { code: string; map: null; moduleSideEffects?: boolean } | null;
  /** Removes the core's `.wasm` asset when no chunk names it (the probes that needed it were dropped). */
  generateBundle(options: unknown, bundle: Record<string, unknown>): void;
};
