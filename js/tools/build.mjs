// `npm run build`: native core (tests, benchmarks), Wasm core, then dist/.
// --js-only skips the native builds (dist/ needs only the Wasm core).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

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
mkdirSync(dist, { recursive: true });
copyFileSync(join(root, 'build/wasm/wasm/webprof-core.wasm'), join(dist, 'webprof-core.wasm'));

// One table of entry points: [source, ESM output, classic-script global or null].
const ENTRIES = [
  ['js/index.mjs', 'webprof.mjs', 'webprof.js'],
  // The probes behind the compile-time flags (js/build-flags/); self-contained,
  // so use it instead of, not beside, webprof.mjs for probes.
  ['js/perf.mjs', 'webprof-perf.mjs', null],
];

const common = {
  bundle: true,
  target: 'es2020',
  logLevel: 'warning',
  legalComments: 'none',
  absWorkingDir: root,
};
for (const [src, esm, iife] of ENTRIES) {
  await esbuild.build({
    ...common,
    entryPoints: [src],
    outfile: join(dist, esm),
    format: 'esm',
    platform: 'neutral',
  });
  if (iife) {
    // A classic <script> defines exactly one global, `webprof`; it finds the
    // .wasm next to itself through document.currentScript.
    await esbuild.build({
      ...common,
      entryPoints: [src],
      outfile: join(dist, iife),
      format: 'iife',
      globalName: 'webprof',
      platform: 'browser',
      define: { 'import.meta.url': 'undefined' },
    });
  }
}
// Build-time transforms for bundlers (run in Node, each with the core it
// finds next to itself in dist/): `webprof/transform/esbuild`, `.../rollup`.
const TRANSFORMS = [
  ['js/transform/esbuild.mjs', 'transform-esbuild.mjs'],
  ['js/transform/rollup.mjs', 'transform-rollup.mjs'],
];
for (const [src, out] of TRANSFORMS) {
  await esbuild.build({
    ...common,
    entryPoints: [src],
    outfile: join(dist, out),
    format: 'esm',
    platform: 'node',
  });
}
writeFileSync(join(dist, 'webprof.d.ts'), readFileSync(join(root, 'js/webprof.d.ts')));
// `webprof/polyfill`: installs the Profiler polyfill where needed and
// re-exports the API from the same module instance (one Wasm core per page).
writeFileSync(
  join(dist, 'polyfill.mjs'),
  "import { installProfilerPolyfill } from './webprof.mjs';\ninstallProfilerPolyfill();\nexport * from './webprof.mjs';\n",
);
writeFileSync(join(dist, 'polyfill.d.ts'), "export * from './webprof.js';\n");
writeFileSync(join(dist, 'webprof-perf.d.ts'), readFileSync(join(root, 'js/webprof-perf.d.ts')));
// The bundler plugins run in Node at build time: shipped as source.
mkdirSync(join(dist, 'build-flags'), { recursive: true });
for (const f of ['index.mjs', 'esbuild.mjs', 'rollup.mjs', 'webpack.mjs']) {
  copyFileSync(join(root, 'js/build-flags', f), join(dist, 'build-flags', f));
}
console.error(
  `[build] dist/ ready: ${ENTRIES.map((e) => e.slice(1).filter(Boolean).join(', ')).join('; ')}, webprof-core.wasm, webprof.d.ts`,
);
