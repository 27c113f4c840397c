// `npm run bench`: every benchmark, each printing ratios against a baseline
// measured in the same run (docs/BENCHMARKS.md records the figures).
// Expects `npm run build`. Nothing here is a pass/fail test.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const benches = [
  ['core (Google Benchmark)', './build/native/tests/bench/webprof_bench', ['--benchmark_min_time=0.5']],
  ['probes in Chromium', 'node', ['js/tools/bench-probes.mjs']],
  ['export in Chromium (1M samples)', 'node', ['tests/bench/export_browser_bench.mjs']],
  ['polyfill probe sites (Node)', 'node', ['tests/bench/profiler_probe_bench.mjs']],
  [
    'merging 1000 profiles of 10k samples: memory per file count, speed vs JSON.parse (Node)',
    'node',
    ['tests/bench/merge_bench.mjs'],
  ],
  [
    'source maps: decode + look up every mapping, vs source-map 0.7/0.6 and trace-mapping (Node, Chromium)',
    'node',
    ['tests/bench/source_map_bench.mjs'],
  ],
  ['RuntimeProfiler (Node)', 'node', ['tests/bench/runtime_profiler_bench.mjs']],
  ['sampling transform over all of node_modules (Node)', 'node', ['tests/bench/transform_corpus_bench.mjs']],
  [
    'sampling transform: the cost of sampling dependencies (Node)',
    'node',
    ['tests/bench/transform_deps_cost_bench.mjs'],
  ],
  [
    'dense-sampling overhead in Chromium',
    'npx',
    ['playwright', 'test', 'e2e/fidelity-bench.spec.mjs', '-g', 'overhead|sample cost', '--reporter=line'],
  ],
  ['dense sampling with no build step (service worker)', 'node', ['tests/bench/dense_sw_bench.mjs', '3']],
  [
    "ticker mode: gaps between the ticker Worker's ticks at 1 ms",
    'node',
    ['tests/bench/ticker_gaps.mjs', '3', '2'],
  ],
  [
    "third-party accuracy: polyfill vs native (the Profiler API and V8's own sampler) on npm libraries",
    'node',
    ['tests/bench/accuracy_bench.mjs'],
  ],
  [
    "where the native Profiler's samples have no stack (RegExp code)",
    'node',
    ['tests/bench/native_blind_spots.mjs'],
  ],
  [
    'third-party accuracy in WebKit: same bundle, Chromium vs WebKit polyfill',
    'node',
    ['tests/bench/webkit_accuracy_bench.mjs', '3000', 'acorn', 'marked'],
  ],
  [
    'third-party accuracy in Firefox ESR: the polyfill vs Chromium native on the same bundles',
    'node',
    ['tests/bench/firefox_accuracy_bench.mjs'],
  ],
  [
    'sampling transform: what the checks cost with no profiler, on those libraries (Node)',
    'node',
    ['tests/bench/transform_cost_bench.mjs'],
  ],
  [
    "sampling transform: where the checks' cost comes from, variants of one bundle (Chromium, CPU time)",
    'node',
    ['tests/bench/check_cost_bench.mjs', '7', '300', '--profiled=1'],
  ],
  [
    'polyfill at 1 ms: what the checks under a session and each sample cost (Chromium, CPU time)',
    'node',
    ['tests/bench/sample_cost_bench.mjs', '7', '300'],
  ],
  ['platform calls as sample points (wrapped clocks)', 'node', ['tests/bench/platform_sites_bench.mjs']],
  [
    'probes: Wasm memory per window under the caps (Node)',
    'node',
    ['tests/bench/probe_caps_bench.mjs', '20'],
  ],
  [
    'dense-sampling overhead, headless Chromium without DevTools',
    'node',
    ['tests/bench/overhead_headless_bench.mjs', '600', '5'],
  ],
];
const only = process.argv.slice(2);
for (const [name, cmd, args] of benches) {
  if (only.length && !only.some((o) => name.startsWith(o))) continue;
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, WEBPROF_BENCH: '1' } });
}
