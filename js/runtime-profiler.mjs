// RuntimeProfiler: the Mozilla JS Profiling API (seed 002, later revision:
// start/isProfiling/frame/results/reset/stop) over webprof's core.
//
// A runtime is a realm (a window, an iframe's window, this Node process).
// Each realm that runs webprof has one registry entry per profiled runtime —
// here, its own — holding the core's RuntimeProfile (samples, frame() slots,
// call tree), the sample rate and maximum, and the set of RuntimeProfiler
// instances profiling it. Several instances may share a runtime if they agree
// on rate and maximum (the proposal's rule); the runtime stops sampling when
// the last of them stops, and keeps its data for results() until reset().
//
// Sampling: JS cannot interrupt itself, so samples are taken at sampling
// points — tick() (a probe the page places in long-running code) — when the
// sample rate's deadline has passed ("never more often than the rate"). The
// stack is captured by the shared captureStack() and parsed, filtered and
// interned by the core's StackSampler, the same path as the W3C Profiler
// polyfill. frame() captures the stack too but does not count as a sample.
//
// Another runtime (`obj`): a same-origin iframe's window (or any object of
// that realm) that has loaded webprof (dist/webprof.js or the ESM). The call
// is forwarded to a RuntimeProfiler created in that realm, so sampling,
// frame() and the core all run there; results() returns that realm's tree.
// Or a WorkerRuntime (startWorker()): the same calls go by message to the
// worker, and the methods return Promises (js/worker-runtime.mjs).
import { checkId, core, guard, WebprofError, writeScratch } from './core.mjs';
import { captureStack, ownUrlPrefix } from './stack_capture.mjs';
import { serveRuntime, WorkerRuntime } from './worker-runtime.mjs';

/** Default maximum number of samples per runtime (16 B each in the core). */
export const DEFAULT_MAX_SAMPLES = 1_000_000;
const DEFAULT_RATE_US = 1000;
// Keys webprof writes on a results() node; frame() properties never replace them.
const NODE_KEYS = new Set(['function', 'site', 'samples', 'selfCount', 'children']);

/** This realm's runtime. `profile` lives as long as its data (until reset). */
const runtime = {
  profile: null, // core RuntimeProfile (embind), created on the first start()
  owners: new Set(), // RuntimeProfiler instances profiling this runtime
  rateUs: 0,
  maxSamples: 0,
  origin: 0, // performance.now() at the last (re)start of the data
  lastTs: 0,
  nextDue: Infinity, // performance.now() when a sample is next due
  slots: [], // frame() objects by core slot id
};

const now = () => performance.now();

function newProfile(maxSamples) {
  const p = guard((m) => new m.RuntimeProfile(maxSamples));
  const prefix = ownUrlPrefix();
  if (prefix) {
    const { ptr, len } = writeScratch(prefix);
    p.addOwnUrlPrefix(ptr, len);
  }
  return p;
}

/**
 * A sampling point: takes one sample of the current stack in this runtime
 * if it is being profiled and the sample rate's interval has passed since
 * the last sample. Costs one performance.now() otherwise.
 */
export function tick() {
  if (runtime.nextDue === Infinity) return;
  const t = now();
  if (t < runtime.nextDue) return;
  runtime.nextDue = t + runtime.rateUs / 1000;
  const text = captureStack(tick);
  // Timestamps must not go backwards for the core; performance.now() is
  // monotonic, the max() only guards a reset origin.
  const ts = Math.max(t - runtime.origin, runtime.lastTs);
  runtime.lastTs = ts;
  guard(() => {
    const { ptr, len } = writeScratch(text);
    runtime.profile.sample(ptr, len, ts);
    // Statuses (buffer full, unreadable stack) are counted by the core and
    // never thrown from a probe: the page's code must not fail because of it.
  });
}

function isWindow(obj) {
  try {
    return obj !== null && typeof obj === 'object' && obj.window === obj;
  } catch {
    return false; // cross-origin window: reading .window is allowed, but be safe
  }
}

