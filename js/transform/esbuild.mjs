// esbuild plugin: dense-sampling probe sites in every module esbuild loads.
//   import { webprofSampling } from 'webprof/transform/esbuild';
//   await esbuild.build({ ..., bundle: true, plugins: [webprofSampling()] });
// Options: include / exclude (RegExp over the path; dependencies in
// node_modules are included by default, `exclude: /node_modules/` leaves
// them out), runtime (specifier).
//
// onLoad runs before esbuild compiles a file, so TypeScript and JSX (and a
// `.js` file the build's `loader` option says holds JSX) are compiled here
// first with esbuild's own transform (the build's jsx settings, the nearest
// tsconfig.json without `extends`), then sampled as JavaScript. A file the
// transform cannot read is loaded unchanged and reported once, with the
// reason, as an esbuild warning.
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { transformForSampling, shouldTransform, unsampledMessage, ownFile, JS_FILE, SKIP } from './index.mjs';

export { transformForSampling } from './index.mjs';

const DEFAULT_LOADERS = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.jsx': 'jsx' };
const JSX_OPTIONS = ['jsx', 'jsxFactory', 'jsxFragment', 'jsxImportSource', 'jsxDev', 'jsxSideEffects'];

async function nearestTsconfig(file) {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const p = join(dir, 'tsconfig.json');
    if (existsSync(p)) return readFile(p, 'utf8');
    if (dirname(dir) === dir) return undefined;
  }
}

export function webprofSampling(options = {}) {
  const include = options.include || JS_FILE;
  const exclude = options.exclude || SKIP;
  return {
    name: 'webprof-sampling',
    setup(build) {
      const initial = build.initialOptions;
      const reported = new Set();
      // The runtime module itself is never transformed (it would import
      // itself and sample the sampler).
      let runtimePath = null;
      const runtime = options.runtime === undefined ? 'webprof' : options.runtime;
      const isRuntime = async (path) => {
        if (runtime === null) return false;
        if (runtimePath === null) {
          const r = await build.resolve(runtime, {
            kind: 'import-statement',
            resolveDir: initial.absWorkingDir || process.cwd(),
          });
          runtimePath = r.errors.length ? '' : r.path;
        }
        return path === runtimePath || ownFile(runtime, runtimePath, path);
      };
      build.onLoad({ filter: include, namespace: 'file' }, async (args) => {
        if (!shouldTransform(args.path, include, exclude) || (await isRuntime(args.path))) return undefined;
        const ext = extname(args.path);
        const loader = (initial.loader && initial.loader[ext]) || DEFAULT_LOADERS[ext] || 'js';
        if (loader !== 'js' && loader !== 'jsx' && loader !== 'ts' && loader !== 'tsx') return undefined;
        let source = await readFile(args.path, 'utf8');
        if (loader !== 'js') {
          const jsx = {};
          for (const k of JSX_OPTIONS) if (initial[k] !== undefined) jsx[k] = initial[k];
          const compiled = await build.esbuild.transform(source, {
            ...jsx,
            loader,
            sourcefile: args.path,
            sourcemap: initial.sourcemap ? 'inline' : false,
            tsconfigRaw:
              initial.tsconfigRaw || (loader.startsWith('ts') ? await nearestTsconfig(args.path) : undefined),
          });
          source = compiled.code;
        }
        const r = await transformForSampling(source, { ...options, format: 'auto', file: args.path });
        const warnings = [];
        if (r.status !== 'Ok' && !reported.has(args.path)) {
          reported.add(args.path);
          warnings.push({ text: unsampledMessage(args.path, r) });
        }
        // esbuild reads an inline source map of loaded contents when it
        // writes source maps itself; the comment goes after the last line.
        // (A compiled file keeps the compiler's map: lines stay right.)
        const mapped =
          r.map && initial.sourcemap && loader === 'js'
            ? `${r.code}//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(r.map)).toString('base64')}\n`
            : r.code;
        return { contents: mapped, loader: 'js', warnings };
      });
    },
  };
}
