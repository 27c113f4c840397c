// TraceSession: a core profiling session driven by hand.
//
// The Profiler front-ends (polyfill sampler, native backend import) and tests
// use it to intern resources, frames and stacks and to append samples; the
// core owns every rule (interning, buffer limit, validation). toTrace()
// materialises the W3C ProfilerTrace dictionary from typed-array copies.
import { checkId, check, core, guard, writeScratch, WebprofError } from '../core/core.mjs';

const STATE_NAMES = ['started', 'paused', 'stopped'];
const NONE = 0xffffffff;
// Status codes are the core's; only these two change control flow here.
const STATUS_OK = 0;

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
    this._full = findStatus('BufferFull');
  }

  get state() {
    return STATE_NAMES[this._live().state()];
  }
  get sampleInterval() {
    return this._live().sampleInterval();
  }
  get maxBufferSize() {
    return this._live().maxBufferSize();
  }
  get sampleCount() {
    return this._live().sampleCount();
  }

  pause() {
    this._live().pause();
  }
  resume() {
    this._live().resume();
  }
  stop() {
    this._live().stop();
  }

  /** Interns a resource URL; returns its index in `resources`. */
  resource(url) {
    if (typeof url !== 'string') throw new TypeError('webprof: resource URL must be a string');
    const s = this._live();
    const { ptr, len } = writeScratch(url);
    return checkId(s.internResource(ptr, len), 'resource');
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
    const res = resourceId === undefined ? -1 : resourceId;
    const ln = pos(line, 'line');
    const col = pos(column, 'column');
    const s = this._live();
    const { ptr, len } = writeScratch(name);
    return checkId(s.internFrame(ptr, len, res, ln, col), 'frame');
  }

  /** Interns (frameId, parentId?); returns its index in `stacks`. */
  stack(frameId, parentId) {
    return checkId(this._live().internStack(frameId, parentId === undefined ? -1 : parentId), 'stack');
  }

  /**
   * Appends a sample. Returns true if kept, false if the buffer just became
   * full (the session is now stopped). Bad input throws and keeps prior data.
   */
  sample(timestamp, stackId) {
    this._live();
    const status = core()._wp_session_sample(this._handle, timestamp, stackId === undefined ? -1 : stackId);
    if (status === STATUS_OK) return true;
    if (status === this._full) return false;
    check(status, 'sample');
    return false;
  }

  /** The script URLs of the trace, by resource id. */
  resources() {
    const s = this._live();
    const urls = [];
    for (let i = 0, n = s.resourceCount(); i < n; i++) urls.push(s.resource(i));
    return urls;
  }

  /** The W3C ProfilerTrace {resources, frames, stacks, samples} as plain objects. */
  toTrace() {
    const s = this._live();
    const names = [];
    for (let i = 0, n = s.nameCount(); i < n; i++) names.push(s.name(i));
    const resources = this.resources();
    const f = s.frames().slice();
    const frames = [];
    for (let i = 0; i < f.length; i += 4) {
      const frame = { name: names[f[i]] };
      if (f[i + 1] !== NONE) frame.resourceId = f[i + 1];
      if (f[i + 2]) frame.line = f[i + 2];
      if (f[i + 3]) frame.column = f[i + 3];
      frames.push(frame);
    }
    const st = s.stacks().slice();
    const stacks = [];
    for (let i = 0; i < st.length; i += 2) {
      const stack = { frameId: st[i] };
      if (st[i + 1] !== NONE) stack.parentId = st[i + 1];
      stacks.push(stack);
    }
    const sm = s.samples().slice();
    const samples = [];
    for (let i = 0; i < sm.length; i += 2) {
      const sample = { timestamp: sm[i] };
      if (sm[i + 1] >= 0) sample.stackId = sm[i + 1];
      samples.push(sample);
    }
    return { resources, frames, stacks, samples };
  }

  /** Frees the core's memory for this session; the object is unusable after. */
  dispose() {
    if (this._s) {
      this._s.delete();
      this._s = null;
    }
  }

  _live() {
    if (!this._s) throw new WebprofError('webprof: this TraceSession was disposed');
    return this._s;
  }
}

// ---- traces that stay in the core ----
// A stopped Profiler hands out a W3C ProfilerTrace object but keeps the
// TraceSession it was read from, so exporting that object writes the core's
// copy in place (no re-load, no re-intern). Ownership contract: the session
// belongs to the trace object; it is freed when the object is garbage
// (FinalizationRegistry) or at releaseTrace(trace), whichever comes first.
// The object stays the caller's to change, but exports read the core's copy:
// a trace whose table lengths no longer match it is loaded like any other
// object (edit a structuredClone to be sure yours is exported).
const held = new WeakMap(); // trace object -> {session, lengths}
const finalizer =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((session) => session.dispose())
    : null;

const lengths = (t) => [t.resources.length, t.frames.length, t.stacks.length, t.samples.length];

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
  held.set(trace, { session, lengths: lengths(trace) });
  finalizer.register(trace, session, trace);
  return trace;
}

/** The core session still holding `trace` unchanged, else null. Internal. */
export function heldSession(trace) {
  const h = held.get(trace);
  if (!h) return null;
  try {
    const now = lengths(trace);
    if (now.every((n, i) => n === h.lengths[i])) return h.session;
  } catch {
    /* a trace whose tables are gone: loaded (and refused) like any object */
  }
  return null;
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
  h.session.dispose();
  return true;
}

let statusByName = null;
/** The numeric code of a status by its core name (e.g. 'BufferFull'). */
export function findStatus(name) {
  if (!statusByName) {
    const m = core();
    statusByName = new Map();
    for (let i = 0; i < m.statusCount; i++) statusByName.set(m.statusName(i), i);
  }
  const code = statusByName.get(name);
  if (code === undefined) throw new WebprofError(`webprof: the core has no status named ${name}`);
  return code;
}
