// The tools module: what a page uses only when it rewrites a script (the
// transform's probe sites and HTML <script> rows), reads a source map or
// exports a trace (the format writers, the summary, the field trim, on
// sessions of its own a trace is copied into) — kept out of the load-time
// core and fetched on first use (webprof-tools.wasm beside webprof-core.wasm:
// wasm/CMakeLists.txt, docs/ARCHITECTURE.md "What a page loads"). The
// Node-side tools' core links these bindings itself (js/core/wasm-node.mjs
// has no tools build), so there it is the full core.
// A trap in the tools module leaves the page's core healthy: that module is
// dropped (with the trace copies it held) and a fresh one is loaded at once.
// A load that failed (a network error) is tried again by the next use.
//
// The exporters are synchronous (toChromeTrace(trace) returns bytes), but a
// page should not load a module synchronously (a synchronous fetch and
// compile block the page). So the module is loaded by whoever makes a trace
// (Profiler.stop() resolves after it) or by loadExporters(), and toolsNow()
// hands it out synchronously or throws saying what to await. The one caller
// that blocks instead is RuntimeProfiler's results(), which already reads
// the sources it lacks synchronously: its start() begins loading the module,
// and toolsSync() reads it at once if it has not arrived yet.
//
// The tools module has a JS half too (js/tools-js.mjs: the exporters' data
// path, source maps, the transform, opening Perfetto), loaded beside the
// Wasm by the uses that need it (loadExporters(), a Profiler's stop(), the
// calls of js/core/tools-calls.mjs); toolsJsNow() hands it out synchronously.
// A use that needs only the Wasm (the scanner's definition lines) loads only
// that. Where the tools are the core (Node) it is linked in
// (js/core/wasm-node.mjs).
import { WebprofError, core, ready, trapError, trapped } from './core.mjs';
import { loadSibling, loadSiblingSync, wasmUrlOf } from './instance.mjs';
import { loadToolsJs, toolsCore, toolsJsLinked } from './wasm-page.mjs';
// stop()'s wait is webprof's own, not the page's (which may wrap setTimeout).
import { settledWithin } from './platform.mjs';

let failed = null; // the build whose instance trapped (reloaded once asked again)
let current = null; // the loaded tools module, for synchronous callers
let lastError = null; // why the last load failed
let blockingFailed = null; // the build a blocking load failed for (not tried again)

let js = null; // the tools module's JS, once loaded
let jsLoading = null;

/** Resolves with the tools module's JS (js/tools-js.mjs); a failed load is tried again by the next call. */
export function toolsJs() {
  if (toolsJsLoaded() !== null) return Promise.resolve(js);
  if (jsLoading === null) {
    jsLoading = loadToolsJs().then(
      (m) => (js = m),
      (e) => {
        jsLoading = null;
        lastError = e;
        throw e;
      },
    );
  }
  return jsLoading;
}

/** The tools module's JS if it is loaded, else null (never loads, never throws). */
export function toolsJsLoaded() {
  if (js === null && loadToolsJs === null) js = toolsJsLinked();
  return js;
}

/**
 * The tools module's JS for synchronous callers (the exporters), with the
 * Wasm it drives: throws as toolsNow() does when either is not loaded.
 */
export function toolsJsNow(what = 'exporting') {
  toolsNow(what);
  const m = toolsJsLoaded();
  if (m !== null) return m;
  throw notLoaded(what);
}

/** Resolves with the tools module (rejects with why it could not load). */
export function tools() {
  if (toolsCore === null) return ready.then(() => core());
  if (current !== null) return Promise.resolve(current);
  const build = failed || toolsCore;
  return loadSibling(build).then(
    (m) => {
      if ((failed || toolsCore) !== build) return m;
      lastError = null;
      // A blocking load (toolsSync) may have landed first: that one serves.
      if (current === null) current = m;
      return current;
    },
    (e) => {
      lastError = e;
      throw e;
    },
  );
}

/**
 * Resolves once the exporters (toChromeTrace, toCpuProfile, toPerfettoTrace,
 * toPprof, exportTrace, summarize) can be called
 * synchronously: loads webprof-tools.wasm beside the core if it is not yet
 * (Profiler.stop() does this before it resolves). Rejects with why it could
 * not load.
 */
export function loadExporters() {
  return toolsAndJs().then(() => undefined);
}