/** The global of the runtime `obj` names (undefined: this runtime). */
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

let nextProfilerId = 1;

export class RuntimeProfiler {
  /** The constructor takes no arguments (seed 002). */
  constructor() {
    // Profilers created in other realms on our behalf, by window.
    this._remote = new Map();
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
      if (!runtime.profile || runtime.maxSamples !== max) {
        // A new maximum needs a new buffer: the old data is replaced.
        this._dropProfile();
        runtime.profile = newProfile(max);
        runtime.origin = now();
        runtime.lastTs = 0;
      }
      runtime.rateUs = rateUs;
      runtime.maxSamples = max;
      runtime.nextDue = now() + rateUs / 1000;
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

  /**
   * The object for the current backtrace: the same object for the same
   * backtrace until reset(), whichever profiler asks; its properties appear
   * on that stack's node in results(). Throws if no profiler profiles the
   * current runtime (the later revision of the proposal).
   */
  frame() {
    if (runtime.owners.size === 0)
      throw new WebprofError('webprof: RuntimeProfiler.frame: the current runtime is not being profiled');
    const text = captureStack(RuntimeProfiler.prototype.frame);
    const slot = guard(() => {
      const { ptr, len } = writeScratch(text);
      return checkId(runtime.profile.annotate(ptr, len), 'frame');
    });
    let obj = runtime.slots[slot];
    if (!obj) obj = runtime.slots[slot] = {};
    return obj;
  }

  /** The call tree collected since the last reset() for `obj`'s runtime. */
  results(obj) {
    const rt = resolveRuntime(obj);
    if (rt instanceof WorkerRuntime) return rt._call(this._id, 'results', []);
    if (rt !== globalThis) {
      const remote = this._forward(rt, false) || new (remoteWebprof(rt).RuntimeProfiler)();
      return remote.results();
    }
    if (!runtime.profile) return { samples: 0, selfCount: 0, children: [] };
    const json = guard(() => new TextDecoder().decode(runtime.profile.resultsJson()));
    return buildResults(json);
  }

  /** Clears the samples and frame() data of `obj`'s runtime, which must be being profiled. */
  reset(obj) {
    const rt = resolveRuntime(obj);
    if (rt instanceof WorkerRuntime) return rt._call(this._id, 'reset', []);
    if (rt !== globalThis) return this._forwardProfiling(rt, 'reset').reset();
    if (runtime.owners.size === 0)
      throw new WebprofError('webprof: RuntimeProfiler.reset: that runtime is not being profiled');
    guard(() => runtime.profile.reset());
    runtime.slots = [];
    runtime.origin = now();
    runtime.lastTs = 0;
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
    if (runtime.owners.size === 0) runtime.nextDue = Infinity;
  }

  /** Samples kept and dropped (maxSamples reached) in this runtime's data. */
  static stats() {
    if (!runtime.profile) return { samples: 0, dropped: 0 };
    return guard(() => ({
      samples: runtime.profile.sampleCount(),
      dropped: runtime.profile.samplesDropped(),
    }));
  }

  _forward(win, create) {
    let remote = this._remote.get(win);
    if (!remote && create) {
      remote = new (remoteWebprof(win).RuntimeProfiler)();
      this._remote.set(win, remote);
    }
    return remote;
  }

  _forwardProfiling(win, what) {
    const remote = this._forward(win, false);
    if (!remote)
      throw new WebprofError(`webprof: RuntimeProfiler.${what}: that runtime is not being profiled`);
    return remote;
  }

  _dropProfile() {
    if (runtime.profile) runtime.profile.delete();
    runtime.profile = null;
    runtime.slots = [];
  }
}

/** Worker side of startWorker(): called by the worker's bootstrap. */
export function serveWorkerRuntime() {
  serveRuntime(RuntimeProfiler);
}
