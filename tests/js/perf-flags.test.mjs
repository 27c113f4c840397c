// Compile-time switches (js/build-flags/): the sample app in
// tests/fixtures/perf-app bundled with the flags off keeps nothing of the
// probes (implementation, names, Wasm, reporters); with the flags on it runs
// in Node and reports. An unknown group fails each build with a clear message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { minify } from 'terser';
import webpack from 'webpack';
import { rollup } from 'rollup';
import { build as viteBuild } from 'vite';
import { webprofPerf as esbuildPerf } from '../../js/build-flags/esbuild.mjs';
import { webprofPerf as rollupPerf } from '../../js/build-flags/rollup.mjs';
import { WebprofPerfWebpackPlugin } from '../../js/build-flags/webpack.mjs';
import { perfDefine, resolvePerfFlags } from '../../js/build-flags/index.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
// The same app importing the source entry (js/perf.mjs) and the built one
// (dist/webprof-perf.mjs, what a package consumer gets). The dist variant is
// derived from the source app, three folders deep like it, so the relative
// import resolves the same way.
const APPS = { source: join(root, 'tests/fixtures/perf-app/app.mjs') };
APPS.dist = (() => {
  const text = readFileSync(APPS.source, 'utf8');
  const from = "'../../../js/perf.mjs'";
  assert.equal(text.split(from).length, 2, `the sample app imports ${from} exactly once`);
  const dir = join(root, 'build/tests/perf-app-dist');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'app.mjs');
  writeFileSync(file, text.replace(from, "'../../../dist/webprof-perf.mjs'"));
  return file;
})();
const app = APPS.source;
// The probes alone load their own core (js/core/instance.mjs).
const wasm = join(root, 'build/wasm/wasm/webprof-probes.wasm');

// Anything of the probes that must not survive a flags-off build.
const RESIDUE = [
  'myBiz',
  'webprof',
  'wp_probes',
  'WebAssembly',
  'wasm',
  'aggrStart',
  'traceStart',
  'Reporter',
  'reporter',
  'PERF-RESULT',
  '__webprof_perf',
  'performance',
];
function assertNoResidue(code, what) {
  for (const s of RESIDUE) assert.equal(code.includes(s), false, `${what} still contains "${s}":\n${code}`);
  assert.match(code, /APP-DONE/, `${what} lost the application itself`);
}

function runInNode(dir, file) {
  copyFileSync(wasm, join(dir, 'webprof-probes.wasm')); // the loader looks next to the bundle
  return execFileSync(process.execPath, [join(dir, file)], { encoding: 'utf8', timeout: 30000 });
}
function assertWorks(stdout) {
  assert.match(stdout, /APP-DONE 183/);
  const line = stdout.split('\n').find((l) => l.startsWith('PERF-RESULT '));
  assert.ok(line, `no reporter output in:\n${stdout}`);
  assert.deepEqual(JSON.parse(line.slice('PERF-RESULT '.length)), {
    count: 50,
    marks: ['start', 'myBiz:data-ready', 'end'],
    traces: [['myBiz:module:app', { moduleId: 1 }]],
  });
}

async function esbuildTerser(options, entry = app) {
  const r = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'silent',
    plugins: [esbuildPerf(options)],
  });
  return (await minify(r.outputFiles[0].text, { module: true, compress: { passes: 2 } })).code;
}

function webpackBuild(options, outDir, entry = app) {
  return new Promise((resolve, reject) =>
    webpack(
      {
        mode: 'production', // terser included
        target: 'node',
        entry,
        output: { path: outDir, filename: 'app.mjs', module: true, chunkFormat: 'module' },
        experiments: { outputModule: true },
        // Keep import.meta.url a runtime value: webpack otherwise bakes in
        // the source file's URL and the core looks for its .wasm there.
        module: { parser: { javascript: { importMeta: false } } },
        // From source the .wasm the loader names beside js/core/wasm-probes.mjs
        // is the Wasm build's (dist/ has it beside the chunk).
        resolve: { alias: { [join(root, 'js/core/webprof-probes.wasm')]: wasm } },
        plugins: [new WebprofPerfWebpackPlugin(options)],
      },
      (err, stats) => (err ? reject(err) : resolve(stats)),
    ),
  );
}

test('flag values: master and groups', () => {
  assert.deepEqual(perfDefine(), {
    __webprof_perf__: 'false',
    __webprof_perf_framework__: 'false',
    __webprof_perf_user__: 'false',
  });
  assert.deepEqual(perfDefine({ enable: true, probes: ['user'], groups: ['checkout'] }), {
    __webprof_perf__: 'true',
    __webprof_perf_framework__: 'false',
    __webprof_perf_user__: 'true',
    __webprof_perf_checkout__: 'false',
  });
  assert.equal(resolvePerfFlags({ enable: true, probes: [] }).values.__webprof_perf__, false, 'empty = off');
  assert.throws(() => resolvePerfFlags({ enable: true, probes: ['nope'] }), /unknown probe group "nope"/);
  assert.throws(() => resolvePerfFlags({ groups: ['bad-name'] }), /invalid group name/);
});

