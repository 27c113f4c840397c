// What sampling dependencies costs: an app that parses with acorn (a
// dependency in node_modules), bundled by esbuild with the sampling plugin
// at its default (dependencies transformed) and with `exclude:
// /node_modules/`, and without the plugin (the baseline, same run). Prints
// build time, bundle size, and the app's run time with webprof loaded but no
// profiler running (the checks' idle cost), medians of interleaved runs.
// `node tests/bench/transform_deps_cost_bench.mjs [runs]` (default 7).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { webprofSampling } from '../../dist/transform-esbuild.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const runs = Number(process.argv[2] || 7);
const dir = join(root, 'build', 'bench-deps-cost');
mkdirSync(dir, { recursive: true });
const entry = join(dir, 'app.mjs');
writeFileSync(
  entry,
  "import { parse } from 'acorn';\n" +
    'export function work(src) {\n  let n = 0;\n' +
    "  for (let i = 0; i < 3; i++) n += parse(src, { ecmaVersion: 'latest', sourceType: 'module' }).body.length;\n" +
    '  return n;\n}\n',
);
const dist = join(root, 'dist', 'webprof.mjs');
const variants = {
  'no plugin (baseline)': [],
  'plugin, dependencies excluded': [
    webprofSampling({ runtime: dist, exclude: /node_modules|[\\/]dist[\\/]/ }),
  ],
  'plugin default (dependencies sampled)': [webprofSampling({ runtime: dist })],
};
const built = {};
for (const [name, plugins] of Object.entries(variants)) {
  const outfile = join(dir, `${Object.keys(built).length}.mjs`);
  const t0 = performance.now();
  await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile,
    external: [dist],
    plugins,
    logLevel: 'silent',
  });
  built[name] = { outfile, buildMs: performance.now() - t0, bytes: readFileSync(outfile).length, times: [] };
}
const webprof = await import(pathToFileURL(dist).href);
await webprof.ready;
const src = readFileSync(join(root, 'node_modules', 'acorn', 'dist', 'acorn.mjs'), 'utf8');
const mods = {};
for (const [name, b] of Object.entries(built)) mods[name] = await import(pathToFileURL(b.outfile).href);
for (let r = 0; r < runs; r++) {
  for (const [name, b] of Object.entries(built)) {
    const t0 = performance.now();
    mods[name].work(src);
    b.times.push(performance.now() - t0);
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const base = built['no plugin (baseline)'];
for (const [name, b] of Object.entries(built)) {
  console.log(
    `${name}: build ${b.buildMs.toFixed(0)} ms, bundle ${(b.bytes / 1024).toFixed(0)} KiB ` +
      `(×${(b.bytes / base.bytes).toFixed(2)}), run ${median(b.times).toFixed(1)} ms (×${(median(b.times) / median(base.times)).toFixed(2)})`,
  );
}
rmSync(dir, { recursive: true, force: true });
