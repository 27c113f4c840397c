// The probes benchmark loops (demo/bench/probes.html). Loaded as source ESM or
// as an esbuild bundle (js/tools/bench-probes.mjs builds it), to show both.
// Named imports, as an application (or a bundler's scope hoisting) uses
// them: a call through a module namespace object costs ~3 ns more in V8.
import { start, end, aggrStart, aggrEnd, traceStart, traceEnd, mark } from '../../js/probes/probes.mjs';
import { ready, core } from '../../js/core/core.mjs';

const N = 1_000_000;
const CHEAP = 20_000_000; // the ~1 ns loops need more iterations than the 100 µs clock step
const perf = performance; // the probes' clock reads it the same way
const silent = () => {};
// An imported binding is a mutable cell to V8, so a call through it is not
// inlined; a const alias (or a bundler's scope hoisting) lets it inline.
const probe = aggrStart;
// The cheapest call a probe could be: a plain function returning -1.
function plain(name) {
  return -1;
}
let sink = 0;

// Each loop is its own function so TurboFan optimises it on its own.
const loops = {
  empty() {
    let s = 0;
    for (let i = 0; i < CHEAP; i++) s += i;
    sink += s;
  },
  notRecordingConst() {
    let s = 0;
    for (let i = 0; i < CHEAP; i++) s += probe('bench:off');
    sink += s;
  },
  plainCall() {
    let s = 0;
    for (let i = 0; i < CHEAP; i++) s += plain('bench:off');
    sink += s;
  },
  now2() {
    let s = 0;
    for (let i = 0; i < N; i++) {
      const a = perf.now();
      const b = perf.now();
      s += b - a;
    }
    sink += s;
  },
  now1() {
    let s = 0;
    for (let i = 0; i < N; i++) s += perf.now();
    sink += s;
  },
  aggrPair() {
    for (let i = 0; i < N; i++) {
      const id = aggrStart('bench:aggr');
      aggrEnd(id);
    }
  },
  notRecording() {
    let s = 0;
    for (let i = 0; i < CHEAP; i++) s += aggrStart('bench:off');
    sink += s;
  },
  namePair() {
    for (let i = 0; i < N; i++) {
      aggrStart('bench:name', true);
      aggrEnd('bench:name');
    }
  },
  tracePair() {
    for (let i = 0; i < N; i++) traceEnd(traceStart('bench:trace'));
  },
  mark() {
    for (let i = 0; i < N; i++) mark('bench:mark');
  },
};
const recording = new Set(['aggrPair', 'namePair', 'tracePair', 'mark']);

function runOnce(name) {
  const rec = recording.has(name);
  if (rec) start({ markLimit: N + 2, traceLimit: N });
  const t0 = performance.now();
  loops[name]();
  const ms = performance.now() - t0;
  if (rec) end(silent);
  const n =
    name === 'empty' || name === 'notRecording' || name === 'notRecordingConst' || name === 'plainCall'
      ? CHEAP
      : N;
  return (ms * 1e6) / n; // ns per iteration
}
const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];

window.runBench = (reps = 7) => {
  const names = Object.keys(loops);
  for (const n of names) runOnce(n); // warm-up (JIT)
  const ns = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < reps; r++) for (const n of names) ns[n].push(runOnce(n));
  const m = Object.fromEntries(names.map((n) => [n, median(ns[n])]));
  return { N, reps, ns: m, sink };
};

// Heap check: one window, pairs in batches; the harness collects garbage
// and reads the heap between batches.
window.heapStart = () => start();
window.heapPairs = (n) => {
  for (let i = 0; i < n; i++) aggrEnd(aggrStart('bench:heap'));
};
window.wasmBytes = () => core().HEAPU8.length;
window.heapEnd = () => {
  let count = 0;
  end((a) => (count = a.get('bench:heap').count));
  return count;
};
await ready;
window.benchReady = true;
