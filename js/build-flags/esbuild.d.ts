// Types of `webprof/build-flags/esbuild`.
export type { PerfFlagsOptions } from './index.js';
import type { PerfFlagsOptions } from './index.js';

/**
 * An esbuild plugin (structurally esbuild's `Plugin`, so this file needs no esbuild types): defines the perf flags
 * and fails the build on an unknown group. Throws PerfFlagError on a bad configuration.
 */
export function webprofPerf(options?: PerfFlagsOptions): {
  name: 'webprof-perf';
  setup(build: unknown): void;
};
