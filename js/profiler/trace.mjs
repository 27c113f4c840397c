// TraceSession: a core profiling session driven by hand.
//
// The Profiler front-ends (polyfill sampler, native backend import) and tests
// use it to intern resources, frames and stacks and to append samples; the
// core owns every rule (interning, buffer limit, validation). toTrace()
// materialises the W3C ProfilerTrace dictionary from typed-array copies.
import { core, guard, isReady, trapped, WebprofError } from '../core/core.mjs';
import { boundary, check, checkId, sessionSample, writeScratch } from '../core/boundary.mjs';
import { Heap } from '../core/heap.mjs';
import { toolsLoaded, toolsSeparate } from '../core/tools.mjs';

export class TraceSession {
  /**
   * @param {{sampleInterval?: number, maxBufferSize: number, timeOrigin?: number}} options
   * maxBufferSize is converted like a WebIDL unsigned long.
   */
  constructor(options = {}) {
    const interval = Number(options.sampleInterval ?? 10);
    const maxBufferSize = Number(options.maxBufferSize) >>> 0;
    const origin = Number(options.timeOrigin ?? 0);
    this._s = guard((m) => new m.Session(interval, maxBufferSize, origin));
    this._handle = this._s.handle();
  }

  get state() {
    return boundary().sessionStates[this._call((s) => s.state())];
  }
  get sampleInterval() {
    return this._call((s) => s.sampleInterval());
  }
  get maxBufferSize() {
    return this._call((s) => s.maxBufferSize());
  }
  get sampleCount() {
    return this._call((s) => s.sampleCount());
  }

  pause() {
    this._call((s) => s.pause());
  }
  resume() {
    this._call((s) => s.resume());
  }
  stop() {
    this._call((s) => s.stop());
  }

  /** Interns a resource URL; returns its index in `resources`. */
  resource(url) {
    if (typeof url !== 'string') throw new TypeError('webprof: resource URL must be a string');
    const { ptr, len } = writeScratch(url);
    return checkId(
      this._call((s) => s.internResource(ptr, len)),
      'resource',
    );
  }

  /** Interns {name, resourceId?, line?, column?}; returns its index in `frames`. */
  frame({ name, resourceId, line, column }) {
    if (typeof name !== 'string') throw new TypeError('webprof: frame name must be a string');
    const pos = (v, what) => {
      if (v === undefined) return 0;
      if (!Number.isInteger(v) || v < 1)
        throw new RangeError(`webprof: frame ${what} must be a 1-based integer, got ${v}`);
      return v;
    };
    const res = resourceId === undefined ? boundary().noId : resourceId;
    const ln = pos(line, 'line');
    const col = pos(column, 'column');
    const { ptr, len } = writeScratch(name);
    return checkId(
      this._call((s) => s.internFrame(ptr, len, res, ln, col)),
      'frame',
    );
  }

  /** Interns (frameId, parentId?); returns its index in `stacks`. */
  stack(frameId, parentId) {
    const parent = parentId === undefined ? boundary().noId : parentId;
    return checkId(
      this._call((s) => s.internStack(frameId, parent)),
      'stack',
    );
  }

  /**
   * Appends a sample. Returns true if kept, false if the buffer just became
   * full (the session is now stopped). Bad input throws and keeps prior data.
   */
  sample(timestamp, stackId) {
    if (this._s === null) this._live(); // throws: disposed
    const handle = this._handle;
    const { noId, status: S } = boundary();
    const status = sessionSample(handle, timestamp, stackId === undefined ? noId : stackId);
    if (status === S.Ok) return true;
    if (status === S.BufferFull) return false;
    check(status, 'sample');
    return false;
  }

  /** The script URLs of the trace, by resource id. */
  resources() {
    return this._call(sessionResources);
  }

  /** The W3C ProfilerTrace {resources, frames, stacks, samples} as plain objects. */
  toTrace() {
    return this._call((s) => sessionTrace(s));
  }

