// `Profiler`: the W3C JS Self-Profiling interface, in every browser.
//
// One class, two backends behind it, one trace shape out of it:
//  - 'native': Chromium's own Profiler (needs `Document-Policy: js-profiling`);
//    its trace is loaded through the core's interning (TraceSession), so
//    ids are the core's and the shape matches the polyfill's exactly;
//  - 'polyfill': js/profiler/sampler.mjs samples at probe sites and the core builds
//    the trace (wasm/bind_profiler.cpp).
// 'auto' (the default) takes the native one when the page is known to be
// allowed to use it (nativeProfilerAllowed below).
// Argument handling follows the IDL: ProfilerInitOptions members are
// converted in WebIDL order (maxBufferSize as an unsigned long, then
// sampleInterval as a double); a missing required member is a TypeError, a
// negative sampleInterval a RangeError, a second stop() a promise rejected
// with an "InvalidStateError" DOMException.
import { ready } from '../core/core.mjs';
import { timeOrigin } from '../core/clock.mjs';
import { TraceSession, loadTrace, toHeldTrace } from './trace.mjs';
import { STOP_WAIT_MS, exportersSettled, toolsJsLoaded } from '../core/tools.mjs';
import { isMutedScriptUrl } from './muted.mjs';
import { resolveFrameDefinitions } from './fidelity.mjs';
import {
  MIN_INTERVAL,
  SamplerSession,
  configurePageSampler,
  materialize,
  startSession,
  stopSession,
} from './sampler.mjs';
import { installProbeSites, instrument, wrap } from './probe-sites.mjs';
import { installPlatformSites } from './platform-sites.mjs';
import { resolvePending } from './deferred.mjs';
import { symbolicateInPage } from '../core/tools-calls.mjs';

const POLYFILL = Symbol.for('webprof.Profiler');
// The engine's own Profiler, captured before webprof/polyfill may replace it.
export const NativeProfiler =
  typeof globalThis.Profiler === 'function' && !globalThis.Profiler[POLYFILL] ? globalThis.Profiler : null;
/**
 * True when the engine's Profiler exists and this document may use it.
 *
 * Asking the engine costs a console error: Chromium reports "Document policy
 * violation: js-profiling" for every refused `new Profiler`, and offers no
 * way to read a document's policy. So webprof never asks: it reads what the
 * server said. A document served with `Document-Policy: js-profiling` is
 * recognised when its response also carries `Server-Timing: js-profiling`
 * (readable by the page, in its navigation timing entry); webprof's
 * Playwright fixture and `webprof record` add both. Without that mark the
 * 'auto' backend is the polyfill, silently; `backend: 'native'` still asks.
 */
export function nativeProfilerAllowed() {
  if (!NativeProfiler) return false;
  try {
    const nav = globalThis.performance.getEntriesByType('navigation')[0];
    return !!nav && (nav.serverTiming || []).some((e) => e.name === 'js-profiling');
  } catch {
    return false;
  }
}

const BACKENDS = ['auto', 'native', 'polyfill'];

// WebIDL `unsigned long` (non-enforcing): ToNumber, NaN/±Infinity -> 0,
// truncate, modulo 2^32.
function toUnsignedLong(v) {
  const n = Number(v);
  if (!Number.isFinite(n)) return 0;
  const t = Math.trunc(n) % 2 ** 32;
  return t < 0 ? t + 2 ** 32 : t;
}

