// Size budgets (gzip -9) for what a page loads, from js/tools/size.mjs (the
// same numbers `npm run size` prints for docs/BENCHMARKS.md). They hold what
// was reached plus a little, so real growth fails here. Both of the issue's
// targets hold: probes alone ≤ 25 KB (the probes' own core) and the
// drop-in ≤ 60 KB, which is now its budget (docs/ARCHITECTURE.md "What a
// page loads"). Code only Node runs (importers, merging) is bound in
// wasm/node/, which the page's .wasm does not link (the last test below).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { distFiles, staticChunks, usageSizes } from '../../js/tools/size.mjs';

const KB = 1024;
// Measured 151.5 / 153.1 / 134.8 KB on 2026-12-01 ≈ 17:50, after the Node-side
// core took the Gecko importer out of the page's .wasm (−9.7 KB) and base/decimal.h
// replaced snprintf/strtod (−8.2 KB); 167.9 / 169.6 / 151.2 KB before both.
// The drop-in and the ES module +1 KB at 21:00: ticker mode's sample per tick
// (the core's batch of due samples, the Worker's second store, lateness)
// added 0.9 KB gzip. 157.8 → 142.8 / 159.7 → 144.3 KB at 23:20: the page's
// core without embind and without Emscripten's loader (plain exports, a
// bare -Oz module with emmalloc: docs/BENCHMARKS.md). 142.9 → 122.4 /
// 144.3 → 123.9 KB at 00:10 (2026-12-02): the transform's probe sites and
// source maps moved to the tools module, fetched on first use. 122.4 → 93.8 /
// 123.9 → 95.3 KB at 02:20: the exporters (with the summary and the trim)
// moved there too, on a copy of the trace. 94.0 → 81.6 / 95.5 → 83.2 KB at
// 05:55: the source scanner too (the core keeps the index of its records,
// checking their order instead of sorting them). 82.1 → 78.3 / 83.8 → 80.3 KB
// at 08:30: the tools module's JS (the exporters' data path, source maps, the
// transform, opening Perfetto) loaded with webprof-tools.wasm on first use;
// 77.8 / 79.8 KB at 09:15 with the field payload's encoder there too.
// 77.8 → 69.5 / 79.8 → 71.5 KB at 12:45: the page's and the probes' cores
// compiled for size (-Oz, no RTTI or exceptions, LTO; the hot paths -O3)
// and linking no std::unordered_map, std::sort or std::stable_sort.
// 69.5 → 68.1 / 71.5 → 70.0 KB at 15:40: the field payload's sending and
// the summary (summarize, formatSummary, the sparse-trace note) are the
// tools module's JS.
// 68.2 → 66.5 / 70.2 → 68.5 KB at 22:30: the size-compiled objects inline
// again (-Oz -finline-functions), the exports off the hot paths in the
// files compiled for speed are optimised for size (WP_COLD).
// 66.6 → 65.8 / 68.6 → 67.8 KB at 03:30 (2026-12-03): the index of scans and
// each frame's lookup in the tools module; the page's core takes the
// definitions as records.
// 65.8 → 59.5 / 67.8 → 61.5 KB at 10:30: the whole page's core compiled for
// size but the V8 stack text parse (the per-sample and per-probe files were
// -O3), with bulk memory and saturating float-to-int conversions; no
// std::deque or std::to_string.
const BUDGET = {
  'drop-in, first load: webprof.js + .wasm': 60 * KB,
  'ES module as shipped: webprof.mjs + its static chunks + .wasm': 62 * KB,
  // The probes' own core (webprof-probes.wasm, no embind) since 20:45: 24.3 KB,
  // 26.5 with the console reporter and the framework probes (issue 15: 25);
  // 22.9 / 25.1 KB since 12:45 (2026-12-02), compiled for size; 22.3 / 24.5
  // since 22:30, inlining again; 19.8 / 21.9 since 10:30 (2026-12-03), the
  // recorder compiled for size too.
  'probes alone, flags on: app bundle (esbuild, minified) + .wasm': 21 * KB,
  'probes alone with the console reporter and framework probes, flags on: app bundle + .wasm': 23 * KB,
  'probes alone, flags off: app bundle (no .wasm)': 1 * KB,
};

test('what a page loads stays within its gzip budget', async () => {
  const sizes = await usageSizes(distFiles());
  for (const [what, budget] of Object.entries(BUDGET)) {
    assert.ok(sizes[what], `no measurement named "${what}"`);
    assert.ok(
      sizes[what].gzip <= budget,
      `${what}: ${(sizes[what].gzip / KB).toFixed(1)} KB gzip > budget ${(budget / KB).toFixed(0)} KB`,
    );
  }
});

