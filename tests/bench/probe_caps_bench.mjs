// `node tests/bench/probe_caps_bench.mjs [windows]`: Wasm memory per probes
// window in Node, with the core's caps (src/probes/window.h). Baseline, in
// the same run: a steady page (the same 1 000 aggregate names every window).
// Hostile: a page inventing 10 000 new aggregate names per window (before the
// caps, ~100 MB more Wasm memory per window, and ~189 k names aborted the
// core). Prints bytes; nothing here fails.
// From source, so the core instance is the one js/core/core.mjs holds (its
// memory is read directly); the Wasm file is the built one.
import { core, setWasmUrl } from '../../js/core/core.mjs';
setWasmUrl(new URL('../../dist/webprof-core.wasm', import.meta.url).href);
const p = await import('../../js/index.mjs');

await p.ready;
const windows = Number(process.argv[2] || 20);
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
