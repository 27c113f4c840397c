// RuntimeProfiler: the Mozilla JS Profiling API (seed 002, later revision:
// start/isProfiling/frame/results/reset/stop) over webprof's core.
//
// A runtime is a realm (a window, an iframe's window, a worker, this Node
// process). Each realm running webprof holds the state of its own runtime:
// the TraceSession with the data since the last reset(), the core's
// RuntimeProfile (frame() slots, call tree), the sample rate and maximum,
// and the set of RuntimeProfiler instances profiling it. Several instances
// share a runtime if they agree on rate and maximum (the proposal's rule);
// sampling stops when the last of them stops, and the data stays for
// results() until reset().
//
// Sampling is the W3C Profiler polyfill's sampler (js/profiler/sampler.mjs): while
// the runtime is profiled, its TraceSession is one more session of that
// sampler, which samples at probe sites (wrapped tasks, wrap(), probe())
// when the rate's interval has passed, and between tasks (idle samples,
// counted at the root). One sampling engine, one parser, one core.
// frame() captures the stack too (js/profiler/stack_capture.mjs) but is not a sample.
//
// Another runtime (`obj`): a same-origin iframe's window (or any object of
// that realm) that has loaded webprof (dist/webprof.js or the ESM). The call
// is forwarded to a RuntimeProfiler created in that realm, so sampling,
// frame() and the core all run there; results() returns that realm's tree.
// Or a WorkerRuntime (startWorker()): the same calls go by message to the
// worker, and the methods return Promises (js/runtime-profiler/worker-runtime.mjs).
import { core, guard, WebprofError } from '../core/core.mjs';
import { boundary, checkId, statusOfId, writeScratch } from '../core/boundary.mjs';
import { MARKER, SamplerSession, startSession, stopSession } from '../profiler/sampler.mjs';
import { captureStack, classicBuildUrl, ownUrlPrefix } from '../profiler/stack_capture.mjs';
import { classifyUrls, configureSampler, resolvePending } from '../profiler/deferred.mjs';
import { timeOrigin } from '../core/clock.mjs';
import { TraceSession } from '../profiler/trace.mjs';
import { frameDefinitionsSync, prefetchSources } from '../profiler/fidelity.mjs';
import { tools } from '../core/tools.mjs';
import { serveRuntime, WorkerRuntime } from './worker-runtime.mjs';

/** Default maximum number of samples per runtime (16 B each in the core). */
const DEFAULT_MAX_SAMPLES = 1_000_000;
const DEFAULT_RATE_US = 1000;
// Keys webprof writes on a results() node; frame() properties never replace them.
const NODE_KEYS = new Set(['function', 'site', 'samples', 'selfCount', 'children']);

/** This realm's runtime. */
const runtime = {
  owners: new Set(), // RuntimeProfiler instances profiling this runtime
  rateUs: 0,
  maxSamples: 0,
  trace: null, // TraceSession: the data since the last reset()
  sampling: null, // SamplerSession while the sampler feeds `trace`
  profile: null, // core RuntimeProfile (embind): frame() slots, results()
  slots: [], // frame() objects by core slot id
};

function annotator() {
  if (runtime.profile) return runtime.profile;
  const p = guard((m) => new m.RuntimeProfile());
  // Filter frame() backtraces exactly like samples (js/profiler/sampler.mjs).
  configureSampler((kind, ptr, len) => p.configure(kind, ptr, len), MARKER, ownUrlPrefix());
  return (runtime.profile = p);
}

function startSampling() {
  const s = new SamplerSession({
    interval: runtime.rateUs / 1000,
    maxBufferSize: runtime.maxSamples,
    // The sampler stops feeding a full trace; the runtime stays profiled
    // (isProfiling) and keeps what it has, as with a hard maximum.
    onFull: () => {},
  });
  runtime.sampling = s;
  startSession(s, () => runtime.trace);
}

function stopSampling() {
  if (runtime.sampling) stopSession(runtime.sampling);
  runtime.sampling = null;
}

