// Compile-time switches for the explicit probes (seed 004 "设计原则").
//
// A build defines one master constant, __webprof_perf__, and one per probe
// group, __webprof_perf_<group>__ (built-in groups `framework` and `user`,
// plus groups the project declares). Probes are written inside a literal
// `if (__webprof_perf_user__) { ... }`; with the constant false the minifier
// removes the block, the probe imports become unused, and the package's
// `sideEffects: false` lets the bundler drop the implementation, the Wasm
// loader and the reporter code. There is no runtime switch on purpose: a
// runtime switch would keep every probe byte in the bundle.
//
// The bundler integrations (esbuild.mjs, rollup.mjs for Rollup and Vite,
// webpack.mjs) all call resolvePerfFlags() and scanForUnknownGroups(), so an
// unknown group fails every build with the same message.

export const BUILTIN_GROUPS = Object.freeze(['framework', 'user']);
export const MASTER_FLAG = '__webprof_perf__';
const GROUP_NAME = /^[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*$/;
// Any use of a flag in source text; group 1 is the group (absent = master).
const FLAG_USE = /\b__webprof_perf(?:_([A-Za-z0-9]+(?:_[A-Za-z0-9]+)*))?__\b/g;

export class PerfFlagError extends Error {
  constructor(message) {
    super(message);
    this.name = 'PerfFlagError';
  }
}

export function flagName(group) {
  return `__webprof_perf_${group}__`;
}

/**
 * Validates the perf configuration and returns the flag values.
 * @param {{enable?: boolean, probes?: string[], groups?: string[]}} [options]
 *   enable: the master switch (false or absent: every probe off);
 *   probes: the groups to turn on (empty = off);
 *   groups: project-defined groups besides `framework` and `user`.
 * @returns {{known: string[], values: Record<string, boolean>, define: Record<string, string>}}
 *   define: the values as `define` strings (esbuild, webpack DefinePlugin, Vite)
 */
export function resolvePerfFlags(options = {}) {
  const { enable = false, probes = [...BUILTIN_GROUPS], groups = [] } = options;
  if (!Array.isArray(probes))
    throw new PerfFlagError('webprof perf: `probes` must be an array of group names');
  if (!Array.isArray(groups))
    throw new PerfFlagError('webprof perf: `groups` must be an array of group names');
  for (const g of groups) {
    if (typeof g !== 'string' || !GROUP_NAME.test(g)) {
      throw new PerfFlagError(
        `webprof perf: invalid group name ${JSON.stringify(g)} in \`groups\` (letters, digits, single underscores)`,
      );
    }
  }
  const known = [...new Set([...BUILTIN_GROUPS, ...groups])];
  for (const g of probes) {
    if (!known.includes(g)) {
      throw new PerfFlagError(
        `webprof perf: unknown probe group ${JSON.stringify(g)} in \`probes\`; known groups: ${known.join(', ')}` +
          ' (declare project groups in `groups`)',
      );
    }
  }
  const master = enable === true && probes.length > 0;
  const values = { [MASTER_FLAG]: master };
  for (const g of known) values[flagName(g)] = master && probes.includes(g);
  const define = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v ? 'true' : 'false']));
  return { known, values, define };
}

/** The flag values as `define` strings (esbuild, webpack DefinePlugin, Vite). */
export function perfDefine(options) {
  return resolvePerfFlags(options).define;
}

/** Throws PerfFlagError when `source` uses a flag of a group that is not known. */
export function scanForUnknownGroups(source, file, known) {
  if (!source.includes('__webprof_perf')) return;
  for (const m of source.matchAll(FLAG_USE)) {
    const g = m[1];
    if (g !== undefined && !known.includes(g)) {
      const line = source.slice(0, m.index).split('\n').length;
      throw new PerfFlagError(
        `webprof perf: ${file}:${line} uses ${m[0]} but "${g}" is not a known probe group` +
          ` (known: ${known.join(', ')}; declare project groups in \`groups\`)`,
      );
    }
  }
}

/** Replaces every flag in `source` by its literal value (for bundlers without `define`). */
export function replaceFlags(source, values) {
  if (!source.includes('__webprof_perf')) return null;
  return source.replace(FLAG_USE, (all) => (values[all] ? 'true' : 'false'));
}
