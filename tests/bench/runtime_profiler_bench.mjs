// RuntimeProfiler costs in Node (ns per call), each with a baseline measured
// in the same run: frame() vs a bare `new Error().stack` at the same depth,
// and results() for a tree of a given size vs JSON.parse of its JSON.
// Run: node tests/bench/runtime_profiler_bench.mjs (after npm run build:js)
import * as webprof from 'webprof';

await webprof.ready;
const { RuntimeProfiler, probe } = webprof;

// The machine is shared: each figure is the best of 5 rounds.
function time(label, n, fn) {
  for (let i = 0; i < Math.min(n, 1000); i++) fn(i);
  let ns = Infinity;
  for (let round = 0; round < 5; round++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn(i);
    ns = Math.min(ns, Number(process.hrtime.bigint() - t0) / n);
  }
  return { label, ns };
}
function depth(d, fn) {
  return d === 0 ? fn() : depth(d - 1, fn);
}

const p = new RuntimeProfiler();
p.start(undefined, 1000);
const rows = [];
const err = time('baseline: new Error().stack at depth 20', 20000, () => depth(20, () => new Error().stack));
const fr = time('frame() at depth 20 (same backtrace)', 5000, () => depth(20, () => p.frame()));
rows.push(err, fr);
const pr = time('probe() while profiled, not due (1 ms rate)', 2_000_000, () => probe());
rows.push(pr);

// A tree with many nodes: distinct call sites through generated functions.
const fns = [];
for (let i = 0; i < 64; i++)
  fns.push(
    new Function('next', 'probe', `return function f${i}(k) { probe(); return k > 0 ? next(k - 1) : 0; }`),
  );
const chain = [];
for (let i = 63; i >= 0; i--) chain[i] = fns[i]((k) => chain[(i * 7 + k) & 63](k), probe);
p.stop();
p.start(undefined, 1);
const end = performance.now() + 300;
while (performance.now() < end) chain[(Math.random() * 64) | 0](12);
p.stop();
let tree;
const res = time('results()', 10, () => (tree = p.results()));
let nodes = 0;
(function count(n) {
  nodes++;
  n.children.forEach(count);
})(tree);
const json = JSON.stringify(tree);
const parse = time('baseline: JSON.parse of the same tree', 10, () => JSON.parse(json));
rows.push(res, parse);
for (const r of rows) console.log(`${r.label.padEnd(48)} ${(r.ns / 1000).toFixed(2).padStart(10)} µs`);
console.log(
  `tree: ${tree.samples} samples, ${nodes} nodes, ${(json.length / 1024).toFixed(0)} KiB JSON; ` +
    `frame()/Error.stack = ${(fr.ns / err.ns).toFixed(2)}x, results()/JSON.parse = ${(res.ns / parse.ns).toFixed(2)}x`,
);