function newTrace() {
  if (runtime.trace) runtime.trace.dispose();
  runtime.trace = new TraceSession({
    sampleInterval: runtime.rateUs / 1000,
    maxBufferSize: runtime.maxSamples,
    timeOrigin: timeOrigin(),
  });
  runtime.slots = [];
  if (runtime.profile) runtime.profile.clearAnnotations();
}

function isWindow(obj) {
  try {
    return obj !== null && typeof obj === 'object' && obj.window === obj;
  } catch {
    return false;
  }
}

/** The runtime `obj` names: globalThis (this one), a Window, or a WorkerRuntime. */
function resolveRuntime(obj) {
  if (obj === undefined || obj === null || obj === globalThis) return globalThis;
  if (typeof obj !== 'object' && typeof obj !== 'function')
    throw new TypeError('webprof: RuntimeProfiler: obj must be an object of the runtime to profile');
  if (obj instanceof WorkerRuntime) return obj;
  if (isWindow(obj)) return obj;
  if (obj instanceof Object) return globalThis;
  // An object of another realm: look for a same-origin frame it belongs to.
  const frames = globalThis.frames;
  if (frames) {
    for (let i = 0; i < frames.length; i++) {
      try {
        if (obj instanceof frames[i].Object) return frames[i];
      } catch {
        // cross-origin frame: not a runtime we can reach
      }
    }
  }
  throw new TypeError('webprof: RuntimeProfiler: cannot find the runtime of obj (not a same-origin realm)');
}

function remoteWebprof(win) {
  let wp;
  try {
    wp = win.webprof;
  } catch {
    throw new TypeError('webprof: RuntimeProfiler: obj is a cross-origin window; only same-origin realms');
  }
  if (!wp || typeof wp.RuntimeProfiler !== 'function')
    throw new WebprofError(
      'webprof: RuntimeProfiler: that runtime has not loaded webprof (load dist/webprof.js in it)',
    );
  if (!wp.isReady())
    throw new WebprofError("webprof: that runtime's core is not loaded yet; await its webprof.ready");
  return wp;
}

function positive(v, what, dflt, max) {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0 || n > max)
    throw new RangeError(`webprof: RuntimeProfiler: ${what} must be a number in (0, ${max}], got ${v}`);
  return n;
}

/** Turns the core's JSON into the results() objects, attaching frame() data. */
function buildResults(json) {
  const root = JSON.parse(json);
  const todo = [root];
  while (todo.length) {
    const node = todo.pop();
    if (node.frames) {
      const slots = node.frames;
      delete node.frames;
      for (const slot of slots) {
        const data = runtime.slots[slot];
        if (!data) continue;
        for (const key of Object.keys(data)) if (!NODE_KEYS.has(key)) node[key] = data[key];
      }
    }
    for (const c of node.children) todo.push(c);
  }
  return root;
}

const decoder = new TextDecoder();

let nextProfilerId = 1;

export class RuntimeProfiler {
  /** The constructor takes no arguments (seed 002). */
  constructor() {
    // Profilers created in other realms on our behalf, by window (weakly:
    // a removed iframe's window can be collected).
    this._remote = new WeakMap();
    // Names this profiler to worker runtimes (its instance there).
    this._id = nextProfilerId++;
  }

  /** Begins profiling `obj`'s runtime (default: this one). sampleRate in µs. */
  start(obj, sampleRate, maxSamples) {
    const rt = resolveRuntime(obj);
    const rateUs = positive(sampleRate, 'sampleRate (µs)', DEFAULT_RATE_US, 3.6e9);
    const max = Math.floor(positive(maxSamples, 'maxSamples', DEFAULT_MAX_SAMPLES, 0xffffffff));
    if (rt instanceof WorkerRuntime) return rt._call(this._id, 'start', [rateUs, max]);
    if (rt !== globalThis) return this._forward(rt, true).start(undefined, rateUs, max);
    if (runtime.owners.has(this))
      throw new WebprofError('webprof: RuntimeProfiler.start: this profiler already profiles that runtime');
    if (runtime.owners.size > 0 && (runtime.rateUs !== rateUs || runtime.maxSamples !== max))
      throw new WebprofError(
        `webprof: RuntimeProfiler.start: another profiler already profiles that runtime with sampleRate ` +
          `${runtime.rateUs} µs and maxSamples ${runtime.maxSamples}; asked ${rateUs} µs and ${max}`,
      );
    core(); // throws a clear error before anything changes if not ready
    if (runtime.owners.size === 0) {
      const sameMax = runtime.trace && runtime.maxSamples === max;
      runtime.rateUs = rateUs;
      runtime.maxSamples = max;
      annotator();
      // The data continues across stop()/start() until reset(); a new
      // maximum needs a new buffer, so it starts fresh.
      if (!sameMax) newTrace();
      startSampling();
      // results() scans the sources with the tools module (the scanner is
      // not in the load-time core): start fetching it now, so it is there
      // when results() comes (if not, results() reads it at once).
      tools().catch(() => {});
    }
    runtime.owners.add(this);
  }

