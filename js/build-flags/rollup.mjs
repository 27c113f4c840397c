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

function isCoreWasm(asset) {
  const names = [...(asset.names || []), ...(asset.originalFileNames || []), asset.name || ''];
  return names.some((n) => /(^|\/)webprof-(core|probes)\.wasm$/.test(n));
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
    // Vite emits a core's .wasm as soon as it transforms webprof's
    // `new URL('./webprof-probes.wasm', import.meta.url)` (or the page
    // core's), before tree-shaking
    // drops the probes that needed it (flags off): that asset, when no chunk
    // names it, leaves the bundle.
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((f) => f.type === 'chunk');
      for (const [fileName, file] of Object.entries(bundle)) {
        if (file.type !== 'asset' || !isCoreWasm(file)) continue;
        const base = fileName.slice(fileName.lastIndexOf('/') + 1);
        if (!chunks.some((c) => c.code.includes(base))) delete bundle[fileName];
      }
    },
  };
}