  /** Frees the core's memory for this session; the object is unusable after. */
  dispose() {
    const s = this._s;
    if (!s) return;
    this._s = null;
    // After a trap the core's memory is not touched again (a leak is safer);
    // dispose() also runs from a FinalizationRegistry: it never throws.
    if (!isReady()) return;
    try {
      s.delete();
    } catch (e) {
      trapped(e);
    }
  }

  /**
   * The core Session's address, for the bindings that read or feed this
   * trace in place (the sampler, the exporters, frame resolution,
   * RuntimeProfiler). Internal; throws if the session was disposed.
   */
  coreHandle() {
    this._live();
    return this._handle;
  }

  _live() {
    if (!this._s) throw new WebprofError('webprof: this TraceSession was disposed');
    core(); // throws once a trap poisoned the instance
    return this._s;
  }

  // fn(the embind Session): a Wasm trap inside becomes the instance's WebprofError.
  _call(fn) {
    const s = this._live();
    try {
      return fn(s);
    } catch (e) {
      throw trapped(e);
    }
  }
}

// ---- loading a W3C trace object ----

/**
 * A W3C ProfilerTrace object loaded into a new TraceSession by the core's one
 * loader (src/trace/trace_loader.h: its rules accept or refuse the rows, a
 * refusal throws a WebprofError naming the table). As given (an export), or
 * with `asSampled` as the polyfill would have recorded it on this page: the
 * core's own-frame rule and `hideResource(url)` (e.g. CORS-muted scripts)
 * remove frames, stacks are numbered in first-use order. The caller owns
 * the session (dispose() it, or hand it to toHeldTrace).
 * @param {{sampleInterval?: number, timeOrigin?: number, asSampled?: boolean,
 *   hideResource?: (url: string) => boolean}} options
 */
export function loadTrace(trace, options = {}) {
  return joinTraces([{ trace, timeOffset: 0 }], options);
}

/**
 * W3C traces of one thread recorded on different time bases — the documents
 * a page went through, each timed from its own time origin — joined into one
 * new TraceSession by the core's loader (src/trace/trace_loader.h): each
 * part's rows intern into the same tables (a function both parts ran is one
 * frame), its sample times move by `timeOffset` ms onto the common base
 * (e.g. its time origin minus the first part's), and samples that overlap
 * an earlier part's in time are merged in time order (stable). A refused
 * part throws and nothing is returned. Options as loadTrace's.
 * @param {{trace: object, timeOffset?: number}[]} parts
 */
export function joinTraces(parts, options = {}) {
  const tables = parts.map(({ trace }) => tablesOf(trace));
  const offsets = parts.map((p) => {
    const offset = Number(p.timeOffset ?? 0);
    if (!Number.isFinite(offset))
      throw new TypeError(`webprof: timeOffset must be a finite number, got ${offset}`);
    return offset;
  });
  const count = tables.reduce((n, t) => n + t.samples.length, 0);
  const session = new TraceSession({
    sampleInterval: options.sampleInterval,
    maxBufferSize: Math.max(count, 1),
    timeOrigin: options.timeOrigin,
  });
  try {
    const handle = session.coreHandle();
    guard((m) => {
      tables.forEach((t, i) => loadTable(m, handle, !!options.asSampled, offsets[i], t, options));
    });
  } catch (e) {
    session.dispose();
    throw e;
  }
  return session;
}

// One W3C table set into the session `handle` names, through a loader of module `m`.
function loadTable(m, handle, asSampled, offset, t, options) {
  const load = new m.TraceLoad(handle, asSampled, offset);
  const heap = new Heap(m);
  try {
    loadRows(m, load, heap, t, options);
  } finally {
    heap.freeAll();
    load.delete();
  }
}

function tablesOf(trace) {
  const { resources = [], frames = [], stacks = [], samples = [] } = trace || {};
  if (![resources, frames, stacks, samples].every(Array.isArray)) {
    throw new TypeError('webprof: profile must be a ProfilerTrace {resources, frames, stacks, samples}');
  }
  return { resources, frames, stacks, samples };
}

