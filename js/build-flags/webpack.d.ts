// Types of `webprof/build-flags/webpack`.
export type { PerfFlagsOptions } from './index.js';
import type { PerfFlagsOptions } from './index.js';
export { perfDefine } from './index.js';

/**
 * A webpack 5 plugin (structurally a `WebpackPluginInstance`): the perf flags through DefinePlugin, and a
 * compilation error for an unknown group used in a module. Throws PerfFlagError on a bad configuration.
 */
export class WebprofPerfWebpackPlugin {
  constructor(options?: PerfFlagsOptions);
  /** Every group this configuration knows (built-in and `groups`). */
  readonly known: string[];
  /** The `define` values it gives DefinePlugin. */
  readonly define: Record<string, 'true' | 'false'>;
  apply(compiler: unknown): void;
}
