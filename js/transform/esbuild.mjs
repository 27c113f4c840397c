// esbuild plugin: dense-sampling probe sites in every app module it loads.
//   import { webprofSampling } from 'webprof/transform/esbuild';
//   await esbuild.build({ ..., bundle: true, plugins: [webprofSampling()] });
// Options: include / exclude (RegExp over the path), runtime (specifier).
import { readFile } from 'node:fs/promises';
import { transformForSampling, shouldTransform } from './index.mjs';

export { transformForSampling } from './index.mjs';

export function webprofSampling(options = {}) {
  const include = options.include || /\.(m?js|jsx)$/;
  const exclude = options.exclude || /node_modules|[\\/]webprof[\\/](js|dist)[\\/]/;
  return {
    name: 'webprof-sampling',
    setup(build) {
      build.onLoad({ filter: include }, async (args) => {
        if (!shouldTransform(args.path, include, exclude)) return undefined;
        const source = await readFile(args.path, 'utf8');
        const { code, status } = await transformForSampling(source, options);
        const warnings =
          status === 'Ok' ? [] : [{ text: `webprof: ${args.path} left unsampled (${status})` }];
        return { contents: code, loader: 'js', warnings };
      });
    },
  };
}
