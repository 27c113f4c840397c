// Types shared by `webprof/transform/esbuild` and `webprof/transform/rollup` (also `/vite`). The plugins are typed
// structurally, as the bundlers' own plugin types accept them, so no bundler's types are needed.
export { transformForSampling } from '../webprof.js';

/** Which modules get sampling checks. */
export interface SamplingOptions {
  /** Over the module path/id; default every JS/TS file (`node_modules` included). */
  include?: RegExp;
  /** Over the module path/id; default webprof's own files. `exclude: /node_modules/` leaves dependencies out. */
  exclude?: RegExp;
  /**
   * The module that exports the checks' runtime, `__wp$f` and `__wp$p`, and defines the global guard `__wp$on`
   * (default 'webprof'); null: globals of those names (classic scripts).
   */
  runtime?: string | null;
}
/** A source map v3 of one transformed module (lines unchanged; columns shift after each check). */
export interface SamplingSourceMap {
  version: number;
  file?: string;
  sources: string[];
  sourcesContent?: (string | null)[];
  names: string[];
  mappings: string;
}
/** esbuild: `plugins: [webprofSampling()]`. */
export interface EsbuildSamplingPlugin {
  name: 'webprof-sampling';
  setup(build: unknown): void;
}
/** Rollup (`plugins: [webprofSampling()]`) and Vite (the same in vite.config). */
export interface RollupSamplingPlugin {
  name: 'webprof-sampling';
  enforce: 'post';
  configResolved(config: unknown): void;
  transform: {
    order: 'post';
    handler(code: string, id: string): Promise<{ code: string; map: SamplingSourceMap | null } | null>;
  };
}