function loadRows(m, load, heap, { resources, frames, stacks, samples }, options) {
  const urls = resources.map(String);
  const r = heap.strings(urls);
  const hide = options.asSampled && options.hideResource;
  const hidden = hide ? heap.u8(urls.map((u) => (hide(u) ? 1 : 0))) : 0;
  check(load.loadResources(r.blob, r.lens, hidden, urls.length), 'profile.resources');

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
  check(load.loadFrames(n.blob, n.lens, heap.u32(frameRows), frames.length), 'profile.frames');

  const S = records.stackRow;
  const stackRows = new Uint32Array(stacks.length * S.size);
  for (let i = 0; i < stacks.length; i++) {
    stackRows[i * S.size + S.frame] = stacks[i].frameId;
    stackRows[i * S.size + S.parent] = stacks[i].parentId ?? noneU32;
  }
  check(load.loadStacks(heap.u32(stackRows), stacks.length), 'profile.stacks');

  // Samples go straight into the core's sample storage, span by span: each
  // row is written here as f64 [timestamp, stackId or -1] and converted in
  // place by commitSamples() (no scratch, no second copy). The view is
  // re-read per span because reserving may grow memory (detaching old views).
  for (let i = 0; i < samples.length;) {
    const ptr = load.reserveSamples(samples.length - i);
    const end = i + load.reservedSamples();
    const rows = m.HEAPF64;
    for (let k = ptr >> 3; i < end; i++, k += 2) {
      const s = samples[i];
      const id = s.stackId;
      rows[k] = s.timestamp;
      rows[k + 1] = id === undefined ? -1 : id;
    }
    check(load.commitSamples(), 'profile.samples');
  }
  load.finish();
}

// ---- traces that stay in the core ----
// A stopped Profiler hands out a W3C ProfilerTrace object but keeps a core
// copy of it, so exporting that object writes the copy in place (no re-load,
// no re-intern). The exporters run in the tools module (js/core/tools.mjs), so
// that is where the copy lives: made from the page core's session when the
// trace is handed out with the tools loaded (Profiler.stop() loads them
// first), else at the first export, the page core's session freed then.
// Where the tools are the core itself (Node) the session stays as it is.
// Ownership contract: the copy belongs to the trace object; it is freed when
// the object is garbage (FinalizationRegistry) or at releaseTrace(trace),
// whichever comes first. The object stays the caller's to change, but exports
// read the core's copy: a trace whose table lengths no longer match it is
// loaded like any other object (edit a structuredClone to be sure yours is
// exported).
const held = new WeakMap(); // trace object -> Held
const finalizer =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((h) => h.dispose()) : null;

const lengths = (t) => [t.resources.length, t.frames.length, t.stacks.length, t.samples.length];

// One held trace: `session` (a TraceSession of the page's core) until
// `copy` (a session of tools module `m`) replaces it.
class Held {
  constructor(session, trace) {
    this.session = session;
    this.lengths = lengths(trace);
    this.m = null;
    this.copy = null;
  }
  // The session of module m holding this trace (m: the tools module).
  // A copy lost with a trapped tools module is made again from the object.
  // The copy is made from the page core's session (the object may have been
  // edited in place since), unless `fresh`: the object was made from it just
  // now, and making it again would double a stop()'s largest cost.
  in(m, trace, fresh = false) {
    if (this.copy !== null && this.m === m) return this.copy;
    if (this.session !== null && !toolsSeparate()) return this.session;
    const source = this.session !== null && !fresh ? this.session.toTrace() : trace;
    const copy = loadInto(m, source);
    this.dropCopy();
    this.m = m;
    this.copy = copy;
    if (this.session !== null) {
      this.session.dispose();
      this.session = null;
    }
    return copy;
  }
  dropCopy() {
    if (this.copy === null) return;
    try {
      this.copy.delete();
    } catch {
      /* a trapped tools module: dropped with it */
    }
    this.copy = null;
  }
  dispose() {
    this.dropCopy();
    if (this.session !== null) this.session.dispose();
    this.session = null;
  }
}

