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

// One table of entry points. `global` makes a classic-script (IIFE) build
// that defines exactly that one global; `node` entries run only in Node.
const ENTRIES = [
  { src: 'js/index.mjs', out: 'webprof.mjs', global: 'webprof', script: 'webprof.js' },
  // The probes behind the compile-time flags (js/build-flags/); self-contained,
  // so use it instead of, not beside, webprof.mjs for probes.
  { src: 'js/perf.mjs', out: 'webprof-perf.mjs' },
  { src: 'js/node/playwright.mjs', out: 'playwright.mjs', node: true },
  { src: 'js/node/webprof-cli.mjs', out: 'webprof-cli.mjs', node: true },
  // Build-time transforms for bundlers (run in Node, each with the core it
  // finds next to itself in dist/): `webprof/transform/esbuild`, `.../rollup`.
  { src: 'js/transform/esbuild.mjs', out: 'transform-esbuild.mjs', node: true },
  { src: 'js/transform/rollup.mjs', out: 'transform-rollup.mjs', node: true },
];

const common = {
  bundle: true,
  target: 'es2020',
  logLevel: 'warning',
  legalComments: 'none',
  absWorkingDir: root,
};
const nodeOnly = { platform: 'node', target: 'node18', external: ['playwright-core', '@playwright/test'] };
for (const e of ENTRIES) {
  await esbuild.build({
    ...common,
    entryPoints: [e.src],
    outfile: join(dist, e.out),
    format: 'esm',
    ...(e.node ? nodeOnly : { platform: 'neutral' }),
  });
  if (e.global) {
    // A classic <script> defines exactly one global; it finds the .wasm next
    // to itself through document.currentScript.
    await esbuild.build({
      ...common,
      entryPoints: [e.src],
      outfile: join(dist, e.script),
      format: 'iife',
      globalName: e.global,
      platform: 'browser',
      define: { 'import.meta.url': 'undefined' },
    });
  }
}
// playwright.d.ts sits in js/node/ but next to webprof.d.ts in dist/.
for (const dts of ['webprof.d.ts', 'webprof-perf.d.ts', 'playwright.d.ts'])
  writeFileSync(
    join(dist, dts),
    readFileSync(join(root, 'js', dts === 'playwright.d.ts' ? 'node' : '', dts), 'utf8').replaceAll(
      "'../webprof.js'",
      "'./webprof.js'",
    ),
  );
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
mkdirSync(join(dist, 'build-flags'), { recursive: true });
for (const f of ['index.mjs', 'esbuild.mjs', 'rollup.mjs', 'webpack.mjs']) {
  copyFileSync(join(root, 'js/build-flags', f), join(dist, 'build-flags', f));
}
console.error(
  `[build] dist/ ready: ${ENTRIES.map((e) => [e.out, e.script].filter(Boolean).join(', ')).join(', ')}`,
);
