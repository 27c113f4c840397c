// `enable: false` as a package user builds it: the app imports `webprof/perf`
// from node_modules (the package's files: dist/ and package.json) and each
// bundler builds it for the browser with its default asset handling. Flags
// off, nothing of the core reaches the output: no `.wasm` file, no mention of
// it. Flags on, the bundlers that copy assets (webpack 5, Vite) emit it, so
// the check is about the flags, not about a build that never copies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import webpack from 'webpack';
import { rollup } from 'rollup';
import { build as viteBuild } from 'vite';
import { minify } from 'terser';

const root = fileURLToPath(new URL('../../', import.meta.url));
function project() {
  const dir = mkdtempSync(join(tmpdir(), 'webprof-flags-pkg-'));
  const pkg = join(dir, 'node_modules', 'webprof');
  mkdirSync(pkg, { recursive: true });
  cpSync(join(root, 'dist'), join(pkg, 'dist'), { recursive: true });
  cpSync(join(root, 'package.json'), join(pkg, 'package.json'));
  const app = readFileSync(join(root, 'tests/fixtures/perf-app/app.mjs'), 'utf8');
  writeFileSync(join(dir, 'app.mjs'), app.replace("'../../../js/perf.mjs'", "'webprof/perf'"));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html>\n<script type="module" src="./app.mjs"></script>\n',
  );
  return dir;
}
/** The plugins of the project's copy of the package, as its build config imports them. */
async function plugins(dir) {
  const at = (f) => join(dir, 'node_modules/webprof/dist/build-flags', f);
  return {
    esbuildPerf: (await import(at('esbuild.mjs'))).webprofPerf,
    rollupPerf: (await import(at('rollup.mjs'))).webprofPerf,
    WebprofPerfWebpackPlugin: (await import(at('webpack.mjs'))).WebprofPerfWebpackPlugin,
  };
}

/** Every file under dir, relative, with its text. */
function files(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? files(join(dir, e.name), base)
      : [{ name: join(dir, e.name).slice(base.length + 1), text: readFileSync(join(dir, e.name), 'latin1') }],
  );
}
function assertNoCore(out, what) {
  const all = files(out);
  assert.deepEqual(
    all.filter((f) => f.name.endsWith('.wasm')).map((f) => f.name),
    [],
    `${what}: a .wasm in the output`,
  );
  for (const f of all)
    assert.ok(!/webprof-core|webprof-probes|WebAssembly/.test(f.text), `${what}: ${f.name} names the core`);
  assert.ok(
    all.some((f) => f.text.includes('APP-DONE')),
    `${what}: the application itself is missing`,
  );
}
// The .wasm files of an output, named by which of dist/'s cores they are
// (webpack names an asset by its hash alone).
const CORES = ['webprof-core', 'webprof-probes'].map((name) => ({
  name,
  text: readFileSync(new URL(`../../dist/${name}.wasm`, import.meta.url), 'latin1'),
}));
const wasmFiles = (out) =>
  files(out)
    .filter((f) => f.name.endsWith('.wasm'))
    .map((f) => CORES.find((c) => c.text === f.text)?.name || f.name);

const BUILDS = {
  async webpack(dir, enable) {
    const { WebprofPerfWebpackPlugin } = await plugins(dir);
    const out = join(dir, `webpack-${enable}`);
    const stats = await new Promise((resolve, reject) =>
      webpack(
        {
          mode: 'production',
          context: dir,
          entry: './app.mjs',
          output: { path: out },
          plugins: [new WebprofPerfWebpackPlugin({ enable })],
        },
        (err, s) => (err ? reject(err) : resolve(s)),
      ),
    );
    assert.equal(stats.hasErrors(), false, stats.toString('errors-only'));
    return out;
  },
  async vite(dir, enable) {
    const { rollupPerf } = await plugins(dir);
    const out = join(dir, `vite-${enable}`);
    await viteBuild({
      root: dir,
      logLevel: 'silent',
      configFile: false,
      plugins: [rollupPerf({ enable })],
      build: { outDir: out },
    });
    return out;
  },
  async rollup(dir, enable) {
    const { rollupPerf } = await plugins(dir);
    const out = join(dir, `rollup-${enable}`);
    const bundle = await rollup({
      input: join(dir, 'app.mjs'),
      plugins: [rollupPerf({ enable }), nodeModules(dir)],
      logLevel: 'silent',
    });
    // Rollup leaves dead branches to a minifier, as its users' configs do.
    await bundle.write({ dir: out, format: 'es', plugins: [terserOutput()] });
    await bundle.close();
    return out;
  },
  async esbuild(dir, enable) {
    const { esbuildPerf } = await plugins(dir);
    const out = join(dir, `esbuild-${enable}`);
    await esbuild.build({
      absWorkingDir: dir,
      entryPoints: ['app.mjs'],
      bundle: true,
      minify: true,
      format: 'esm',
      outdir: out,
      logLevel: 'silent',
      plugins: [esbuildPerf({ enable })],
    });
    return out;
  },
};

function terserOutput() {
  return {
    name: 'terser',
    async renderChunk(code) {
      return (await minify(code, { module: true, compress: { passes: 2 } })).code;
    },
  };
}

// Rollup resolves bare specifiers only with a plugin; this one reads the
// package's `exports` the way node-resolve would for `webprof/perf`.
function nodeModules(dir) {
  return {
    name: 'node-modules',
    resolveId(source) {
      const m = /^webprof(\/.*)?$/.exec(source);
      if (!m) return null;
      const pkg = JSON.parse(readFileSync(join(dir, 'node_modules/webprof/package.json'), 'utf8'));
      const entry = pkg.exports[`.${m[1] || ''}`];
      return join(dir, 'node_modules/webprof', typeof entry === 'string' ? entry : entry.default);
    },
  };
}

for (const [name, build] of Object.entries(BUILDS)) {
  test(`${name}, flags off, from the package: no .wasm and no core in the output`, async () => {
    const dir = project();
    try {
      assertNoCore(await build(dir, false), name);
      if (name === 'webpack' || name === 'vite')
        assert.deepEqual(
          wasmFiles(await build(dir, true)),
          ['webprof-probes'],
          `${name} with the flags on copies the probes' own core (nothing of the page's)`,
        );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
