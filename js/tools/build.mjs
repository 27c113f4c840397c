// `npm run build`: native core (tests, benchmarks), Wasm core, then dist/.
// --js-only skips the native builds (dist/ needs only the Wasm core).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { minify } from 'terser';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const jsOnly = process.argv.includes('--js-only');
const jobs = process.env.WEBPROF_JOBS || '2';

function run(cmd, args, env = {}) {
  console.error(`[build] ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
}

if (!jsOnly) {
  // native: tests + benchmarks; sanitize: the same tests under ASan+UBSan;
  // fuzz: libFuzzer targets (clang).
  for (const preset of ['native', 'sanitize', 'fuzz']) {
    run('cmake', ['--preset', preset]);
    run('cmake', ['--build', `build/${preset}`, '-j', jobs]);
  }
}
run('cmake', ['--preset', 'wasm'], { NODE_PATH: '/usr/share/nodejs' });
run('cmake', ['--build', 'build/wasm', '-j', jobs], { NODE_PATH: '/usr/share/nodejs' });

const dist = join(root, 'dist');
// Chunk names carry a content hash: start clean so no stale chunk ships.
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
// The page's load-time core, its tools module (fetched on first use), the
// Node-side tools' core (all of it plus what only Node runs) and the probes'
// own (what `webprof/perf` alone needs): wasm/CMakeLists.txt.
for (const f of [
  'webprof-core.wasm',
  'webprof-tools.wasm',
  'webprof-core-node.wasm',
  'webprof-probes.wasm',
]) {
  copyFileSync(join(root, 'build/wasm/wasm', f), join(dist, f));
}

const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const common = {
  bundle: true,
  target: 'es2020',
  logLevel: 'warning',
  legalComments: 'none',
  absWorkingDir: root,
  // Copies of one version on a page share one core (js/core/page.mjs).
  define: { __WEBPROF_VERSION__: JSON.stringify(version), __WEBPROF_CLASSIC__: 'false' }, // js/core/core.mjs
};

// The browser ES module entries, built together: what they share (the core
// loader, probes, sampler) goes into one chunk, so a page importing several
// of them evaluates it once: one Wasm instance, one probes state. The chunk
// sits beside the entries, where its `new URL('./webprof-core.wasm',
// import.meta.url)` finds the .wasm; its name starts with `webprof-chunk-`
// (the own-frame prefix in js/profiler/stack_capture.mjs relies on it).
// webprof-perf.mjs holds the probes behind the compile-time flags
// (js/build-flags/): flags off, a bundler drops its chunk import.
await esbuild.build({
  ...common,
  entryPoints: { webprof: 'js/index.mjs', 'webprof-perf': 'js/perf.mjs' },
  outdir: dist,
  outExtension: { '.js': '.mjs' },
  splitting: true,
  chunkNames: 'webprof-chunk-[hash]',
  format: 'esm',
  platform: 'neutral',
});
// The drop-in classic <script>: defines exactly one global and finds the
// .wasm next to itself through document.currentScript. Its tools module's JS
// (js/tools-js.mjs, loaded on first use) is a second classic script,
// webprof-tools.js, that must share webprof.js's modules (their state) rather
// than carry copies: both entries are split by esbuild first (what both use
// lands in one shared chunk), then webprof.js is the entry with that chunk
// as an IIFE that opens a slot holding the chunk's exports
// (js/core/tools-js-classic.mjs), and webprof-tools.js is the other entry as
// an IIFE that reads the chunk's exports from the slot and fills in its own.
await buildClassic();
async function buildClassic() {
  const classicDefine = { ...common.define, __WEBPROF_CLASSIC__: 'true', 'import.meta.url': 'undefined' };
  const split = await esbuild.build({
    ...common,
    // The drop-in's entry also hands the build its slot (js/core/tools-js-classic.mjs).
    entryPoints: { webprof: 'virtual:classic-entry', 'webprof-tools': 'js/tools-js.mjs' },
    plugins: [
      {
        name: 'classic-entry',
        setup(build) {
          build.onResolve({ filter: /^virtual:classic-entry$/ }, (a) => ({
            path: a.path,
            namespace: 'entry',
          }));
          build.onLoad({ filter: /.*/, namespace: 'entry' }, () => ({
            contents:
              "export * from './js/index.mjs';\n" +
              "export { classicSlot as __classicSlot } from './js/core/tools-js-classic.mjs';\n",
            resolveDir: root,
            loader: 'js',
          }));
        },
      },
    ],
    outdir: join(dist, '.classic'),
    splitting: true,
    chunkNames: 'shared-[hash]',
    format: 'esm',
    platform: 'browser',
    define: classicDefine,
    write: false,
    metafile: true,
  });
  const files = new Map(split.outputFiles.map((f) => [f.path, f.text]));
  const outputs = Object.entries(split.metafile.outputs).map(([path, o]) => ({
    path: join(root, path),
    ...o,
  }));
  const shared = outputs.filter((o) => /[\\/]shared-\w+\.js$/.test(o.path));
  if (shared.length !== 1)
    throw new Error(
      `[build] expected one chunk shared by webprof.js and webprof-tools.js, got ${shared.length}`,
    );
  const chunk = shared[0];
  const entry = outputs.find((o) => /[\\/]webprof\.js$/.test(o.path));
  const publicNames = entry.exports.filter((n) => n !== '__classicSlot');
  const KEY = "globalThis[Symbol.for('webprof.tools-js')]";
  const VERSION = JSON.stringify(version);
  // hostChunk: the shared chunk is read from the slot (webprof-tools.js).
  const fromMemory = (hostChunk) => ({
    name: 'classic-split',
    setup(build) {
      build.onResolve({ filter: /^(virtual:|\.\/)/ }, (a) =>
        a.path.startsWith('virtual:')
          ? { path: a.path, namespace: 'classic' }
          : { path: join(dist, '.classic', a.path), namespace: 'classic' },
      );
      build.onLoad({ filter: /.*/, namespace: 'classic' }, (a) => {
        if (a.path === 'virtual:webprof')
          return {
            contents:
              `import * as shared from './${basename(chunk.path)}';\n` +
              `import { __classicSlot, ${publicNames.join(', ')} } from './webprof.js';\n` +
              `__classicSlot.shared = shared;\n${KEY} = __classicSlot;\n` +
              `export { ${publicNames.join(', ')} };\n`,
            loader: 'js',
          };
        if (a.path === 'virtual:tools')
          return {
            contents:
              `import * as api from './webprof-tools.js';\nconst slot = ${KEY};\n` +
              `if (slot && slot.version === ${VERSION}) slot.exports = api;\n`,
            loader: 'js',
          };
        if (hostChunk && a.path === chunk.path) {
          const names = chunk.exports;
          return {
            contents:
              `const slot = ${KEY};\n` +
              `const s = slot && slot.version === ${VERSION} ? slot.shared : {};\n` +
              `export const ${names.map((n) => `${n} = s.${n}`).join(', ')};\n`,
            loader: 'js',
          };
        }
        return { contents: files.get(a.path), loader: 'js' };
      });
    },
  });
  await esbuild.build({
    ...common,
    entryPoints: ['virtual:webprof'],
    outfile: join(dist, 'webprof.js'),
    format: 'iife',
    globalName: 'webprof',
    platform: 'browser',
    plugins: [fromMemory(false)],
  });
  await esbuild.build({
    ...common,
    entryPoints: ['virtual:tools'],
    outfile: join(dist, 'webprof-tools.js'),
    format: 'iife',
    platform: 'browser',
    plugins: [fromMemory(true)],
  });
}
// The browser files are minified by terser, which (unlike esbuild) can keep
// chosen function names: webprof's own frames are recognised by the
// `__webprof$` prefix of their function names (js/profiler/sampler.mjs
// MARKER), so those survive; class names too (error and constructor names).
// webprof-perf.mjs stays as built: its flag ternaries are for the
// application's minifier (js/perf.mjs).
const KEEP = /^__webprof\$/;
for (const file of readdirSync(dist).filter(
  (f) => f === 'webprof.js' || f === 'webprof-tools.js' || /^webprof(-chunk-\w+)?\.mjs$/.test(f),
)) {
  const path = join(dist, file);
  const { code } = await minify(readFileSync(path, 'utf8'), {
    module: file.endsWith('.mjs'),
    ecma: 2020,
    compress: { keep_fnames: KEEP },
    mangle: { keep_fnames: KEEP },
    keep_classnames: true,
    // Keep the bundler hints on the Node-only dynamic import (js/core/core.mjs).
    format: { comments: /webpackIgnore|@vite-ignore/ },
  });
  writeFileSync(path, code);
}
// Node-side tools; the build-time transforms each run with the core they
// find next to themselves in dist/ (`webprof/transform/esbuild`, `.../rollup`).
// Each loads the Node-side core (js/core/wasm-node.mjs) instead of the
// page's; the agent they inject into pages still carries the page's.
const nodeCore = {
  name: 'webprof-node-core',
  setup(build) {
    build.onResolve({ filter: /\/wasm-page\.mjs$/ }, () => ({ path: join(root, 'js/core/wasm-node.mjs') }));
  },
};
const NODE_ENTRIES = [
  { src: 'js/node/playwright.mjs', out: 'playwright.mjs' },
  { src: 'js/node/webprof-cli.mjs', out: 'webprof-cli.mjs' },
  { src: 'js/merge/merge.mjs', out: 'merge.mjs' },
  { src: 'js/transform/esbuild.mjs', out: 'transform-esbuild.mjs' },
  { src: 'js/transform/rollup.mjs', out: 'transform-rollup.mjs' },
];
for (const e of NODE_ENTRIES) {
  await esbuild.build({
    ...common,
    entryPoints: [e.src],
    outfile: join(dist, e.out),
    format: 'esm',
    platform: 'node',
    target: 'node18',
    define: { ...common.define, __WEBPROF_SHARE_PAGE__: 'false' }, // js/core/page.mjs
    external: ['playwright-core', '@playwright/test', 'puppeteer-core'],
    plugins: [nodeCore],
  });
}
// The declarations: webprof.d.ts (with the perf flags' globals) and the
// probes' at the top; the others keep js/'s layout under dist/ (build-flags/,
// transform/), so their relative imports hold there too; playwright.d.ts sits
// in js/node/ but beside webprof.d.ts in dist/.
const DECLARATIONS = [
  ['webprof.d.ts', 'webprof.d.ts'],
  ['webprof-perf.d.ts', 'webprof-perf.d.ts'],
  ['webprof-script.d.ts', 'webprof-script.d.ts'],
  ['node/playwright.d.ts', 'playwright.d.ts'],
  ['merge/merge.d.ts', 'merge.d.ts'],
  ...['index', 'esbuild', 'rollup', 'webpack'].map((n) => [`build-flags/${n}.d.ts`, `build-flags/${n}.d.ts`]),
  ...['plugins', 'esbuild', 'rollup'].map((n) => [`transform/${n}.d.ts`, `transform/${n}.d.ts`]),
];
mkdirSync(join(dist, 'build-flags'), { recursive: true });
mkdirSync(join(dist, 'transform'), { recursive: true });
for (const [src, out] of DECLARATIONS) {
  const text = readFileSync(join(root, 'js', src), 'utf8');
  writeFileSync(
    join(dist, out),
    src.startsWith('node/') || src.startsWith('merge/')
      ? text.replaceAll("'../webprof.js'", "'./webprof.js'")
      : text,
  );
}
// `webprof/polyfill`: installs the Profiler polyfill where needed and
// re-exports the API from the same module instance (one Wasm core per page).
writeFileSync(
  join(dist, 'polyfill.mjs'),
  "import { installProfilerPolyfill } from './webprof.mjs';\ninstallProfilerPolyfill();\nexport * from './webprof.mjs';\n",
);
writeFileSync(join(dist, 'polyfill.d.ts'), "export * from './webprof.js';\n");
// The dense-sampling service worker (no build step for the drop-in): a
// classic worker script with no imports; it loads webprof.js at run time.
copyFileSync(join(root, 'js/service-worker/sw.mjs'), join(dist, 'webprof-sw.js'));
// The bundler plugins run in Node at build time: shipped as source.
for (const f of ['index.mjs', 'esbuild.mjs', 'rollup.mjs', 'webpack.mjs']) {
  copyFileSync(join(root, 'js/build-flags', f), join(dist, 'build-flags', f));
}
console.error(`[build] dist/ ready: ${readdirSync(dist).join(', ')}`);
