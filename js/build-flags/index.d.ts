// Types shared by the build-flag plugins (index.mjs). Not an entry point of its own: each plugin re-exports
// what its users need.

/** The probe configuration every build-flag plugin takes. */
export interface PerfFlagsOptions {
  /** The master switch; false or absent: every probe off, and the bundle keeps nothing of them. */
  enable?: boolean;
  /** The groups to turn on (default all known groups; empty: off). */
  probes?: string[];
  /** Project-defined groups besides `framework` and `user` (letters, digits, single underscores). */
  groups?: string[];
}
/** A bad configuration, or a source file that uses the flag of an unknown group. */
export class PerfFlagError extends Error {
  name: 'PerfFlagError';
}
/** The flag values as `define` strings (`'true'`/`'false'`), for esbuild, webpack's DefinePlugin or Vite's `define`. */
export function perfDefine(options?: PerfFlagsOptions): Record<string, 'true' | 'false'>;
