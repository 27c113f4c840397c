// esbuild plugin: dense-sampling probe sites in every app module it loads.
//   import { webprofSampling } from 'webprof/transform/esbuild';
//   await esbuild.build({ ..., bundle: true, plugins: [webprofSampling()] });
// Options: include / exclude (RegExp over the path), runtime (specifier).
import { readFile } from 'node:fs/promises';
import { transformForSampling, shouldTransform, JS_FILE, SKIP } from './index.mjs';

export { transformForSampling } from './index.mjs';

export function webprofSampling(options = {}) {
  const include = options.include || JS_FILE;
  const exclude = options.exclude || SKIP;
  return {
    name: 'webprof-sampling',
    setup(build) {
      build.onLoad({ filter: include }, async (args) => {
        if (!shouldTransform(args.path, include, exclude)) return undefined;
        const source = await readFile(args.path, 'utf8');
        const { code, status, map } = await transformForSampling(source, { ...options, file: args.path });
        // esbuild reads an inline source map of loaded contents when it
        // writes source maps itself; the comment goes after the last line.
        const mapped =
          map && build.initialOptions.sourcemap
            ? `${code}//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}\n`
            : code;
        const warnings =
          status === 'Ok' ? [] : [{ text: `webprof: ${args.path} left unsampled (${status})` }];
        return { contents: mapped, loader: 'js', warnings };
      });
    },
  };
}