test('the browser files are minified (terser: a few lines, not one per statement)', () => {
  const dist = new URL('../../dist/', import.meta.url);
  const names = readdirSync(dist).filter(
    (f) => f === 'webprof.js' || f === 'webprof-tools.js' || /^webprof(-chunk-\w+)?\.mjs$/.test(f),
  );
  // webprof.js, webprof-tools.js, webprof.mjs and at least its chunk shared
  // with webprof-perf.mjs and the tools module's JS chunk.
  assert.ok(names.length >= 5, names.join(', '));
  for (const f of names) {
    const lines = readFileSync(new URL(f, dist), 'utf8').split('\n').length;
    assert.ok(lines < 50, `${f}: ${lines} lines`);
  }
});

test("the page's core carries no Node-only code: importers are linked only into the Node-side core", () => {
  const dist = new URL('../../dist/', import.meta.url);
  const page = readFileSync(new URL('webprof-core.wasm', dist));
  const node = readFileSync(new URL('webprof-core-node.wasm', dist));
  // The binding's registered name and the Gecko importer's own error text.
  for (const text of ['importGeckoProfile', 'content-process main threads (GeckoMain)']) {
    assert.ok(node.includes(text), `the Node-side core lacks "${text}"`);
    assert.ok(!page.includes(text), `the page's core carries "${text}"`);
  }
});

test("the page's core is bare: no embind and no Emscripten loader reach a page", () => {
  const dist = new URL('../../dist/', import.meta.url);
  const page = new WebAssembly.Module(readFileSync(new URL('webprof-core.wasm', dist)));
  // js/core/wasm-bare.mjs provides exactly these two.
  assert.deepEqual(
    WebAssembly.Module.imports(page).map((i) => `${i.module}.${i.name}`),
    ['env.emscripten_notify_memory_growth', 'wasi_snapshot_preview1.proc_exit'],
  );
  const names = WebAssembly.Module.exports(page).map((e) => e.name);
  assert.ok(names.includes('wp_session_new') && names.includes('malloc'), names.join());
  assert.ok(
    names.includes('wp_frame_definitions_take') && names.includes('wp_frame_definitions_resolve'),
    names.join(),
  );
  // The formats' list (not their writers): a page lists formats before the tools module loads.
  assert.ok(names.includes('wp_export_formats'), names.join());
  // The transform's probe sites, the source scanner and the index of its
  // scans, source maps and the exporters (with the summary and the trim) are
  // the tools module's only; it has sessions of its own to export from, but
  // no sampler and no probes. The page's core takes the frames' definitions
  // the index answers.
  const tools = new WebAssembly.Module(readFileSync(new URL('webprof-tools.wasm', dist)));
  const toolNames = WebAssembly.Module.exports(tools).map((e) => e.name);
  for (const name of [
    'wp_probe_sites_find',
    'wp_html_scripts_find',
    'wp_source_index_add',
    'wp_source_index_define',
    'wp_source_map_parse',
    'wp_export_write',
    'wp_export_summarize',
    'wp_trim_trace',
  ]) {
    assert.ok(toolNames.includes(name), `the tools module lacks ${name}`);
    assert.ok(!names.includes(name), `the page's core carries ${name}`);
  }
  assert.ok(
    toolNames.includes('wp_session_new') && toolNames.includes('wp_trace_load_new'),
    toolNames.join(),
  );
  assert.ok(!toolNames.some((n) => /profiler|probes|runtime/.test(n)), toolNames.join());
  const browserFiles = readdirSync(dist).filter(
    (f) => f === 'webprof.js' || f === 'webprof-tools.js' || /^webprof(-chunk-\w+)?\.mjs$/.test(f),
  );
  for (const f of browserFiles) {
    const js = readFileSync(new URL(f, dist), 'utf8');
    for (const glue of ['_embind_register', '__emval', 'wasmBinaryFile']) {
      assert.ok(!js.includes(glue), `${f} carries Emscripten glue ("${glue}")`);
    }
  }
});

test('the first load carries no JS only exports, source maps, the transform or the Perfetto channel need', () => {
  const dist = new URL('../../dist/', import.meta.url);
  const read = (f) => readFileSync(new URL(f, dist), 'utf8');
  const first = [read('webprof.js'), read('webprof.mjs'), ...staticChunks('webprof.mjs').map(read)];
  const toolsJs = read('webprof-tools.js');
  // Texts of js/export/write.mjs, js/export/perfetto-open.mjs,
  // js/symbolicate/discover.mjs and js/transform/index.mjs.
  for (const text of [
    'pid and tid must be integers',
    'did not answer PING',
    'sourceMappingURL',
    '__wp$on&&__wp$f&&--__wp$f[0]',
  ]) {
    assert.ok(toolsJs.includes(text), `webprof-tools.js lacks "${text}"`);
    for (const js of first) assert.ok(!js.includes(text), `a first-load file carries "${text}"`);
  }
  // The ES module reaches its tools chunk only by a dynamic import.
  assert.match(
    read('webprof.mjs') +
      readdirSync(dist)
        .filter((f) => /^webprof-chunk-/.test(f))
        .map(read)
        .join('\n'),
    /import\("\.\/webprof-chunk-\w+\.mjs"\)/,
  );
});
