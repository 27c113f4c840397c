// Rollup / Vite plugin: replaces the perf flags by literals (Rollup has no
// `define`) before tree-shaking, and fails the build on an unknown group.
//   rollup({ plugins: [webprofPerf({ enable: false })] })
//   vite: defineConfig({ plugins: [webprofPerf({ enable: true })] })
import { fileURLToPath } from 'node:url';
import { resolvePerfFlags, scanForUnknownGroups, replaceFlags } from './index.mjs';

// webprof's own modules (js/, dist/, the Emscripten loader): side-effect
// free, as package.json says; Rollup does not read `sideEffects` itself.
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
function isWebprofModule(id) {
  if (!id.startsWith(PACKAGE_ROOT)) return false;
  const rel = id.slice(PACKAGE_ROOT.length);
  return /^(js|dist|build\/wasm)\//.test(rel);
}

export function webprofPerf(options) {
  const { known, values } = resolvePerfFlags(options); // throws on a bad configuration
  return {
    name: 'webprof-perf',
    enforce: 'pre', // Vite: before other transforms see the identifiers
    transform(code, id) {
      if (!/\.[cm]?[jt]sx?$/.test(id.split('?')[0])) return null;
      try {
        scanForUnknownGroups(code, id, known);
      } catch (e) {
        this.error(e.message);
      }
      const out = replaceFlags(code, values);
      const sideEffects = isWebprofModule(id) ? { moduleSideEffects: false } : {};
      if (out === null) return Object.keys(sideEffects).length ? { code, map: null, ...sideEffects } : null;
      return { code: out, map: null, ...sideEffects };
    },
  };
}
