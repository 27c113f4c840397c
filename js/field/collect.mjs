// Field collection: profiles of real users' page loads, sent to a server.
//
// collectProfiles() decides once per page load whether this load is
// profiled (sampleRate, or a seed such as a session id, or `sampled` to
// force it: decide.mjs), runs one Profiler from then on, and sends its trace
// once: when the page is hidden (visibilitychange -> hidden, pagehide: the
// last moments the page is sure to run), when maxDurationMs ends or when the
// buffer is full. After pagehide only the event's microtasks run, so that
// flush settles on microtasks alone (docs/ARCHITECTURE.md "Field
// collection": what Chromium's native sampler cannot do there). Sending is made small first: the core trims the trace
// (src/export/trace_trim.h: idle samples out, an evenly spaced subset under
// a sample cap, only reached rows) and the payload is gzipped with
// CompressionStream where there is one; when it is still above maxBytes,
// the sample cap shrinks in proportion and the core trims again. The wire
// format is payload.mjs's; send.mjs encodes and posts (the tools module's JS).
//
// Never into the page: nothing here throws at the caller or from an event
// listener; every failure (a refused option, a Profiler the browser denies,
// a payload over budget, a beacon the browser refused, a non-2xx answer) is
// counted in `diagnostics` with one sentence, and the collector's state
// says where it stopped. Cost: the Profiler's own (docs/ARCHITECTURE.md);
// the collector adds two passive listeners and one timer while profiling,
// and the trim, JSON and compression once, at the end, bounded by the
// buffer.
import { ready } from '../core/core.mjs';
import { toolsAndJs } from '../core/tools.mjs';
import { Profiler } from '../profiler/profiler.mjs';
import { wantPlatformSites } from '../profiler/platform-sites.mjs';
import {
  platformAddEventListener,
  platformClearTimeout,
  platformRemoveEventListener,
  platformSetTimeout,
} from '../core/platform.mjs';
import { prefetchSources } from '../profiler/fidelity.mjs';
import { decideSampled } from './decide.mjs';
// Encoding and sending the payload (send.mjs) is the tools module's JS,
// loaded with it when a sampled load starts.
import { sendFieldTrace } from '../core/tools-calls.mjs';

const DEFAULTS = {
  sampleRate: 0.01,
  sampleInterval: 10,
  maxBufferSize: 10_000,
  maxDurationMs: 10_000,
  maxSamples: 5_000,
  maxBytes: 60 * 1024, // under the 64 KiB a page may have in flight at unload
  backend: 'auto',
};
const MAX_ERRORS = 20;
// setTimeout's delay is a signed 32-bit count of ms: a longer one (about 25
// days) fires at once, which would end collection as soon as it started.
const MAX_TIMER_MS = 2 ** 31 - 1;

let current = null; // one collector per page load

/**
 * Starts field collection for this page load (see js/webprof.d.ts
 * FieldCollectOptions). Returns the page's collector; a second call returns
 * the first one (the decision is made once per load) and notes it.
 */
export function collectProfiles(options) {
  if (current) {
    current._error('collectProfiles() was called again on this page; the first call decides');
    return current;
  }
  current = new FieldCollector(options);
  return current;
}

/** Test-only: forget this page's collector (a new "page load"). */
export function resetFieldCollection() {
  if (current) current._detach();
  current = null;
}

class FieldCollector {
  constructor(options) {
    this._d = {
      sampled: false,
      state: 'off',
      sampler: null,
      reason: null,
      recorded: 0,
      sent: 0,
      idleDropped: 0,
      thinnedDropped: 0,
      bytes: 0,
      compressed: false,
      transport: null,
      status: null,
      failures: 0,
      errors: [],
    };
    this._flushing = null;
    this._profiler = null;
    this._listeners = [];
    this._timer = null;
    try {
      this._o = readOptions(options);
      this._d.sampled = decideSampled(this._o);
      if (this._d.sampled) this._start();
    } catch (e) {
      this._fail(e);
      this._abandon();
    }
  }

  // A failure after the Profiler started (e.g. a PerformanceObserver that
  // refuses the 'resource' type): nothing would ever flush, so the Profiler
  // would sample, at the page's cost, until the page ends. Stop it now.
  _abandon() {
    this._detach();
    const p = this._profiler;
    this._profiler = null;
    if (p) p.stop().catch((e) => this._error(e && e.message ? String(e.message) : String(e)));
  }

  /** Where collection stands and every failure met, as numbers and sentences. */
  get diagnostics() {
    const d = this._d;
    return { ...d, errors: [...d.errors] };
  }
  get sampled() {
    return this._d.sampled;
  }
  get state() {
    return this._d.state;
  }

  /**
   * Stops profiling and sends now (once; later calls return the same
   * promise). Resolves with the diagnostics; never rejects.
   */
  flush() {
    return this._flush('flush');
  }

  _flush(reason) {
    if (!this._flushing) {
      this._detach();
      this._flushing = this._d.state === 'profiling' ? this._send(reason) : Promise.resolve();
      this._flushing = this._flushing.then(
        () => this.diagnostics,
        (e) => {
          this._fail(e);
          return this.diagnostics;
        },
      );
    }
    return this._flushing;
  }

