// The whole app: webprof's core loads, a Profiler records some work, the
// trace is exported in every format, and a probes window reaches its
// reporter. (The same file in every example; only the build differs.)
import { ready, Profiler, wrap, exportFormats, exportTrace, setReporter } from 'webprof';
import { start, end, aggrStart, aggrEnd } from 'webprof/perf';

// wrap() makes each call a sample point of the polyfill Profiler; the
// build-time transform (webprof/transform/*) would do it for every function.
const hotLoop = wrap(function hotLoop(n) {
  let s = 0;
  for (let i = 0; i < n; i++) s += Math.sqrt(i);
  return s;
});

async function main() {
  await ready;
  const profiler = new Profiler({ sampleInterval: 1, maxBufferSize: 10_000 });
  const t0 = performance.now();
  while (performance.now() - t0 < 50) hotLoop(20_000);
  const trace = await profiler.stop();

  const exported = {};
  for (const f of exportFormats()) exported[f.fileName] = exportTrace(f.id, { profile: trace }).byteLength;

  let aggregates = null;
  setReporter((a) => (aggregates = Object.fromEntries([...a].map(([k, v]) => [k, v.count]))));
  start();
  for (let i = 0; i < 3; i++) aggrEnd(aggrStart('example:step'));
  end();

  const frames = trace.frames.map((f) => f.name);
  const { resources } = trace;
  return {
    backend: profiler.backend,
    samples: trace.samples.length,
    frames,
    resources,
    exported,
    aggregates,
  };
}

window.result = main().catch((e) => ({ error: String(e && e.message) }));
window.result.then((r) => (document.getElementById('out').textContent = JSON.stringify(r, null, 2)));