  /** Whether `obj`'s runtime (default: this one) is being profiled, by any profiler. */
  isProfiling(obj) {
    const rt = resolveRuntime(obj);
    if (rt instanceof WorkerRuntime) return rt._call(this._id, 'isProfiling', []);
    if (rt !== globalThis) {
      const remote = this._forward(rt, false);
      return remote ? remote.isProfiling() : remoteWebprof(rt).RuntimeProfiler.isProfiling();
    }
    return runtime.owners.size > 0;
  }

  /** Whether this realm's runtime is profiled by any RuntimeProfiler. */
  static isProfiling() {
    return runtime.owners.size > 0;
  }

  // frame() is defined below the class (RuntimeProfiler.prototype.frame).

  /** The call tree collected since the last reset() for `obj`'s runtime. */
  results(obj) {
    const rt = resolveRuntime(obj);
    if (rt instanceof WorkerRuntime) return rt._call(this._id, 'results', []);
    if (rt !== globalThis) {
      const remote = this._forward(rt, false) || new (remoteWebprof(rt).RuntimeProfiler)();
      return remote.results();
    }
    if (!runtime.trace) return { samples: 0, selfCount: 0, children: [] };
    resolvePending(); // samples whose stacks wait for their text get them now
    // Definition lines come from the scripts' sources: scanned once each,
    // in the background after stop(), or here (synchronously) if not yet —
    // by the tools module start() began loading, read here if it has not
    // arrived, which also looks each frame up (without it: no lines;
    // docs/ARCHITECTURE.md "The call tree").
    const definitions = frameDefinitionsSync(runtime.trace);
    const json = guard(() =>
      decoder.decode(annotator().resultsJson(runtime.trace.coreHandle(), definitions)),
    );
    return buildResults(json);
  }

  /** Clears the samples and frame() data of `obj`'s runtime, which must be being profiled. */
  reset(obj) {
    const rt = resolveRuntime(obj);
    if (rt instanceof WorkerRuntime) return rt._call(this._id, 'reset', []);
    if (rt !== globalThis) return this._forwardProfiling(rt, 'reset').reset();
    if (runtime.owners.size === 0)
      throw new WebprofError('webprof: RuntimeProfiler.reset: that runtime is not being profiled');
    stopSampling();
    newTrace();
    startSampling();
  }

  /** Ceases profiling `obj`'s runtime by this profiler (pairs with its start()). */
  stop(obj) {
    const rt = resolveRuntime(obj);
    if (rt instanceof WorkerRuntime) return rt._call(this._id, 'stop', []);
    if (rt !== globalThis) return this._forwardProfiling(rt, 'stop').stop();
    if (!runtime.owners.has(this))
      throw new WebprofError(
        'webprof: RuntimeProfiler.stop: that runtime is not being profiled by this profiler',
      );
    runtime.owners.delete(this);
    if (runtime.owners.size === 0) {
      stopSampling();
      // Nothing is measured now: give the samples their stacks, and start
      // reading the sources results() will need for definition lines.
      resolvePending();
      prefetchSources(runtime.trace.resources());
    }
  }

  /** Samples held for this realm's runtime, and whether maxSamples stopped it. */
  static stats() {
    if (!runtime.trace) return { samples: 0, full: false };
    return { samples: runtime.trace.sampleCount, full: runtime.trace.state === 'stopped' };
  }