function convertOptions(options) {
  if (options === undefined || options === null) options = {};
  else if (typeof options !== 'object' && typeof options !== 'function')
    throw new TypeError(
      "Failed to construct 'Profiler': The provided value is not of type 'ProfilerInitOptions'.",
    );
  const backend = options.backend === undefined ? 'auto' : String(options.backend);
  const rawMax = options.maxBufferSize;
  if (rawMax === undefined)
    throw new TypeError("Failed to construct 'Profiler': required member maxBufferSize is undefined.");
  const maxBufferSize = toUnsignedLong(rawMax);
  const rawInterval = options.sampleInterval;
  if (rawInterval === undefined)
    throw new TypeError("Failed to construct 'Profiler': required member sampleInterval is undefined.");
  const sampleInterval = Number(rawInterval);
  if (!Number.isFinite(sampleInterval))
    throw new TypeError("Failed to construct 'Profiler': sampleInterval is not a finite number.");
  if (sampleInterval < 0)
    throw new RangeError("Failed to construct 'Profiler': sampleInterval must be non-negative.");
  if (!BACKENDS.includes(backend))
    throw new TypeError(`Failed to construct 'Profiler': backend must be one of ${BACKENDS.join(', ')}.`);
  const sourceMaps = options.sourceMaps;
  if (
    sourceMaps !== undefined &&
    sourceMaps !== false &&
    (sourceMaps === null || typeof sourceMaps !== 'object')
  )
    throw new TypeError(
      "Failed to construct 'Profiler': sourceMaps must be false or an object {scriptUrl: map}.",
    );
  return { sampleInterval, maxBufferSize, backend, sourceMaps };
}

function invalidState() {
  return Promise.reject(new DOMException('Profiler already stopped.', 'InvalidStateError'));
}

export class Profiler extends EventTarget {
  /**
   * @param {{sampleInterval: number, maxBufferSize: number, backend?: 'auto'|'native'|'polyfill'}} options
   */
  constructor(options) {
    super();
    const o = convertOptions(options);
    this._stopCalled = false;
    this._impl = null;
    // 'auto' takes the native one only where the document is known to allow
    // it (asking would log a policy violation in the console).
    if (o.backend === 'native' ? NativeProfiler : o.backend === 'auto' && nativeProfilerAllowed()) {
      try {
        this._impl = new NativeBackend(this, o);
      } catch (e) {
        if (o.backend === 'native') throw e; // e.g. NotAllowedError without the policy
      }
    } else if (o.backend === 'native') {
      throw new DOMException('This browser has no native Profiler.', 'NotSupportedError');
    }
    if (!this._impl) this._impl = new PolyfillBackend(this, o);
    this._sourceMaps = o.sourceMaps;
  }

  /** The interval really used (ms). */
  get sampleInterval() {
    return this._impl.sampleInterval;
  }
  get stopped() {
    return this._impl.stopped;
  }
  /** 'native' or 'polyfill' (webprof extension). */
  get backend() {
    return this._impl.kind;
  }

  /**
   * Stops the session and resolves with its ProfilerTrace, its frames mapped
   * through the scripts' source maps unless `sourceMaps: false`
   * (js/symbolicate/discover.mjs).
   */
  stop() {
    if (this._stopCalled) return invalidState();
    this._stopCalled = true;
    return this._impl.stop().then((trace) => symbolicateInPage(trace, this._sourceMaps));
  }

  /** A probe-site wrapper for fn (webprof extension; shared by all profilers). */
  wrap(fn) {
    return wrap(fn);
  }
  /** Wraps every method of obj (webprof extension). */
  instrument(obj) {
    return instrument(obj);
  }
}
Object.defineProperty(Profiler, POLYFILL, { value: true });

function fireFull(target) {
  // Never inside the page's code that hit the probe: a task of its own.
  Promise.resolve().then(() => target.dispatchEvent(new Event('samplebufferfull')));
}

class PolyfillBackend {
  constructor(owner, o) {
    this.kind = 'polyfill';
    this.sampleInterval = Math.max(MIN_INTERVAL, o.sampleInterval);
    this.maxBufferSize = o.maxBufferSize;
    this.stopped = false;
    this.session = new SamplerSession({
      interval: this.sampleInterval,
      maxBufferSize: o.maxBufferSize,
      onFull: () => {
        this.stopped = true;
        fireFull(owner);
      },
    });
    installProbeSites();
    installPlatformSites();
    startSession(
      this.session,
      () =>
        new TraceSession({
          sampleInterval: this.sampleInterval,
          maxBufferSize: o.maxBufferSize,
          timeOrigin: timeOrigin(),
        }),
    );
  }

