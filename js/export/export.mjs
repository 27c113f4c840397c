// The exporters: a ProfilerTrace and/or what a probes window reported,
// written in any format of the core's format registry
// (src/export/format_registry.h), which is the one list of formats:
// exportFormats() reads it from the core, exportTrace(id, …) dispatches
// through it, and toChromeTrace/toCpuProfile/toPerfettoTrace/toPprof are its
// built-ins by name. The CLI, the Playwright fixture and the demo iterate
// exportFormats(), so a format added to the core reaches all of them.
// registerExportFormat() adds a format written in JS (for tools and tests);
// it is listed after the core's and never shadows one.
//
// Where they run: the writers are in the tools module (js/core/tools.mjs;
// in Node, the core itself), loaded by a Profiler's stop() or by
// loadExporters(). Exports stay synchronous: called before the module was
// loaded, they throw a WebprofError that says to await loadExporters().
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
import { core } from '../core/core.mjs';
import { probesShareCore } from '../core/instance.mjs';
import { toolsNow, toolsSeparate, withToolsNow } from '../core/tools.mjs';
import { Heap, copyChunks } from '../core/heap.mjs';
import { boundary, check } from '../core/boundary.mjs';
import { TraceSession, heldIn, loadInto } from '../profiler/trace.mjs';
import { windowSource } from '../probes/probes.mjs';

/** Chrome Trace Event JSON ({"traceEvents":[...]}) as UTF-8 bytes. */
export function toChromeTrace(input, options = {}) {
  return exportTrace('chrome', input, options);
}

/** V8 .cpuprofile JSON (the profile only) as UTF-8 bytes. */
export function toCpuProfile(input) {
  return exportTrace('cpuprofile', input, {});
}

/** Perfetto protobuf trace (.pftrace) bytes. */
export function toPerfettoTrace(input, options = {}) {
  return exportTrace('perfetto', input, options);
}

/** pprof profile.proto, gzipped (profile.pb.gz; `go tool pprof`, Pyroscope, Parca). */
export function toPprof(input) {
  return exportTrace('pprof', input, {});
}

// ---- the registry ----
let coreFormats = null; // the core's list, read once (it is fixed per build)
const jsFormats = new Map(); // id -> entry with a JS `write`

// The load-time core lists the formats (src/export/format_list.h): listing
// them needs only `ready`, not the writers' tools module.
function coreList() {
  if (!coreFormats) {
    coreFormats = core()
      .exportFormats()
      .map((f) => ({
        id: f.key,
        name: f.name,
        extension: f.extension,
        mimeType: f.mimeType,
        fileName: `${f.fileStem}.${f.extension}`,
        coreId: f.id,
      }));
  }
  return coreFormats;
}

function findFormat(id) {
  return coreList().find((f) => f.id === id) || jsFormats.get(id);
}

/**
 * Every export format, the core's first: [{id, name, extension, mimeType, fileName}].
 * Needs the exporters (after a Profiler's stop() or `await loadExporters()`).
 */
export function exportFormats() {
  return [...coreList(), ...jsFormats.values()].map(({ id, name, extension, mimeType, fileName }) => ({
    id,
    name,
    extension,
    mimeType,
    fileName,
  }));
}

/** `input` written in export format `format` (an id of exportFormats()), as bytes. */
export function exportTrace(format, input, options = {}) {
  checkInput(input);
  const f = findFormat(format);
  if (!f) {
    const known = exportFormats()
      .map((x) => x.id)
      .join(', ');
    throw new TypeError(`webprof: unknown export format "${format}" (known: ${known})`);
  }
  if (f.coreId !== undefined) return exportAs(f.coreId, input, options ?? {});
  const out = f.write(input, options ?? {});
  if (out instanceof ArrayBuffer) return out;
  if (ArrayBuffer.isView(out)) return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength);
  throw new TypeError(`webprof: export format "${format}" wrote ${typeof out}, not bytes`);
}

/**
 * Adds a format written in JS: {id, name, extension, mimeType, fileName?,
 * write(input, options) -> ArrayBuffer | TypedArray}. Returns a function
 * that removes it again. Ids are unique across the core's and JS formats.
 */
export function registerExportFormat(format) {
  const { id, name, extension, mimeType, write } = format || {};
  for (const [k, v] of Object.entries({ id, name, extension, mimeType }))
    if (typeof v !== 'string' || v === '')
      throw new TypeError(`webprof: registerExportFormat needs a non-empty string ${k}`);
  if (typeof write !== 'function')
    throw new TypeError('webprof: registerExportFormat needs a write function');
  if (findFormat(id)) throw new TypeError(`webprof: export format "${id}" already exists`);
  const entry = {
    id,
    name,
    extension,
    mimeType,
    fileName: format.fileName === undefined ? `${id}.${extension}` : String(format.fileName),
    write,
  };
  jsFormats.set(id, entry);
  return () => {
    if (jsFormats.get(id) === entry) jsFormats.delete(id);
  };
}

function checkInput(input) {
  if (input === null || typeof input !== 'object') {
    throw new TypeError('webprof: export input must be an object {profile?, marks?, traces?, aggregates?}');
  }
}

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

function exportAs(format, input, options) {
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
