// Rollup / Vite plugin: dense-sampling probe sites in every module.
//   import { webprofSampling } from 'webprof/transform/rollup';
//   export default { plugins: [webprofSampling()] };   // rollup.config or vite.config
// Options: include / exclude (RegExp over the id; dependencies in
// node_modules are included by default, `exclude: /node_modules/` leaves
// them out), runtime (specifier).
//
// The transform hook runs last (`order: 'post'`, Vite `enforce: 'post'`),
// after TypeScript, JSX and CommonJS plugins have turned a module into
// JavaScript with import/export, so it samples compiled code and binds the
// runtime with an import. A module it cannot read is passed on unchanged and
// reported once with the reason (this.warn). Vite's dev server pre-bundles
// dependencies outside the plugin pipeline: they are sampled in `vite build`,
// and in dev only when listed in `optimizeDeps.exclude` (said once at startup).
import { transformForSampling, shouldTransform, unsampledMessage, ownFile, JS_FILE, SKIP } from './index.mjs';

export { transformForSampling } from './index.mjs';

export function webprofSampling(options = {}) {
  const include = options.include || JS_FILE;
  const exclude = options.exclude || SKIP;
  const reported = new Set();
  // The runtime module itself is never transformed (it would import itself).
  let runtimeId;
  const runtime = options.runtime === undefined ? 'webprof' : options.runtime;
  return {
    name: 'webprof-sampling',
    enforce: 'post',
    configResolved(config) {
      if (config.command === 'serve' && !exclude.test('/node_modules/'))
        config.logger.warn(
          'webprof: in `vite dev`, dependencies pre-bundled by Vite are not sampled ' +
            '(`vite build` samples them; or list them in optimizeDeps.exclude)',
        );
    },
    transform: {
      order: 'post',
      async handler(code, id) {
        if (!shouldTransform(id.split('?')[0], include, exclude)) return null;
        if (runtimeId === undefined && runtime !== null) {
          const r = await this.resolve(runtime, id);
          runtimeId = r ? r.id : null;
        }
        if (id === runtimeId || ownFile(runtime, runtimeId, id)) return null;
        const r = await transformForSampling(code, { ...options, format: 'esm', file: id });
        if (r.status !== 'Ok') {
          if (!reported.has(id)) {
            reported.add(id);
            this.warn(unsampledMessage(id, r));
          }
          return null;
        }
        if (r.sites === 0) return null;
        // Lines are unchanged; the map covers columns after each insertion.
        return { code: r.code, map: r.map };
      },
    },
  };
}
