// The exporters: a ProfilerTrace and/or what a probes window reported,
// written in any format of the core's format registry
// (src/export/format_registry.h), which is the one list of formats:
// exportFormats() reads it from the core, exportTrace(id, …) dispatches
// through it, and toChromeTrace/toCpuProfile/toPerfettoTrace are its three
// built-ins by name. The CLI, the Playwright fixture and the demo iterate
// exportFormats(), so a format added to the core reaches all of them.
// registerExportFormat() adds a format written in JS (for tools and tests);
// it is listed after the core's and never shadows one.
//
// Data path: the W3C trace is loaded into a core ExportBuilder in a handful of
// bulk calls (all strings of a table as one UTF-8 blob plus byte lengths; all
// numbers as one Float64Array/Uint32Array; samples written straight into the
// core's sample storage, one call per 4096), so cost does not scale with
// boundary crossings. The core writes the format into chunks in Wasm memory;
// JS copies each chunk once into one ArrayBuffer and the builder is deleted.
// A TraceSession as `profile`, or a trace a stopped Profiler returned (still
// held by the core, js/profiler/trace.mjs toHeldTrace), skips loading: the
// core's copy is written in place.
// Ownership: the returned ArrayBuffer belongs to the caller; nothing in Wasm
// memory outlives the call.
import { infoJson } from '../probes/info.mjs';
import { core, guard, WebprofError } from '../core/core.mjs';
import { boundary, check } from '../core/boundary.mjs';
import { TraceSession, heldSession } from '../profiler/trace.mjs';
import { windowSource } from '../probes/probes.mjs';

const encoder = new TextEncoder();

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

// ---- the registry ----
let coreFormats = null; // the core's list, read once (it is fixed per build)
const jsFormats = new Map(); // id -> entry with a JS `write`

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
 * Needs the core (after `ready`).
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
  return guard((m) => {
    const b = new m.ExportBuilder();
    const heap = new Heap(m);
    try {
      useProfile(m, b, heap, profile);
      return b.summarize(top);
    } finally {
      heap.freeAll();
      b.delete();
    }
  });
}

// A TraceSession's trace, or the one a stopped Profiler returned, is
// already in the core: used in place; a plain ProfilerTrace is loaded.
function useProfile(m, b, heap, profile) {
  const session = profile instanceof TraceSession ? profile : heldSession(profile);
  if (session) b.useSession(session.coreHandle());
  else if (profile != null) loadProfile(m, b, heap, profile);
}

function exportAs(format, input, options) {
  return guard((m) => {
    const b = new m.ExportBuilder();
    const heap = new Heap(m);
    try {
      const t0 = performance.now();
      useProfile(m, b, heap, input.profile);
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
      heap.freeAll();
      b.delete();
    }
  });
}

function copyChunks(m, b) {
  const out = new Uint8Array(b.size());
  let at = 0;
  for (let i = 0, n = b.chunkCount(); i < n; i++) {
    const ptr = b.chunkPtr(i);
    const len = b.chunkLength(i);
    out.set(m.HEAPU8.subarray(ptr, ptr + len), at);
    at += len;
  }
  b.clearOutput();
  return out.buffer;
}

// Scratch allocations in Wasm memory for one export, freed together.
// Views are taken after each malloc (memory growth detaches older ones).
class Heap {
  constructor(m) {
    this.m = m;
    this.ptrs = [];
  }
  alloc(bytes) {
    const p = this.m._malloc(Math.max(8, bytes));
    if (!p) throw new WebprofError('webprof: out of memory while exporting');
    this.ptrs.push(p);
    return p;
  }
  f64(values) {
    const p = this.alloc(values.length * 8);
    this.m.HEAPF64.set(values, p >> 3);
    return p;
  }
  u32(values) {
    const p = this.alloc(values.length * 4);
    this.m.HEAPU32.set(values, p >> 2);
    return p;
  }
  /** All strings as one UTF-8 blob + their byte lengths. */
  strings(list) {
    let max = 0;
    for (const s of list) max += s.length * 3;
    const blob = this.alloc(max);
    const lens = new Uint32Array(list.length);
    let at = blob;
    for (let i = 0; i < list.length; i++) {
      const heap = this.m.HEAPU8;
      const s = list[i];
      const { written } = encoder.encodeInto(s, heap.subarray(at, at + s.length * 3));
      lens[i] = written;
      at += written;
    }
    return { blob, lens: this.u32(lens) };
  }
  freeAll() {
    for (const p of this.ptrs) this.m._free(p);
    this.ptrs = [];
  }
}

function loadProfile(m, b, heap, trace) {
  const { resources = [], frames = [], stacks = [], samples = [] } = trace;
  if (
    !Array.isArray(frames) ||
    !Array.isArray(stacks) ||
    !Array.isArray(samples) ||
    !Array.isArray(resources)
  ) {
    throw new TypeError('webprof: profile must be a ProfilerTrace {resources, frames, stacks, samples}');
  }
  const r = heap.strings(resources.map(String));
  check(b.loadResources(r.blob, r.lens, resources.length), 'profile.resources');

  const { noneU32, records } = boundary();
  const F = records.loadFrameRow;
  const frameRows = new Uint32Array(frames.length * F.size);
  const names = new Array(frames.length);
  for (let i = 0; i < frames.length; i++) {
    const f = frames[i];
    const row = i * F.size;
    names[i] = String(f.name ?? '');
    frameRows[row + F.resource] = f.resourceId ?? noneU32;
    frameRows[row + F.line] = f.line ?? 0;
    frameRows[row + F.column] = f.column ?? 0;
  }
  const n = heap.strings(names);
  check(b.loadFrames(n.blob, n.lens, heap.u32(frameRows), frames.length), 'profile.frames');

  const S = records.stackRow;
  const stackRows = new Uint32Array(stacks.length * S.size);
  for (let i = 0; i < stacks.length; i++) {
    stackRows[i * S.size + S.frame] = stacks[i].frameId;
    stackRows[i * S.size + S.parent] = stacks[i].parentId ?? noneU32;
  }
  check(b.loadStacks(heap.u32(stackRows), stacks.length), 'profile.stacks');

  // Samples go straight into the core's sample storage, span by span: each
  // row is written here as f64 [timestamp, stackId or -1] and converted in
  // place by commitSamples() (no scratch, no second copy). The view is
  // re-read per span because reserving may grow memory (detaching old views).
  for (let i = 0; i < samples.length;) {
    const ptr = b.reserveSamples(samples.length - i);
    const end = i + b.reservedSamples();
    const rows = m.HEAPF64;
    for (let k = ptr >> 3; i < end; i++, k += 2) {
      const s = samples[i];
      const id = s.stackId;
      rows[k] = s.timestamp;
      rows[k + 1] = id === undefined ? -1 : id;
    }
    check(b.commitSamples(), 'profile.samples');
  }
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
  const own = windowSource(input.aggregates, input.marks, input.traces);
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