  async stop() {
    stopSession(this.session);
    this.stopped = true;
    const exporters = exportersSettled();
    await ready;
    // A session stopped before the core loaded: build it now from what was kept.
    const s = this.session;
    if (!s.trace) materialize(s);
    // Samples taken so far whose stacks wait for their text get them now.
    resolvePending();
    s.trace.stop();
    const session = s.trace;
    s.trace = null; // the trace object owns it now (toHeldTrace)
    await resolveDefinitions(session);
    // The exporters are synchronous (toChromeTrace(trace)): their module
    // (js/core/tools.mjs) is loaded before the trace resolves, and the trace
    // is held there. A module that failed to load says so when one is called;
    // one still loading after STOP_WAIT_MS does not hold the trace back.
    await exporters;
    const trace = toHeldTrace(session);
    // Faults met while sampling (js/profiler/sampler.mjs): reported, never thrown at the page.
    const diagnostics = s.diagnostics();
    if (diagnostics.length) trace.diagnostics = diagnostics;
    warnIfSparse(trace);
    return trace;
  }
}

// A page whose trace has (almost) no JS stack is told why, once per realm,
// in its console (js/export/summary.mjs warnIfSparse: the summary's rule and
// words, in the tools module's JS, which stop() has awaited).
function warnIfSparse(trace) {
  try {
    const js = toolsJsLoaded();
    if (js !== null) js.warnIfSparse(trace);
  } catch {
    /* never worth a lost trace */
  }
}

// Spec frame identity: frames move from the executing position to their
// function's definition (js/profiler/fidelity.mjs). A failure there is never worth a
// lost trace: the frames then keep the positions they were captured with. A
// source whose fetch stalls is passed over after STOP_WAIT_MS, as the
// exporters' module is.
async function resolveDefinitions(trace) {
  try {
    await resolveFrameDefinitions(trace, { waitMs: STOP_WAIT_MS });
  } catch {
    /* positions stay as captured */
  }
}

class NativeBackend {
  constructor(owner, o) {
    this.kind = 'native';
    this.maxBufferSize = o.maxBufferSize;
    this.native = new NativeProfiler({ sampleInterval: o.sampleInterval, maxBufferSize: o.maxBufferSize });
    this.full = false;
    // Chromium fires samplebufferfull but leaves `stopped` false; the spec
    // says the session stops, so the wrapper reports stopped from then on.
    this.native.addEventListener('samplebufferfull', () => {
      this.full = true;
      owner.dispatchEvent(new Event('samplebufferfull'));
    });
  }
  get sampleInterval() {
    return this.native.sampleInterval;
  }
  get stopped() {
    return this.full || this.native.stopped;
  }
  async stop() {
    const exporters = exportersSettled(); // as the polyfill's stop()
    const trace = await this.native.stop();
    await ready;
    await exporters;
    return importTrace(trace, this.native.sampleInterval);
  }
}

/**
 * Loads a ProfilerTrace (e.g. Chromium's) through the core's one W3C loader
 * as the polyfill would have recorded it, and returns the core's trace:
 * equal frames and (frame, parent) pairs merge, ids are dense in first-use
 * order, samples keep their order and times. webprof's own frames (the
 * core's rule, the polyfill sampler's) and frames of resources
 * `hideResource(url)` hides — by default the polyfill's CORS-muted rule
 * (js/profiler/muted.mjs): Chromium keeps a child frame's functions called
 * synchronously from the parent, the spec does not — map to their caller.
 */
export function importTrace(trace, sampleInterval = 10, hideResource = isMutedScriptUrl) {
  configurePageSampler(); // the own-frame rule is the page sampler's
  // As sampled, the loader also orders samples that came out of time order
  // (Chromium's trace of concurrent profilers holds some).
  const session = loadTrace(trace, {
    sampleInterval,
    timeOrigin: timeOrigin(),
    asSampled: true,
    hideResource,
  });
  return toHeldTrace(session);
}
