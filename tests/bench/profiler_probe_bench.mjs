// Polyfill sampler costs in Node 20 (V8), ns per call, each with a baseline
// from the same run: a probe site when no sample is due (no profiler / a
// running profiler between samples), a wrap()ped call, and the per-sample
// work's JS part (Error.stack capture at depth 20). Parse + intern of the
// text is measured natively: tests/bench/stack_sampler_bench.cpp.
// Run: npm run build:js && node tests/bench/profiler_probe_bench.mjs
import * as webprof from 'webprof';

const { probe } = webprof;

await webprof.ready;

function time(label, n, fn) {
  fn(Math.min(n, 1e5)); // warm up
  const t0 = process.hrtime.bigint();
  fn(n);
  const ns = Number(process.hrtime.bigint() - t0) / n;
  console.log(`${label.padEnd(58)} ${ns.toFixed(2).padStart(9)} ns`);
  return ns;
}

let sink = 0;
function plain(x) {
  return x + 1;
}
const wrapped = webprof.wrap(function wrappedFn(x) {
  return x + 1;
});
const N = 2e7;
const base = time('baseline: plain function call', N, (n) => {
  for (let i = 0; i < n; i++) sink = plain(sink);
});
const idle = time('probe(), no profiler running', N, (n) => {
  for (let i = 0; i < n; i++) {
    probe();
    sink = plain(sink);
  }
});
time('wrap()ped call (2 probes), no profiler running', N, (n) => {
  for (let i = 0; i < n; i++) sink = wrapped(sink);
});
// A running profiler with a long interval: the probes never find a sample
// due, so this is the amortised clock-read check alone.
const p = new webprof.Profiler({ sampleInterval: 1e6, maxBufferSize: 10 });
const running = time('probe(), profiler running, no sample due', N, (n) => {
  for (let i = 0; i < n; i++) {
    probe();
    sink = plain(sink);
  }
});
time('wrap()ped call (2 probes), profiler running, none due', N, (n) => {
  for (let i = 0; i < n; i++) sink = wrapped(sink);
});
await p.stop();
const now = time('baseline: performance.now()', 2e6, (n) => {
  for (let i = 0; i < n; i++) sink += performance.now();
});

function depth(d, fn) {
  return d <= 1 ? fn() : depth(d - 1, fn);
}
const capture = time('new Error().stack at depth 20 (limit 200)', 2e4, (n) => {
  const old = Error.stackTraceLimit;
  Error.stackTraceLimit = 200;
  for (let i = 0; i < n; i++) depth(20, () => (sink += new Error().stack.length));
  Error.stackTraceLimit = old;
});
console.log(
  `\nratios: probe idle ${(idle / base).toFixed(2)}x plain call; probe running ${(running / base).toFixed(2)}x; ` +
    `performance.now ${(now / base).toFixed(0)}x; Error.stack capture at depth 20 ${(capture / 1000).toFixed(1)} µs`,
);
