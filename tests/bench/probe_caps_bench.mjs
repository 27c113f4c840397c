// `node tests/bench/probe_caps_bench.mjs [windows]`: Wasm memory per probes
// window in Node, with the core's caps (src/probes/window.h). Baseline, in
// the same run: a steady page (the same 1 000 aggregate names every window).
// Hostile: a page inventing 10 000 new aggregate names per window (before the
// caps, ~100 MB more Wasm memory per window, and ~189 k names aborted the
// core). Then what a probe the core drops costs (a mark or trace past its
// limit, an end with a stale id): ns per call and clock reads, against an
// accepted mark and a bare clock read in the same run. Prints; nothing here
// fails.
// From source, so the core instance is the one js/core/core.mjs holds (its
// memory is read directly); the Wasm file is the built one.
import { core, setWasmUrl } from '../../js/core/core.mjs';
setWasmUrl(new URL('../../dist/webprof-core.wasm', import.meta.url).href);
const p = await import('../../js/index.mjs');

await p.ready;
const windows = Number(process.argv[2] || 20);
// The last part's probe names, interned before the hostile windows fill the
// name table (past it a new name is dropped before any clock read).
p.start();
p.mark('bench:mark');
p.traceEnd(p.traceStart('bench:trace'));
p.aggrEnd(p.aggrStart('bench:ended'));
p.end(() => {});
const mem = () => core().HEAPU8.length;
const mb = (b) => (b / 2 ** 20).toFixed(1);

function run(label, nameOf) {
  const before = mem();
  const grew = [];
  for (let w = 0; w < windows; w++) {
    const at = mem();
    p.start();
    for (let i = 0; i < 10000; i++) p.aggrEnd(p.aggrStart(nameOf(w, i)));
    let dropped = 0;
    p.end((a) => (dropped = a.dropped + a.namesDropped));
    grew.push([mem() - at, dropped]);
  }
  const after = mem();
  const last = grew.slice(-5).reduce((s, [g]) => s + g, 0) / 5;
  console.log(
    `${label.padEnd(44)} Wasm memory ${mb(before)} -> ${mb(after)} MB over ${windows} windows; ` +
      `growth per window over the last 5: ${mb(last)} MB; dropped in the last window: ${grew.at(-1)[1]}`,
  );
  return after - before;
}

const steady = run('steady: the same 1 000 names each window', (w, i) => `steady:${i % 1000}`);
const hostile = run('hostile: 10 000 new names each window', (w, i) => `new:${w}:${i}`);
console.log(
  `hostile / steady total growth: ${mb(hostile)} MB / ${mb(steady)} MB ` +
    `(${steady > 0 ? (hostile / steady).toFixed(2) + 'x' : 'steady did not grow'})`,
);

// ---- dropped probes: cost per call and clock reads ----
const N = 1_000_000;
const platformNow = performance.now;
let reads = 0;
performance.now = function now() {
  reads++;
  return platformNow.call(performance);
};
function perCall(fn) {
  const r0 = reads;
  const t0 = platformNow.call(performance);
  fn();
  const ns = ((platformNow.call(performance) - t0) * 1e6) / N;
  return { ns, reads: reads - r0 };
}
const { mark, traceStart, aggrStart, aggrEnd } = p;
p.start({ markLimit: 2, traceLimit: 0 }); // every mark and trace is past its limit
const ended = aggrStart('bench:ended');
aggrEnd(ended);
const dropped = [
  [
    'mark past markLimit',
    perCall(() => {
      for (let i = 0; i < N; i++) mark('bench:mark');
    }),
  ],
  [
    'traceStart past traceLimit',
    perCall(() => {
      for (let i = 0; i < N; i++) traceStart('bench:trace');
    }),
  ],
  [
    'aggrEnd of an ended id',
    perCall(() => {
      for (let i = 0; i < N; i++) aggrEnd(ended);
    }),
  ],
];
p.end(() => {});
p.start({ markLimit: N + 2 });
const accepted = perCall(() => {
  for (let i = 0; i < N; i++) mark('bench:mark');
});
p.end(() => {});
const clock = perCall(() => {
  for (let i = 0; i < N; i++) performance.now();
});
performance.now = platformNow;
const f = (x) => x.toFixed(1);
console.log(`\n${N} calls each (Node ${process.versions.node}):`);
console.log(`${'bare performance.now() (through a counting stub)'.padEnd(48)} ${f(clock.ns)} ns`);
console.log(`${'mark, accepted (baseline)'.padEnd(48)} ${f(accepted.ns)} ns  clock reads ${accepted.reads}`);
for (const [label, r] of dropped)
  console.log(
    `${label.padEnd(48)} ${f(r.ns)} ns  clock reads ${r.reads}  = ${(r.ns / accepted.ns).toFixed(2)}x an accepted mark`,
  );
