// Types of `webprof/transform/rollup` and `webprof/transform/vite`.
export * from './plugins.js';
import type { SamplingOptions, RollupSamplingPlugin } from './plugins.js';

/** The Rollup / Vite plugin: a sampling check at every function entry and loop body, after other transforms. */
export function webprofSampling(options?: SamplingOptions): RollupSamplingPlugin;