  // The profiler this one made in `win`'s realm. A frame that navigated has
  // a new realm (a new webprof): the old profiler is forgotten with it.
  _forward(win, create) {
    let entry = this._remote.get(win);
    let wp;
    try {
      wp = win.webprof;
    } catch {
      wp = undefined;
    }
    if (entry && entry.wp !== wp) {
      this._remote.delete(win);
      entry = undefined;
    }
    if (!entry && create) {
      const w = remoteWebprof(win);
      entry = { wp: w, profiler: new w.RuntimeProfiler() };
      this._remote.set(win, entry);
    }
    return entry && entry.profiler;
  }

  _forwardProfiling(win, what) {
    const remote = this._forward(win, false);
    if (!remote)
      throw new WebprofError(`webprof: RuntimeProfiler.${what}: that runtime is not being profiled`);
    return remote;
  }
}

/**
 * RuntimeProfiler.prototype.frame(): the object for the current backtrace:
 * the same object for the same backtrace until reset(), whichever profiler
 * asks; its properties appear on that stack's node in results(). Throws if
 * no profiler profiles the current runtime (the proposal's later revision).
 * Its name carries the sampler's own-frame marker (V8 shows the frame as
 * "RuntimeProfiler.__webprof$frame", SpiderMonkey and JSC as
 * "__webprof$frame"), so it never lands in a backtrace, in any engine, even
 * when webprof is bundled into the page's script.
 */
function __webprof$frame() {
  if (runtime.owners.size === 0)
    throw new WebprofError('webprof: RuntimeProfiler.frame: the current runtime is not being profiled');
  const text = captureStack(__webprof$frame);
  const slot = guard(() => annotate(text));
  let obj = runtime.slots[slot];
  if (!obj) obj = runtime.slots[slot] = {};
  return obj;
}
Object.defineProperty(RuntimeProfiler.prototype, 'frame', {
  value: __webprof$frame,
  writable: true,
  configurable: true,
  enumerable: false,
});

// Interns the backtrace in `text` into the runtime's trace; returns its slot.
// Scripts the core has not classified (CORS-muted or not) are classified
// here and the call retried, as the sampler does for samples.
function annotate(text) {
  const p = annotator();
  const unclassified = boundary().status.UnclassifiedScript;
  for (let round = 0; round < 4; round++) {
    const { ptr, len } = writeScratch(text);
    const r = p.annotate(runtime.trace.coreHandle(), ptr, len);
    if (r >= 0 || statusOfId(r) !== unclassified) return checkId(r, 'frame');
    classifyUrls(p.unclassified(), (kind, at, bytes) => p.configure(kind, at, bytes));
  }
  throw new WebprofError('webprof: RuntimeProfiler.frame: scripts on the stack could not be classified');
}

/**
 * Loads webprof's classic build into a same-origin frame that does not have
 * it, so RuntimeProfiler can profile that frame's runtime. Resolves when the
 * frame's core is ready (at once if it already runs webprof).
 * @param {Window} win the frame's window (iframe.contentWindow)
 * @param {{webprofScript?: string}} [options] URL of dist/webprof.js
 */
export function loadInto(win, options = {}) {
  let existing;
  try {
    existing = win.webprof;
  } catch {
    return Promise.reject(new TypeError('webprof: loadInto: a cross-origin frame cannot be profiled'));
  }
  if (existing && typeof existing.RuntimeProfiler === 'function') return existing.ready;
  let src;
  try {
    src = options.webprofScript || classicBuildUrl('loadInto');
  } catch (e) {
    return Promise.reject(new WebprofError(e.message));
  }
  return new Promise((resolve, reject) => {
    const doc = win.document;
    const s = doc.createElement('script');
    s.src = src;
    s.onload = () =>
      win.webprof
        ? win.webprof.ready.then(resolve, reject)
        : reject(new WebprofError(`webprof: ${src} defined no webprof`));
    s.onerror = () => reject(new WebprofError(`webprof: loadInto: could not load ${src} into the frame`));
    (doc.head || doc.documentElement).appendChild(s);
  });
}

/** Worker side of startWorker(): called by the worker's bootstrap. */
export function serveWorkerRuntime() {
  serveRuntime(RuntimeProfiler);
}