  _start() {
    const o = this._o;
    // Where the polyfill samples (no native Profiler, or not allowed), the
    // page's clock reads are sample points too, as with webprof/polyfill:
    // field pages run untransformed code. Only sampled loads pay for it.
    wantPlatformSites();
    this._profiler = new Profiler({
      sampleInterval: o.sampleInterval,
      maxBufferSize: o.maxBufferSize,
      backend: o.backend,
      // The server symbolicates with the release's maps: the page fetches none.
      sourceMaps: false,
    });
    this._d.sampler = this._profiler.backend;
    this._d.state = 'profiling';
    this._startedAt = Date.now();
    this._profiler.addEventListener('samplebufferfull', () => this._flush('full'));
    if (this._d.sampler === 'polyfill') this._warmSources();
    // The payload is trimmed in the tools module (js/core/tools.mjs), and the
    // Profiler's stop() waits for it with its JS: fetched now, as a fetch
    // started at pagehide may never finish. A failure shows at send.
    toolsAndJs().catch(() => {});
    // webprof's own timer and listeners are the platform's as webprof loaded
    // (js/core/platform.mjs): the page's setTimeout and addEventListener are
    // probe sites while the polyfill samples, and may run in a page's zone.
    this._timer = platformSetTimeout(() => this._flush('duration'), Math.min(o.maxDurationMs, MAX_TIMER_MS));
    const g = globalThis;
    if (typeof g.addEventListener === 'function') {
      this._listen(g, 'pagehide', () => this._flush('pagehide'));
      if (typeof document !== 'undefined')
        this._listen(document, 'visibilitychange', () => {
          if (document.visibilityState === 'hidden') this._flush('hidden');
        });
    }
  }

  // The polyfill's stop() reads each sampled script once to move frames to
  // their definitions (js/profiler/fidelity.mjs). Read at pagehide, that
  // fetch would never answer: the document is gone. So the page's scripts
  // are read and scanned as they load (the same work stop() would do, done
  // earlier), and stop() then finds them all scanned and settles within
  // the pagehide event.
  _warmSources() {
    if (typeof performance === 'undefined' || typeof performance.getEntriesByType !== 'function') return;
    const seen = new Set();
    const take = (entries) => {
      const urls = [];
      for (const e of entries)
        if ((e.initiatorType === 'script' || /\.m?js(\?|$)/.test(e.name)) && !seen.has(e.name)) {
          seen.add(e.name);
          urls.push(e.name);
        }
      if (urls.length) prefetchSources(urls);
    };
    take(performance.getEntriesByType('resource'));
    // Inline scripts: frames at document positions, read from the document.
    if (typeof document !== 'undefined' && document.querySelector('script:not([src])'))
      take([{ initiatorType: 'script', name: String(location.href).split('#')[0] }]);
    if (typeof PerformanceObserver === 'function') {
      const observer = new PerformanceObserver((list) => {
        try {
          take(list.getEntries());
        } catch (e) {
          this._fail(e);
        }
      });
      observer.observe({ type: 'resource' });
      this._listeners.push(() => observer.disconnect());
    }
  }

  _listen(target, type, fn) {
    const safe = () => {
      try {
        fn();
      } catch (e) {
        this._fail(e);
      }
    };
    if (!platformAddEventListener(target, type, safe, { capture: true, passive: true })) return;
    this._listeners.push(() => platformRemoveEventListener(target, type, safe, { capture: true }));
  }

  _detach() {
    for (const off of this._listeners.splice(0)) off();
    if (this._timer !== null) platformClearTimeout(this._timer);
    this._timer = null;
  }

  async _send(reason) {
    const d = this._d;
    d.reason = reason;
    d.state = 'sending';
    const trace = await this._profiler.stop();
    await ready;
    d.recorded = trace.samples.length;
    await sendFieldTrace(trace, this._o, d, (m) => this._error(m), {
      reason,
      sampleInterval: this._profiler.sampleInterval,
      startTime: this._startedAt,
    });
  }

  _fail(e) {
    this._d.state = 'failed';
    this._error(e && e.message ? String(e.message) : String(e));
  }

  _error(message) {
    const d = this._d;
    d.failures++;
    if (d.errors.length < MAX_ERRORS) d.errors.push(`webprof collectProfiles: ${message}`);
  }
}

function readOptions(options) {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const o = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS)) if (options[key] !== undefined) o[key] = options[key];
  if (typeof options.endpoint !== 'string' && !(options.endpoint instanceof URL))
    throw new TypeError('endpoint must be a URL string');
  o.endpoint = String(options.endpoint);
  o.release = options.release === undefined ? '' : String(options.release);
  // An object's text is "[object Object]" for every user: one decision for all.
  if (
    options.seed !== undefined &&
    options.seed !== null &&
    !['string', 'number', 'bigint'].includes(typeof options.seed)
  )
    throw new TypeError(
      `seed must be a string or a number (a session or user id), got ${typeof options.seed}`,
    );
  o.seed = options.seed;
  o.sampled = options.sampled;
  for (const key of ['sampleInterval', 'maxBufferSize', 'maxDurationMs', 'maxSamples', 'maxBytes']) {
    o[key] = Number(o[key]);
    if (!(o[key] >= 0) || !Number.isFinite(o[key]))
      throw new RangeError(`${key} must be a finite number >= 0, got ${options[key]}`);
  }
  if (options.metadata !== undefined) {
    // Checked here, not at the end: a metadata object JSON cannot hold is the caller's to fix.
    JSON.stringify(options.metadata);
    o.metadata = options.metadata;
  }
  return o;
}
