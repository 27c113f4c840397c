// Rollup / Vite plugin: dense-sampling probe sites in every app module.
//   import { webprofSampling } from 'webprof/transform/rollup';
//   export default { plugins: [webprofSampling()] };   // rollup.config or vite.config
// Options: include / exclude (RegExp over the id), runtime (specifier).
import { transformForSampling, shouldTransform, JS_FILE, SKIP } from './index.mjs';

export { transformForSampling } from './index.mjs';

export function webprofSampling(options = {}) {
  const include = options.include || JS_FILE;
  const exclude = options.exclude || SKIP;
  return {
    name: 'webprof-sampling',
    enforce: 'post', // Vite: after other transforms, on plain JavaScript
    async transform(code, id) {
      if (!shouldTransform(id.split('?')[0], include, exclude)) return null;
      const r = await transformForSampling(code, { ...options, file: id });
      if (r.status !== 'Ok') {
        this.warn(`webprof: ${id} left unsampled (${r.status})`);
        return null;
      }
      // Lines are unchanged; the map covers columns after a body's `{`.
      return { code: r.code, map: r.map };
    },
  };
}
