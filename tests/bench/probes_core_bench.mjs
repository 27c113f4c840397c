// The explicit probes' hot path on each core, in the same run: `node
// tests/bench/probes_core_bench.mjs [rounds]`. A = dist/webprof.mjs (the
// page's core), B = dist/webprof-perf.mjs alone (the probes' own core,
// webprof-probes.wasm: the same objects — compiled for size:
// wasm/CMakeLists.txt — linked -Oz, emmalloc, no embind).
// Each round runs one child process per build, interleaved A, B, A, B…;
// prints medians and B/A. Figures: an aggrStart/aggrEnd pair, a
// traceStart/traceEnd pair, a mark.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const dist = new URL('../../dist/', import.meta.url);

async function measure(entry) {
  const w = await import(new URL(entry, dist).href);
  // webprof/perf has no `ready`: a window ended before the core is there is
  // reported when it arrives.
  await new Promise((resolve) => {
    w.start();
    w.end(resolve);
  });
  const now = () => performance.now();
  const N = 300000;
  const out = {};
  const time = (name, fn) => {
    w.start({ markLimit: N + 10, traceLimit: N + 10 });
    for (let i = 0; i < 10000; i++) fn(i);
    w.end(() => {});
    w.start({ markLimit: N + 10, traceLimit: N + 10 });
    const t = now();
    for (let i = 0; i < N; i++) fn(i);
    out[name] = ((now() - t) * 1e6) / N;
    w.end(() => {});
  };
  time('aggrStart/aggrEnd pair (ns)', () => w.aggrEnd(w.aggrStart('x')));
  time('traceStart/traceEnd pair (ns)', () => w.traceEnd(w.traceStart('t')));
  time('mark (ns)', () => w.mark('m'));
  return out;
}

if (process.argv[2] === '--child') {
  console.log(JSON.stringify(await measure(process.argv[3])));
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rounds = Number(process.argv[2] || 5);
  const builds = { A: 'webprof.mjs', B: 'webprof-perf.mjs' };
  const runs = { A: [], B: [] };
  const self = fileURLToPath(import.meta.url);
  for (let i = 0; i < rounds; i++) {
    for (const [k, entry] of Object.entries(builds)) {
      runs[k].push(
        JSON.parse(execFileSync(process.execPath, [self, '--child', entry], { encoding: 'utf8' })),
      );
    }
  }
  const median = (xs) => xs.sort((x, y) => x - y)[xs.length >> 1];
  console.log(
    `A = page core (${builds.A}), B = probes' own core (${builds.B} alone), medians of ${rounds} rounds`,
  );
  for (const key of Object.keys(runs.A[0])) {
    const A = median(runs.A.map((r) => r[key]));
    const B = median(runs.B.map((r) => r[key]));
    console.log(`${key}: A ${A.toFixed(1)}, B ${B.toFixed(1)}, B/A ${(B / A).toFixed(2)}`);
  }
}
