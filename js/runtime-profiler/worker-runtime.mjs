// A dedicated Worker as a runtime RuntimeProfiler can profile (seed 002 `obj`).
//
// startWorker(url) starts the page's worker script behind a small classic
// bootstrap (a Blob URL) that first loads webprof's classic build in the
// worker and answers profiling requests; then the page's script runs
// unchanged, with the `webprof` global available for tick() sampling points.
// Profiling runs in the worker; results come back by message. A worker is
// another thread, so RuntimeProfiler's methods return Promises for it.
//
// Protocol (structured-clone messages, tagged so the page's own messages
// pass through): caller -> worker {webprof: 'rt-call', id, profiler, method,
// args}; worker -> caller {webprof: 'rt-reply', id, ok, value | error {name,
// message}} and once {webprof: 'rt-ready'} (or {webprof: 'rt-failed', error})
// when the worker's core is loaded. `profiler` names the caller's
// RuntimeProfiler, so each has its own instance in the worker and the
// proposal's per-instance rules hold there.
import { ready, WebprofError } from '../core/core.mjs';
import { classicBuildUrl } from '../profiler/stack_capture.mjs';

const ERRORS = { TypeError, RangeError };

function reviveError(e) {
  const Ctor = ERRORS[e && e.name];
  return Ctor ? new Ctor(e.message) : new WebprofError(e ? e.message : 'webprof: worker error');
}

export class WorkerRuntime {
  /**
   * @param {string|URL} url the worker's classic script (same origin)
   * @param {{webprofScript?: string, name?: string}} [options]
   */
  constructor(url, options = {}) {
    const base = globalThis.location ? globalThis.location.href : undefined;
    const script = new URL(String(url), base).href;
    const webprofScript = new URL(options.webprofScript || classicBuildUrl('startWorker'), base).href;
    const wasm = new URL('webprof-core.wasm', webprofScript).href;
    const boot =
      `self.webprofWasmUrl = ${JSON.stringify(wasm)};\n` +
      `importScripts(${JSON.stringify(webprofScript)});\n` +
      `webprof.serveWorkerRuntime();\n` +
      `importScripts(${JSON.stringify(script)});\n`;
    const blobUrl = URL.createObjectURL(new Blob([boot], { type: 'text/javascript' }));
    this.worker = new Worker(blobUrl, { name: options.name });
    this._pending = new Map();
    this._nextId = 1;
    this.ready = new Promise((resolve, reject) => {
      this._onMessage = (ev) => {
        const m = ev.data;
        if (!m || typeof m !== 'object') return;
        if (m.webprof === 'rt-ready') {
          URL.revokeObjectURL(blobUrl);
          resolve();
        } else if (m.webprof === 'rt-failed') {
          reject(reviveError(m.error));
        } else if (m.webprof === 'rt-reply') {
          const p = this._pending.get(m.id);
          if (!p) return;
          this._pending.delete(m.id);
          if (m.ok) p.resolve(m.value);
          else p.reject(reviveError(m.error));
        }
      };
      this.worker.addEventListener('message', this._onMessage);
      this.worker.addEventListener('error', (ev) =>
        reject(new WebprofError(`webprof: worker failed to start: ${ev.message || 'error'}`)),
      );
    });
    this.ready.catch(() => {});
  }

  /** Calls `method` of the worker-side RuntimeProfiler named `profiler`. */
  _call(profiler, method, args) {
    return this.ready.then(
      () =>
        new Promise((resolve, reject) => {
          const id = this._nextId++;
          this._pending.set(id, { resolve, reject });
          this.worker.postMessage({ webprof: 'rt-call', id, profiler, method, args });
        }),
    );
  }

  /** Posts a message to the page's worker script. */
  postMessage(message, transfer) {
    this.worker.postMessage(message, transfer);
  }

  /** Terminates the worker; pending calls reject. */
  terminate() {
    this.worker.terminate();
    for (const p of this._pending.values()) p.reject(new WebprofError('webprof: the worker was terminated'));
    this._pending.clear();
  }
}

/** Starts `url` as a dedicated Worker runtime that RuntimeProfiler can profile. */
export function startWorker(url, options) {
  return new WorkerRuntime(url, options);
}

/**
 * Worker side (called by the bootstrap): answers rt-call messages with a
 * RuntimeProfiler per calling profiler.
 * @param {typeof import('./runtime-profiler.mjs').RuntimeProfiler} Profiler
 */
export function serveRuntime(Profiler) {
  const profilers = new Map();
  globalThis.addEventListener('message', (ev) => {
    const m = ev.data;
    if (!m || typeof m !== 'object' || m.webprof !== 'rt-call') return;
    ev.stopImmediatePropagation();
    let p = profilers.get(m.profiler);
    if (!p) profilers.set(m.profiler, (p = new Profiler()));
    let reply;
    try {
      if (!['start', 'isProfiling', 'results', 'reset', 'stop'].includes(m.method))
        throw new TypeError(`webprof: unknown RuntimeProfiler method ${m.method}`);
      reply = { ok: true, value: p[m.method](undefined, ...m.args) };
    } catch (e) {
      reply = { ok: false, error: { name: e && e.name, message: String(e && e.message) } };
    }
    try {
      globalThis.postMessage({ webprof: 'rt-reply', id: m.id, ...reply });
    } catch (e) {
      // e.g. a frame() property that cannot be cloned (a function)
      const error = { name: 'WebprofError', message: `webprof: cannot send the reply: ${e.message}` };
      globalThis.postMessage({ webprof: 'rt-reply', id: m.id, ok: false, error });
    }
  });
  ready.then(
    () => globalThis.postMessage({ webprof: 'rt-ready' }),
    (e) => globalThis.postMessage({ webprof: 'rt-failed', error: { name: e.name, message: e.message } }),
  );
}
