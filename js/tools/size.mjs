// `npm run size`: the raw and gzip (-9) size of every file in dist/ and of
// what a page really loads per way of using webprof (the drop-in; the ES
// module as an app bundles it; the probes alone, flags on and off), as a
// Markdown table for docs/BENCHMARKS.md. tests/js/size.test.mjs holds the
// budgets against the same numbers.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'dist');

export const sizeOf = (bytes) => ({ raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
const sum = (...s) => ({ raw: s.reduce((a, x) => a + x.raw, 0), gzip: s.reduce((a, x) => a + x.gzip, 0) });

/** Every file of dist/ (declarations aside), by path relative to dist/. */
export function distFiles() {
  const walk = (dir) =>
    readdirSync(dir).flatMap((f) =>
      statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)],
    );
  return Object.fromEntries(
    walk(dist)
      .filter((f) => !f.endsWith('.d.ts'))
      .sort()
      .map((f) => [relative(dist, f), sizeOf(readFileSync(f))]),
  );
}

// An app of one import, bundled and minified by esbuild from dist/ (what
// an app's bundler keeps of webprof), with the perf flags given.
async function appBundle(source, flags) {
  const r = await esbuild.build({
    stdin: { contents: source, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
    define: flags,
    alias: { webprof: join(dist, 'webprof.mjs'), 'webprof/perf': join(dist, 'webprof-perf.mjs') },
  });
  const js = Buffer.from(r.outputFiles[0].contents);
  // The core the bundle loads: the page's when the full API is in it, else
  // the probes' own (js/core/instance.mjs), else none.
  const wasm = ['webprof-core.wasm', 'webprof-probes.wasm'].find((f) => js.includes(f)) || null;
  return { js: sizeOf(js), wasm };
}
const NONE = { raw: 0, gzip: 0 };

const on = { __webprof_perf__: 'true', __webprof_perf_user__: 'true', __webprof_perf_framework__: 'true' };
const off = {
  __webprof_perf__: 'false',
  __webprof_perf_user__: 'false',
  __webprof_perf_framework__: 'false',
};
const PROBES_APP =
  "import { start, end, aggrStart, aggrEnd, setReporter } from 'webprof/perf';\n" +
  'if (__webprof_perf__) { setReporter(console.log); start(); aggrEnd(aggrStart("x")); end(); }\n';

// The same with every probes module in use (an app's bundler keeps only the
// modules whose exports the app imports: js/perf.mjs).
const PROBES_CONSOLE_APP =
  "import { start, end, aggrStart, aggrEnd, setReporter, consoleReporter, installFrameworkProbes } from 'webprof/perf';\n" +
  'if (__webprof_perf__) { installFrameworkProbes(); setReporter(consoleReporter); start(); aggrEnd(aggrStart("x")); end(); }\n';

/** What a page loads per way of using webprof. */
export async function usageSizes(files = distFiles()) {
  const wasm = files['webprof-core.wasm'];
  const chunks = staticChunks('webprof.mjs');
  const profilerApp = await appBundle(
    "import { Profiler } from 'webprof';\nnew Profiler({ sampleInterval: 1, maxBufferSize: 1e4 }).stop();\n",
    off,
  );
  const probesOn = await appBundle(PROBES_APP, on);
  const probesOff = await appBundle(PROBES_APP, off);
  const probesConsole = await appBundle(PROBES_CONSOLE_APP, on);
  return {
    'drop-in, first load: webprof.js + .wasm': sum(files['webprof.js'], wasm),
    // Fetched by the first Profiler.stop(), export, transform or source map
    // (js/core/tools.mjs).
    'drop-in after its first export: + webprof-tools.wasm + webprof-tools.js': sum(
      files['webprof.js'],
      wasm,
      files['webprof-tools.wasm'],
      files['webprof-tools.js'],
    ),
    // What the entry imports statically (the tools module's JS is a chunk it
    // imports on first use).
    'ES module as shipped: webprof.mjs + its static chunks + .wasm': sum(
      files['webprof.mjs'],
      ...chunks.map((c) => files[c]),
      wasm,
    ),
    'app bundle using Profiler (esbuild, minified) + .wasm': sum(profilerApp.js, wasm),
    'probes alone, flags on: app bundle (esbuild, minified) + .wasm': sum(
      probesOn.js,
      probesOn.wasm ? files[probesOn.wasm] : NONE,
    ),
    'probes alone with the console reporter and framework probes, flags on: app bundle + .wasm': sum(
      probesConsole.js,
      probesConsole.wasm ? files[probesConsole.wasm] : NONE,
    ),
    'probes alone, flags off: app bundle (no .wasm)': sum(
      probesOff.js,
      probesOff.wasm ? files[probesOff.wasm] : NONE,
    ),
  };
}

// The chunks an ES module of dist/ imports statically, transitively.
export function staticChunks(file, seen = new Set()) {
  const text = readFileSync(join(dist, file), 'utf8');
  for (const m of text.matchAll(/\bfrom\s*["']\.\/(webprof-chunk-\w+\.mjs)["']/g)) {
    if (!seen.has(m[1])) {
      seen.add(m[1]);
      staticChunks(m[1], seen);
    }
  }
  return [...seen];
}

const kb = (n) => (n / 1024).toFixed(1);
function table(rows) {
  const lines = ['| what | raw KB | gzip KB |', '| --- | ---: | ---: |'];
  for (const [name, s] of Object.entries(rows)) lines.push(`| ${name} | ${kb(s.raw)} | ${kb(s.gzip)} |`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = distFiles();
  console.log(table(Object.fromEntries(Object.entries(files).map(([f, s]) => [`\`dist/${f}\``, s]))));
  console.log();
  console.log(table(await usageSizes(files)));
}