/** Resolves with the tools module's JS once it and the module's Wasm are loaded. */
export function toolsAndJs() {
  return Promise.all([tools(), toolsJs()]).then(([, m]) => m);
}

// How long a Profiler's stop() waits for the tools module: a fetch that
// stalls must not keep the trace from the page (the exporters then say
// NotLoaded until the module arrives; loadExporters() waits for it).
export const STOP_WAIT_MS = 10000;

/**
 * Resolves once the tools module loaded or failed to, or after STOP_WAIT_MS,
 * whichever comes first; never rejects (a Profiler's stop()).
 */
export function exportersSettled() {
  return settledWithin([loadExporters().catch(() => {})], STOP_WAIT_MS).then(() => undefined);
}

/**
 * The tools module now, for synchronous callers (the exporters): the full
 * core where it links the tools (Node), else the loaded module; throws a
 * WebprofError saying what to await when it is not loaded.
 */
export function toolsNow(what = 'exporting') {
  if (toolsCore === null) return core();
  // After a trap webprof is unusable on the page, the tools module included.
  const poisoned = trapError();
  if (poisoned) throw poisoned;
  if (current !== null) return current;
  throw notLoaded(what);
}

function notLoaded(what) {
  if (lastError) return lastError;
  return new WebprofError(
    `webprof: ${what} needs the tools module (webprof-tools.wasm), which is not loaded yet: ` +
      "await webprof.loadExporters() first (a Profiler's stop() does this before it resolves)",
    'NotLoaded',
  );
}

/**
 * The tools module for a caller that cannot wait (RuntimeProfiler's
 * results()): the full core where it links the tools (Node), the loaded
 * module, or else the module read and compiled now, blocking (a synchronous
 * XMLHttpRequest: usually quick, as a RuntimeProfiler's start() began
 * fetching it). Null when it cannot be had (no XMLHttpRequest, unreadable,
 * refused, the core trapped); a failed blocking load is not tried again for
 * that build (the asynchronous load may still land). Never throws.
 */
export function toolsSync() {
  if (toolsCore === null) {
    try {
      return core();
    } catch {
      return null;
    }
  }
  if (trapError()) return null;
  if (current !== null) return current;
  const build = failed || toolsCore;
  if (blockingFailed === build) return null;
  try {
    current = loadSiblingSync(build);
  } catch {
    blockingFailed = build;
  }
  return current;
}

/** The loaded tools module, or null (never loads, never throws). */
export function toolsLoaded() {
  if (toolsCore === null) return null;
  return current;
}

/**
 * Where the tools module loads, or would load, from (its frames are webprof's
 * own); null where the core links the tools (Node).
 */
export function toolsWasmUrl() {
  return toolsCore === null ? null : wasmUrlOf(toolsCore);
}

/** Whether the tools module is a module of its own (false where the core links the tools: Node). */
export function toolsSeparate() {
  return toolsCore !== null;
}

// A trap in the tools module: that instance is not used again, and a fresh
// one is loaded now, so that synchronous exports work again once it arrived.
// Where the tools are the core (Node), a trap poisons it like any other.
function fault(e) {
  if (toolsCore === null) return trapped(e);
  if (!(e instanceof WebAssembly.RuntimeError)) return e;
  // A copy of the build, so it loads anew.
  failed = { ...toolsCore };
  current = null;
  tools().catch(() => {});
  return new WebprofError(
    `webprof: the Wasm tools module trapped (${e.message}); a fresh one is loading: ` +
      'await webprof.loadExporters() before exporting again',
    'Trapped',
  );
}

/**
 * Runs fn(m) on the tools module and returns its result: a WebprofError for
 * a Wasm trap in it (that instance is not used again).
 */
export async function withTools(fn) {
  const m = await tools();
  try {
    return fn(m);
  } catch (e) {
    throw fault(e);
  }
}

/** withTools() for a caller that cannot wait: toolsSync()'s module (fn is not called without one). */
export function withToolsSync(fn) {
  const m = toolsSync();
  if (m === null) return null;
  try {
    return fn(m);
  } catch (e) {
    throw fault(e);
  }
}

/** withTools() for synchronous callers: the module must be loaded (toolsNow). */
export function withToolsNow(fn, what) {
  const m = toolsNow(what);
  try {
    return fn(m);
  } catch (e) {
    throw fault(e);
  }
}
