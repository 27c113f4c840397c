// In-page half of the export benchmark: 1M samples -> Chrome trace JSON,
// webprof (Wasm core) vs the straightforward JS way (objects +
// JSON.stringify + TextEncoder), alternating in the same run.
import * as webprof from 'webprof';

/** A synthetic W3C trace: 400 frames, ~2000 leaf stacks 4–23 deep, 5% stackless samples. */
export function makeTrace(samples) {
  let x = 12345;
  const rnd = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
  const resources = ['https://app.example/bundle.js'];
  const frames = [];
  for (let i = 0; i < 400; i++)
    frames.push({ name: `fn_${i}_handler`, resourceId: 0, line: i * 3 + 1, column: 5 });
  const stacks = [];
  const leaves = [];
  const index = new Map();
  for (let s = 0; s < 2000; s++) {
    let parent;
    const depth = 4 + (s % 20);
    for (let d = 0; d < depth; d++) {
      const frameId = d < 3 ? d : (rnd() >>> 8) % frames.length;
      const key = `${frameId}/${parent}`;
      let id = index.get(key);
      if (id === undefined) {
        id = stacks.length;
        index.set(key, id);
        stacks.push(parent === undefined ? { frameId } : { frameId, parentId: parent });
      }
      parent = id;
    }
    leaves.push(parent);
  }
  const list = [];
  for (let i = 0; i < samples; i++) {
    const r = rnd();
    list.push(
      (r >>> 16) % 20 === 0
        ? { timestamp: 1000 + i * 1.001 }
        : { timestamp: 1000 + i * 1.001, stackId: leaves[(r >>> 8) % leaves.length] },
    );
  }
  return { resources, frames, stacks, samples: list };
}

// The baseline: what one would write in JS without webprof.
export function chromeTraceJs(trace) {
  const callFrame = (f) => ({
    functionName: f.name,
    scriptId: f.resourceId === undefined ? 0 : f.resourceId + 1,
    url: f.resourceId === undefined ? '' : trace.resources[f.resourceId],
    lineNumber: f.line ? f.line - 1 : -1,
    columnNumber: f.column ? f.column - 1 : -1,
  });
  const none = { functionName: '', scriptId: 0, url: '', lineNumber: -1, columnNumber: -1 };
  const nodes = [{ callFrame: { ...none, functionName: '(root)' }, id: 1 }];
  nodes.push({ callFrame: { ...none, functionName: '(program)' }, id: 2, parent: 1 });
  trace.stacks.forEach((s, i) =>
    nodes.push({
      callFrame: callFrame(trace.frames[s.frameId]),
      id: i + 3,
      parent: s.parentId === undefined ? 1 : s.parentId + 3,
    }),
  );
  const samples = [];
  const timeDeltas = [];
  let prev = Math.round(trace.samples[0].timestamp * 1000);
  const start = prev;
  for (const s of trace.samples) {
    samples.push(s.stackId === undefined ? 2 : s.stackId + 3);
    const us = Math.round(s.timestamp * 1000);
    timeDeltas.push(us - prev);
    prev = us;
  }
  const head = { pid: 1, tid: 1, cat: 'disabled-by-default-v8.cpu_profiler', ph: 'P', id: '0x1' };
  const traceEvents = [
    { name: 'process_name', cat: '__metadata', ph: 'M', pid: 1, tid: 1, ts: 0, args: { name: 'webprof' } },
    { name: 'thread_name', cat: '__metadata', ph: 'M', pid: 1, tid: 1, ts: 0, args: { name: 'main' } },
    { ...head, name: 'Profile', ts: start, args: { data: { startTime: start } } },
    {
      ...head,
      name: 'ProfileChunk',
      ts: start,
      args: { data: { cpuProfile: { nodes, samples }, timeDeltas } },
    },
  ];
  return new TextEncoder().encode(JSON.stringify({ traceEvents })).buffer;
}

const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

if (typeof window !== 'undefined')
  window.runBench = async (samples = 1_000_000, rounds = 5, settleMs = 0) => {
    await webprof.ready;
    const trace = makeTrace(samples);
    const input = { profile: trace };
    const tw = [];
    const tj = [];
    let bw = 0;
    let bj = 0;
    const parts = [];
    // The same trace recorded into the core (as webprof's Profiler does).
    const session = new webprof.TraceSession({ maxBufferSize: samples + 1 });
    trace.resources.forEach((r) => session.resource(r));
    trace.frames.forEach((f) => session.frame(f));
    trace.stacks.forEach((st) => session.stack(st.frameId, st.parentId));
    for (const sm of trace.samples) session.sample(sm.timestamp, sm.stackId);
    const ts = [];
    let bs = 0;
    // Warm-up: Chromium runs Wasm in its baseline tier (Liftoff) first and
    // tiers up hot functions; JS functions likewise. Not timed.
    for (let r = 0; r < 2; r++) {
      webprof.toChromeTrace({ profile: session });
      webprof.toChromeTrace(input);
      chromeTraceJs(trace);
    }
    // A collection before each timed run (when exposed) so one side's garbage
    // is not collected on the other side's clock.
    // With settleMs, each collection is followed by that idle time, so the
    // collector's background work (sweeping; it competes for the same cores)
    // is not charged to whichever side runs next either.
    const gc = async () => {
      if (globalThis.gc) globalThis.gc();
      if (settleMs) await new Promise((resolve) => setTimeout(resolve, settleMs));
    };
    for (let r = 0; r < rounds; r++) {
      await gc();
      let t = performance.now();
      bw = webprof.toChromeTrace(input).byteLength;
      tw.push(performance.now() - t);
      parts.push(webprof.lastExportTimings());
      await gc();
      t = performance.now();
      bs = webprof.toChromeTrace({ profile: session }).byteLength;
      ts.push(performance.now() - t);
      await gc();
      t = performance.now();
      bj = chromeTraceJs(trace).byteLength;
      tj.push(performance.now() - t);
    }
    session.dispose();
    const w = median(tw);
    const sw = median(ts);
    const j = median(tj);
    return {
      samples,
      rounds,
      webprofMs: w,
      jsMs: j,
      webprofMB: bw / 1e6,
      jsMB: bj / 1e6,
      webprofMBps: bw / 1e6 / (w / 1000),
      jsMBps: bj / 1e6 / (j / 1000),
      ratio: j / w,
      sessionMs: sw,
      sessionMBps: bs / 1e6 / (sw / 1000),
      sessionRatio: j / sw,
      parts,
    };
  };
if (typeof window !== 'undefined') window.benchReady = true;
