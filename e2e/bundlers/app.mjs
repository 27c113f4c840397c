// The smallest application of the bundler tests (e2e/bundlers.spec.mjs):
// the core loads, a TraceSession builds a trace, and a probes window reaches
// a reporter set through the other entry point.
import { ready, TraceSession, setReporter } from 'webprof';
import { start, end, aggrStart, aggrEnd } from 'webprof/perf';

window.result = ready.then(
  () => {
    const s = new TraceSession({ sampleInterval: 1, maxBufferSize: 8 });
    const f = s.frame({ name: 'bundled', resourceId: s.resource(location.href), line: 1, column: 1 });
    s.sample(performance.now(), s.stack(f));
    const trace = s.toTrace();
    s.dispose();
    let aggregates = null;
    setReporter((a) => (aggregates = [...a.keys()]));
    start();
    aggrEnd(aggrStart('bundled-probe'));
    end();
    return { frames: trace.frames.map((x) => x.name), samples: trace.samples.length, aggregates };
  },
  (e) => ({ error: String(e && e.message) }),
);
