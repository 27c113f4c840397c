// The exporters' data path (js/export/export.mjs is the registry that calls
// it): part of the tools module's JS (js/tools-js.mjs), loaded with
// webprof-tools.wasm, so a page loads it only when it exports.
//
// Data path: a W3C trace object is loaded into a session of the tools module
// for the export (js/profiler/trace.mjs loadInto, the one loader: a handful
// of bulk calls, so cost does not scale with boundary crossings). A trace a
// stopped Profiler returned is held there (js/profiler/trace.mjs toHeldTrace):
// that copy is written in place. A TraceSession as `profile` is written in
// place where the tools are its core (Node), else copied for the export. The
// probes part comes from the recorder itself only where the probes record
// into the module that exports (Node); a page's exports take its JS records.
// The module writes the format into chunks in Wasm memory; JS copies each
// chunk once into one ArrayBuffer and the builder is deleted.
// Ownership: the returned ArrayBuffer belongs to the caller; nothing in Wasm
// memory outlives the call.
import { infoJson } from '../probes/info.mjs';
import { probesShareCore } from '../core/instance.mjs';
import { toolsSeparate, withToolsNow } from '../core/tools.mjs';
import { Heap, copyChunks } from '../core/heap.mjs';
import { boundary, check } from '../core/boundary.mjs';
import { TraceSession, heldIn, loadInto } from '../profiler/trace.mjs';
import { windowSource } from '../probes/probes.mjs';

let lastTimings = null;
/** Where the last export spent its time: {loadMs, writeMs, copyMs, bytes} (for benchmarks). */
export function lastExportTimings() {
  return lastTimings;
}

/**
 * The core's summary numbers (src/export/summary.h) of a ProfilerTrace:
 * {samples, withStack, durationMs, top: [{name, url, line, self, total}]}.
 * js/export/summary.mjs formats them.
 */
export function summarizeProfile(profile, top) {
  return withToolsNow((m) => {
    const b = new m.ExportBuilder();
    let loaded = null;
    try {
      loaded = useProfile(m, b, profile, { forExport: false });
      return b.summarize(top);
    } finally {
      if (loaded) loaded.delete();
      b.delete();
    }
  }, 'summarize()');
}

// The trace a stopped Profiler returned is held in the tools module: used in
// place, as is a TraceSession where the tools are its core. Any other trace
// object (or a page core's TraceSession's trace) is loaded as given into a
// session of module m (loadInto, the one loader), returned for the caller to
// delete(); exported without samples, it is no profile.
function useProfile(m, b, profile, { forExport }) {
  if (profile instanceof TraceSession && !toolsSeparate()) {
    b.useSession(profile.coreHandle());
    return null;
  }
  const trace = profile instanceof TraceSession ? profile.toTrace() : profile;
  const handle = trace == null ? null : heldIn(m, trace);
  if (handle !== null) {
    b.useSession(handle);
    return null;
  }
  if (trace == null) return null;
  const loaded = loadInto(m, trace);
  if (!forExport || loaded.sampleCount() > 0) b.useSession(loaded.handle());
  return loaded;
}

/** `input` written by the core's format `format` (its numeric id). */
export function exportAs(format, input, options) {
  return withToolsNow((m) => {
    const b = new m.ExportBuilder();
    const heap = new Heap(m);
    let loaded = null; // a trace object's session, for this export only
    try {
      const t0 = performance.now();
      loaded = useProfile(m, b, input.profile, { forExport: true });
      loadProbes(m, b, heap, input);
      const t1 = performance.now();
      const pid = options.pid ?? 1;
      const tid = options.tid ?? 1;
      if (!Number.isInteger(pid) || !Number.isInteger(tid))
        throw new TypeError('webprof: pid and tid must be integers');
      const names = heap.strings([
        String(options.processName ?? 'webprof'),
        String(options.threadName ?? 'main'),
      ]);
      b.setThread(pid, tid, names.blob, names.lens);
      check(b.write(format), 'export');
      const t2 = performance.now();
      const out = copyChunks(m, b);
      lastTimings = {
        loadMs: t1 - t0,
        writeMs: t2 - t1,
        copyMs: performance.now() - t2,
        bytes: out.byteLength,
      };
      return out;
    } finally {
      if (loaded) loaded.delete();
      heap.freeAll();
      b.delete();
    }
  }, 'exporting');
}

// Probes' MarkTimeline/TraceTimeline ({events: [...]}) or plain arrays.
function events(x) {
  if (x == null) return [];
  if (Array.isArray(x)) return x;
  if (Array.isArray(x.events)) return x.events;
  throw new TypeError('webprof: marks/traces must be a timeline {events: [...]} or an array');
}

function loadProbes(m, b, heap, input) {
  // The unchanged results of the recorder's last window are read from the
  // recorder itself; only their info values (JS objects) cross, as JSON.
  // The recorder is read in place only where the probes record into the
  // module that exports: the Node-side core, not a page's tools module.
  const own =
    !toolsSeparate() && probesShareCore() ? windowSource(input.aggregates, input.marks, input.traces) : null;
  const parts = own ? own.parts : 0;
  const P = boundary().windowParts;
  if (own) {
    const withInfo = parts & (P.Marks | P.Traces);
    const s = heap.strings(withInfo ? own.infos.map(infoJson) : []);
    check(b.useWindow(own.generation, parts, s.blob, s.lens, withInfo ? own.infos.length : 0), 'probes');
  }
  const marks = parts & P.Marks ? [] : events(input.marks);
  if (marks.length) {
    const texts = [];
    const times = new Float64Array(marks.length);
    marks.forEach((e, i) => {
      texts.push(String(e.name), infoJson(e.info));
      times[i] = e.timestamp;
    });
    const s = heap.strings(texts);
    check(b.addMarks(s.blob, s.lens, heap.f64(times), marks.length), 'marks');
  }
  const traces = parts & P.Traces ? [] : events(input.traces);
  if (traces.length) {
    const texts = [];
    const T = boundary().records.traceTimesRow;
    const times = new Float64Array(traces.length * T.size);
    traces.forEach((e, i) => {
      texts.push(String(e.name), infoJson(e.info));
      times[i * T.size + T.start] = e.timestamp;
      times[i * T.size + T.duration] = e.duration;
    });
    const s = heap.strings(texts);
    check(b.addTraces(s.blob, s.lens, heap.f64(times), traces.length), 'traces');
  }
  const aggr = parts & P.Aggregates ? null : input.aggregates;
  if (aggr != null) {
    const entries = aggr instanceof Map ? [...aggr] : Object.entries(aggr);
    if (entries.length) {
      const texts = [];
      for (const [name, result] of entries) texts.push(String(name), infoJson(result));
      const s = heap.strings(texts);
      check(b.addAggregates(s.blob, s.lens, entries.length), 'aggregates');
    }
  }
}
