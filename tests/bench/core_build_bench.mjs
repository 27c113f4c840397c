// Hot paths of two builds of dist/ in the same run (e.g. before/after a
// change to how the core is compiled or linked): `node
// tests/bench/core_build_bench.mjs DIST_A DIST_B [rounds]`. Each round runs
// one child process per build (one webprof per process: two copies of one
// version in a process would share one core), interleaved A, B, A, B…;
// prints the median of each figure and B/A. Not part of `npm run bench`
// (it needs a second dist/). Figures: an aggrStart/aggrEnd pair, a
// TraceSession.sample, exporting a 200 k-sample trace to Chrome JSON +
// Perfetto, exporting a probes window of 20 k traces (fractional µs times).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchMain } from './ab_rounds.mjs';

async function measure(dist) {
  const w = await import(pathToFileURL(resolve(dist, 'webprof.mjs')).href);
  await w.ready;
  const now = () => performance.now();
  const out = {};
  const N = 300000;
  w.start();
  for (let i = 0; i < 10000; i++) w.aggrEnd(w.aggrStart('x'));
  let t = now();
  for (let i = 0; i < N; i++) w.aggrEnd(w.aggrStart('x'));
  out['aggrStart/aggrEnd pair (ns)'] = ((now() - t) * 1e6) / N;
  w.end(() => {});

  const s = new w.TraceSession({ sampleInterval: 1, maxBufferSize: 1e7 });
  const r = s.resource('https://example.test/app.js');
  const stacks = [];
  let parent;
  for (let i = 0; i < 20; i++) {
    parent = s.stack(s.frame({ name: `f${i}`, resourceId: r, line: i + 1, column: 3 }), parent);
    stacks.push(parent);
  }
  let ts = 1;
  for (let i = 0; i < 10000; i++) s.sample((ts += 0.25), stacks[i % 20]);
  t = now();
  for (let i = 0; i < N; i++) s.sample((ts += 0.25), stacks[i % 20]);
  out['TraceSession.sample (ns)'] = ((now() - t) * 1e6) / N;

  const e = new w.TraceSession({ sampleInterval: 1, maxBufferSize: 1e7 });
  const er = e.resource('https://example.test/app.js');
  const es = [];
  let ep;
  for (let i = 0; i < 200; i++) {
    ep = e.stack(
      e.frame({ name: `fn${i}`, resourceId: er, line: i + 1, column: 5 }),
      i % 10 ? ep : undefined,
    );
    es.push(ep);
  }
  for (let i = 0; i < 200000; i++) e.sample(1 + i * 1.0001, es[(i * 7) % 200]);
  const trace = e.toTrace();
  const both = () => (w.toChromeTrace({ profile: trace }), w.toPerfettoTrace({ profile: trace }));
  both();
  t = now();
  for (let k = 0; k < 3; k++) both();
  out['200 k samples -> Chrome JSON + Perfetto (ms)'] = (now() - t) / 3;

  w.start();
  for (let i = 0; i < 20000; i++) {
    w.traceEnd(w.traceStart(`t${i % 50}`));
    if (i % 10 === 0) w.mark('m');
  }
  let win;
  w.end((a, m, tr) => (win = { aggregates: a, marks: m, traces: tr }));
  w.toChromeTrace(win);
  t = now();
  for (let k = 0; k < 5; k++) w.toChromeTrace(win);
  out['probes window, 20 k traces -> Chrome JSON (ms)'] = (now() - t) / 5;
  return out;
}

await benchMain(import.meta.url, measure, 'core_build_bench.mjs DIST_A DIST_B [rounds]');
