// Types of `webprof/transform/esbuild`.
export * from './plugins.js';
import type { SamplingOptions, EsbuildSamplingPlugin } from './plugins.js';

/** The esbuild plugin: a sampling check at every function entry and loop body of the modules esbuild loads. */
export function webprofSampling(options?: SamplingOptions): EsbuildSamplingPlugin;
