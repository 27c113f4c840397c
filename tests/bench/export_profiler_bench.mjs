// Node benchmark: exporting the trace a stopped Profiler returned, before and
// after it stayed in the core. "before" is what every export of it did until
// then: load the W3C object into a core session (re-intern every row) and
// write; "after" writes the core's copy in place. Same trace, same run,
// alternating; each format, median of the rounds, with the ratio.
//   node tests/bench/export_profiler_bench.mjs [samples] [rounds]
// (needs dist/: `npm run build:js`; run with --expose-gc to collect between runs)
import * as webprof from 'webprof';
import { makeTrace } from './export_browser_bench_page.mjs';

const samples = Number(process.argv[2] || 1_000_000);
const rounds = Number(process.argv[3] || 5);
await webprof.ready;
// importTrace hands back a core-held trace exactly as Profiler.stop() does.
const held = webprof.importTrace(makeTrace(samples), 1);
const plain = structuredClone(held); // the same data, not held: loaded per export
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const gc = () => globalThis.gc && globalThis.gc();
console.log(
  `${held.samples.length} samples, ${held.stacks.length} stacks, median of ${rounds}, Node ${process.version}`,
);
for (const { id } of webprof.exportFormats()) {
  const run = (profile) => {
    gc();
    const t = performance.now();
    const bytes = webprof.exportTrace(id, { profile }).byteLength;
    return [performance.now() - t, bytes];
  };
  run(plain); // warm-up (not timed)
  run(held);
  const before = [];
  const after = [];
  let size = 0;
  for (let r = 0; r < rounds; r++) {
    before.push(run(plain)[0]);
    const [ms, bytes] = run(held);
    after.push(ms);
    size = bytes;
  }
  const b = median(before);
  const a = median(after);
  console.log(
    `${id.padEnd(10)} before (load + write) ${b.toFixed(1).padStart(7)} ms   after (in place) ${a.toFixed(1).padStart(7)} ms   ${(b / a).toFixed(2)}x   ${(size / 1e6).toFixed(1)} MB`,
  );
}
webprof.releaseTrace(held);
