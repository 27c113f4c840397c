// The probes API the demo instruments its workload with.
//
// webprof's probes module (start/end/aggrStart/aggrEnd/traceStart/traceEnd/
// mark, seed 004) is used when the package exports it. Until then this file
// records the same shapes itself — MarkTimeline, TraceTimeline and
// Map<name, AggrResult> — so the demo and its exports are real either way.
// It also keeps per-name durations (demo-sized) to show percentiles.
import * as webprof from 'webprof';

function localProbes() {
  let recording = false;
  let t0 = 0;
  let marks = [];
  let traces = [];
  const open = new Map(); // id -> {name, t}
  const aggr = new Map(); // name -> number[] durations
  let nextId = 0;
  const now = () => performance.now();
  return {
    start() {
      if (recording) return;
      recording = true;
      t0 = now();
      marks = [{ name: 'start', start: 0, timestamp: t0 }];
      traces = [];
      aggr.clear();
      open.clear();
    },
    end() {
      if (!recording) return null;
      recording = false;
      const t = now();
      marks.push({ name: 'end', start: t - t0, timestamp: t });
      const aggregates = new Map();
      for (const [name, d] of aggr) aggregates.set(name, summarize(d));
      return {
        aggregates,
        marks: { events: marks, dropped: 0 },
        traces: { events: traces, dropped: 0, incomplete: open.size },
      };
    },
    aggrStart(name) {
      if (!recording) return -1;
      const id = nextId++;
      open.set(id, { name, t: now(), kind: 'aggr' });
      return id;
    },
    aggrEnd(id) {
      const o = open.get(id);
      if (!o) return;
      open.delete(id);
      let list = aggr.get(o.name);
      if (!list) aggr.set(o.name, (list = []));
      list.push(now() - o.t);
    },
    traceStart(name) {
      if (!recording) return -1;
      const id = nextId++;
      const t = now();
      const event = { name, start: t - t0, timestamp: t, duration: 0 };
      traces.push(event); // reserved at start: nested traces stay in start order
      open.set(id, { event });
      return id;
    },
    traceEnd(id, info) {
      const o = open.get(id);
      if (!o || !o.event) return;
      open.delete(id);
      o.event.duration = now() - o.event.timestamp;
      if (info !== undefined) o.event.info = info;
    },
    mark(name, info) {
      if (!recording) return;
      const t = now();
      const e = { name, start: t - t0, timestamp: t };
      if (info !== undefined) e.info = info;
      marks.push(e);
    },
  };
}

export function summarize(durations) {
  const d = [...durations].sort((a, b) => a - b);
  const sum = d.reduce((a, b) => a + b, 0);
  const q = (p) => d[Math.min(d.length - 1, Math.floor(p * d.length))];
  return {
    count: d.length,
    sum,
    avg: sum / d.length,
    max: d[d.length - 1],
    p50: q(0.5),
    p90: q(0.9),
    p99: q(0.99),
  };
}

const names = ['start', 'end', 'aggrStart', 'aggrEnd', 'traceStart', 'traceEnd', 'mark'];
const fromPackage = names.every((n) => typeof webprof[n] === 'function');
/** 'webprof' when the package's probes module is used, else 'demo'. */
export const probesSource = fromPackage ? 'webprof' : 'demo';
export const probes = fromPackage ? Object.fromEntries(names.map((n) => [n, webprof[n]])) : localProbes();