for (const [kind, entry] of Object.entries(APPS)) {
  test(`esbuild + terser (${kind} entry), flags off: no probe residue`, async () => {
    assertNoResidue(await esbuildTerser({ enable: false }, entry), 'esbuild+terser');
    assertNoResidue(await esbuildTerser({ enable: true, probes: [] }, entry), 'esbuild+terser (no groups)');
  });

  test(`esbuild + terser (${kind} entry), flags on: the app runs and reports`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webprof-perf-'));
    try {
      writeFileSync(
        join(dir, 'app.mjs'),
        await esbuildTerser({ enable: true, probes: ['framework', 'user'] }, entry),
      );
      assertWorks(runInNode(dir, 'app.mjs'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('webpack (production), flags off: no residue and no .wasm asset; on: it runs', async () => {
  for (const [enable, entry] of [
    [false, APPS.source],
    [true, APPS.source],
    [false, APPS.dist],
    [true, APPS.dist],
  ]) {
    const dir = mkdtempSync(join(tmpdir(), 'webprof-perf-'));
    try {
      const stats = await webpackBuild({ enable }, dir, entry);
      assert.equal(stats.hasErrors(), false, stats.toString('errors-only'));
      const code = readFileSync(join(dir, 'app.mjs'), 'utf8');
      if (!enable) {
        assertNoResidue(code, 'webpack');
        assert.deepEqual(readdirSync(dir), ['app.mjs']);
      } else {
        assertWorks(runInNode(dir, 'app.mjs'));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

test('rollup + terser, flags off: no probe residue', async () => {
  const bundle = await rollup({ input: app, plugins: [rollupPerf({ enable: false })], logLevel: 'silent' });
  const { output } = await bundle.generate({ format: 'es' });
  await bundle.close();
  const code = (await minify(output[0].code, { module: true })).code;
  assertNoResidue(code, 'rollup+terser');
});

async function viteLib(options) {
  const out = await viteBuild({
    configFile: false,
    logLevel: 'silent',
    root,
    plugins: [rollupPerf(options)],
    build: {
      write: false,
      minify: 'terser',
      lib: { entry: app, formats: ['es'], fileName: 'app' },
    },
  });
  const outputs = (Array.isArray(out) ? out[0] : out).output;
  return outputs;
}

test('vite (library build, terser), flags off: no residue, one file; on: it runs', async () => {
  const off = await viteLib({ enable: false });
  assert.deepEqual(
    off.map((o) => o.fileName),
    ['app.js'],
  );
  assertNoResidue(off[0].code, 'vite');
  const on = await viteLib({ enable: true });
  const dir = mkdtempSync(join(tmpdir(), 'webprof-perf-'));
  try {
    writeFileSync(join(dir, 'app.mjs'), on.find((o) => o.fileName === 'app.js').code);
    assertWorks(runInNode(dir, 'app.mjs'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an unknown group used in code fails esbuild, rollup and webpack builds', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'webprof-perf-'));
  const bad = join(dir, 'bad.mjs');
  writeFileSync(
    bad,
    'if (__webprof_perf_user__) console.log(1);\nif (__webprof_perf_checkot__) console.log(2);\n',
  );
  try {
    await assert.rejects(
      esbuild.build({
        entryPoints: [bad],
        bundle: true,
        write: false,
        logLevel: 'silent',
        plugins: [esbuildPerf()],
      }),
      /bad\.mjs:2 uses __webprof_perf_checkot__ but "checkot" is not a known probe group/,
    );
    await assert.rejects(
      rollup({ input: bad, plugins: [rollupPerf({ groups: ['checkout'] })], logLevel: 'silent' }),
      /"checkot" is not a known probe group \(known: framework, user, checkout/,
    );
    const stats = await new Promise((resolve, reject) =>
      webpack(
        { mode: 'production', entry: bad, output: { path: dir }, plugins: [new WebprofPerfWebpackPlugin()] },
        (err, s) => (err ? reject(err) : resolve(s)),
      ),
    );
    assert.match(stats.toString('errors-only'), /"checkot" is not a known probe group/);
    // A declared project group builds.
    const ok = await esbuild.build({
      entryPoints: [bad],
      bundle: true,
      write: false,
      logLevel: 'silent',
      plugins: [esbuildPerf({ enable: true, probes: ['checkot'], groups: ['checkot'] })],
    });
    assert.match(ok.outputFiles[0].text, /console\.log\(2\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