/**
 * The W3C trace of `session`, which from now on belongs to the returned
 * object (see above). Without FinalizationRegistry it is freed at once.
 */
export function toHeldTrace(session) {
  let trace;
  try {
    trace = session.toTrace();
  } catch (e) {
    session.dispose();
    throw e;
  }
  if (!finalizer) {
    session.dispose();
    return trace;
  }
  const h = new Held(session, trace);
  held.set(trace, h);
  finalizer.register(trace, h, trace);
  // Copied into the tools module now if it is loaded: the page's core keeps
  // only what is recording. A failure leaves the page core's session held.
  const m = toolsSeparate() ? toolsLoaded() : null;
  if (m !== null) {
    try {
      h.in(m, trace, true);
    } catch {
      /* copied at the first export instead */
    }
  }
  return trace;
}

/**
 * The session of module `m` (the tools module, or the core where it links
 * the tools) still holding `trace` unchanged, else null: its `handle()` is
 * what the export bindings take. Internal.
 */
export function heldIn(m, trace) {
  const h = held.get(trace);
  if (!h) return null;
  try {
    const now = lengths(trace);
    if (!now.every((n, i) => n === h.lengths[i])) return null;
  } catch {
    return null; /* a trace whose tables are gone: loaded (and refused) like any object */
  }
  const s = h.in(m, trace);
  return s instanceof TraceSession ? s.coreHandle() : s.handle();
}

/**
 * Frees the core's copy of a trace a Profiler returned now instead of when it
 * is garbage. Later exports load the object itself. Returns whether there was one.
 */
export function releaseTrace(trace) {
  const h = held.get(trace);
  if (!h) return false;
  held.delete(trace);
  finalizer.unregister(trace);
  h.dispose();
  return true;
}

/**
 * A session of module `m` (the tools module: its own Session binding, not a
 * TraceSession of the page's core) holding `trace` loaded as given, for
 * exports; the caller delete()s it. A refused table throws like loadTrace.
 */
export function loadInto(m, trace) {
  const t = tablesOf(trace);
  const s = new m.Session(10, Math.max(t.samples.length, 1), 0);
  try {
    loadTable(m, s.handle(), false, 0, t, {});
  } catch (e) {
    s.delete();
    throw e;
  }
  return s;
}

// The script URLs of a raw binding session (of any module), by resource id.
function sessionResources(s) {
  const urls = [];
  for (let i = 0, n = s.resourceCount(); i < n; i++) urls.push(s.resource(i));
  return urls;
}

/** The W3C trace in a raw binding session (of any module), as plain objects. */
export function sessionTrace(s) {
  const { noId, noneU32, records } = boundary();
  const names = [];
  for (let i = 0, n = s.nameCount(); i < n; i++) names.push(s.name(i));
  const resources = sessionResources(s);
  const F = records.frameRow;
  const f = s.frames().slice();
  const frames = [];
  for (let i = 0; i < f.length; i += F.size) {
    const frame = { name: names[f[i + F.name]] };
    if (f[i + F.resource] !== noneU32) frame.resourceId = f[i + F.resource];
    if (f[i + F.line]) frame.line = f[i + F.line];
    if (f[i + F.column]) frame.column = f[i + F.column];
    frames.push(frame);
  }
  const S = records.stackRow;
  const st = s.stacks().slice();
  const stacks = [];
  for (let i = 0; i < st.length; i += S.size) {
    const stack = { frameId: st[i + S.frame] };
    if (st[i + S.parent] !== noneU32) stack.parentId = st[i + S.parent];
    stacks.push(stack);
  }
  const R = records.sampleRow;
  const sm = s.samples().slice();
  const samples = [];
  for (let i = 0; i < sm.length; i += R.size) {
    const sample = { timestamp: sm[i + R.timestamp] };
    if (sm[i + R.stack] !== noId) sample.stackId = sm[i + R.stack];
    samples.push(sample);
  }
  return { resources, frames, stacks, samples };
}
