// Capturing the current JS stack outside a sample, plus what the core needs
// to drop webprof's own frames from it.
//
// A polyfill cannot interrupt running JS: a stack is captured where webprof's
// code runs, as the text of Error.stack, and the core parses it
// (src/stack_parser.h). RuntimeProfiler's frame() needs its text at once
// (captureStack()); the polyfill sampler (js/profiler/sampler.mjs) captures the
// frames at the sample (captureFrames()) and reads their text later, in a
// batch. Both texts go to the same core parser and frame filter.
//
// V8's stack has 10 frames by default: the limit is raised for the capture
// only, and a page's Error.prepareStackTrace (e.g. source-map support) is
// bypassed while the text is read so it keeps V8's own format.
// Error.captureStackTrace also cuts the frames above `entry` (webprof's
// public function) there; other engines rely on the own-frame name marker
// and the own-URL prefix the core filters on.

import { loadedFrom } from '../core/core.mjs';

/** Frames kept per capture (V8). Deeper stacks lose their outermost frames. */
const MAX_DEPTH = 256;

/** The URL of the script webprof runs from ('' when unknown). */
export function ownScriptUrl() {
  return loadedFrom || urlOfThisScript();
}

/**
 * The URL prefix of webprof's own scripts, or '' when webprof does not have
 * a script of its own — the one rule both core samplers (the W3C polyfill's
 * and RuntimeProfiler's) and the native trace import hide frames by:
 *  - from source: the js/ directory;
 *  - the ES module entries: they share their code in
 *    dist/webprof-chunk-<hash>.mjs (js/tools/build.mjs), so the prefix
 *    .../dist/webprof covers the chunk and the entries beside it, whether
 *    this code sits in the chunk or in webprof.mjs (the sampler does: only
 *    that entry uses it);
 *  - the drop-in or a lone file: dist/webprof.js, polyfill.mjs (and .min
 *    variants) themselves.
 * Bundled into a page's script, that script is the page's too, so no
 * prefix: webprof's own frames are then recognised by the `__webprof$`
 * function-name marker only (the core's rule, src/sampling/stack_sampler.h).
 */
export function ownUrlPrefix() {
  return ownPrefixOf(ownScriptUrl());
}

/** ownUrlPrefix()'s rule for a given script URL (exported for tests). */
export function ownPrefixOf(scriptUrl) {
  const url = scriptUrl.replace(/[?#].*$/, '');
  const fromSource = /^(.*\/js\/)(?:[\w-]+\/)*[\w-]+\.mjs$/.exec(url);
  if (fromSource) return fromSource[1];
  const chunk = /^(.*\/webprof)(?:-chunk-\w+)?\.mjs$/.exec(url);
  if (chunk) return chunk[1];
  return /\/(webprof|polyfill)(\.min)?\.m?js$/.test(url) ? url : '';
}

// Where no URL is given (the classic build in a worker), this function's
// own frame in Error.stack names the script.
function urlOfThisScript() {
  const m = /((?:https?|file|blob):[^\s()@]+?):\d+:\d+/.exec(String(new NativeError().stack || ''));
  return m ? m[1] : '';
}

// Capturing and formatting are two steps with two costs. Engines capture the
// frames eagerly but format Error.stack only when it is first read: V8 after
// Error.captureStackTrace (an accessor on the holder; the frames keep their
// functions and receivers alive until then), SpiderMonkey after new Error()
// (SavedFrames; its Error.captureStackTrace formats at once, ≈4x the cost).
// The sampler captures at the sample and reads the text later in a batch
// (js/profiler/sampler.mjs). Which Error state counts when (verified in Chromium 156):
// Error.stackTraceLimit at capture (how many frames are kept),
// Error.prepareStackTrace at the first read (a page's hook, e.g.
// source-map-support, would replace the text).
//
// What a capture needs is taken here, at load: a page may later replace
// `window.Error` or delete/override `Error.captureStackTrace`, and a sample
// must still work (it runs inside the page's callbacks). The engine reads
// stackTraceLimit and prepareStackTrace from its own Error, whatever the
// global name holds by then.
const NativeError = Error;
const nativeCapture =
  typeof NativeError.captureStackTrace === 'function' ? NativeError.captureStackTrace : null;
const lazyHolder = (() => {
  if (!nativeCapture) return false;
  const h = {};
  nativeCapture.call(NativeError, h);
  const d = Object.getOwnPropertyDescriptor(h, 'stack');
  return !!d && typeof d.get === 'function';
})();

/**
 * The current stack's frames, not yet formatted: read its text with
 * stackText() inside withOwnFormat(). V8 cuts `entry` and the frames it
 * called; other engines keep them (the core drops them by name marker/URL).
 * @param {Function} [entry] webprof's public function the caller is in
 */
export { __webprof$captureFrames as captureFrames };
// Named with the sampler's own-frame marker: the core drops this frame.
function __webprof$captureFrames(entry) {
  const E = NativeError;
  // Only touch what differs: writing the limit needlessly costs V8 time. A
  // page may have deleted it (V8 then captures nothing): it is set for the
  // capture and deleted again.
  const limit = E.stackTraceLimit;
  const raise = limit !== MAX_DEPTH;
  const had = raise && 'stackTraceLimit' in E;
  if (raise) E.stackTraceLimit = MAX_DEPTH;
  try {
    if (!lazyHolder) return new E();
    const holder = {};
    nativeCapture.call(E, holder, entry || __webprof$captureFrames);
    return holder;
  } finally {
    if (raise) {
      if (had) E.stackTraceLimit = limit;
      else delete E.stackTraceLimit;
    }
  }
}

/**
 * Runs fn(arg) with a page's Error.prepareStackTrace set aside (V8 consults
 * it when formatting). `arg` lets callers pass stackText and a capture
 * without making a closure per sample.
 */
export function withOwnFormat(fn, arg) {
  const E = NativeError;
  const prepare = E.prepareStackTrace;
  if (prepare !== undefined) E.prepareStackTrace = undefined;
  try {
    return fn(arg);
  } finally {
    if (prepare !== undefined) E.prepareStackTrace = prepare;
  }
}

/** The Error.stack text of a capture (formatted now if not yet): call inside withOwnFormat. */
export function stackText(captured) {
  return String(captured.stack || '');
}

/**
 * The current stack as Error.stack text, innermost first, without `entry`
 * and the frames it called when the engine can cut them (V8).
 * @param {Function} [entry] webprof's public function the caller is in
 */
export { __webprof$captureStack as captureStack };
function __webprof$captureStack(entry) {
  // Captured here, not inside the callback: engines that cannot cut at
  // `entry` would show withOwnFormat's frames, which carry no marker.
  const captured = __webprof$captureFrames(entry || __webprof$captureStack);
  return withOwnFormat(stackText, captured);
}

/**
 * webprof's classic build (dist/webprof.js) next to the loaded one, for
 * loading webprof into another realm (a worker, an iframe).
 * @param {string} what the caller, for the error message
 */
export function classicBuildUrl(what) {
  const own = ownUrlPrefix() && ownScriptUrl();
  if (/\.mjs$/.test(own)) return own.replace(/(-chunk-\w+)?\.mjs$/, '.js');
  if (/\.js$/.test(own)) return own;
  throw new Error(`webprof: ${what}: cannot locate dist/webprof.js from ${own || 'an unknown URL'}`);
}
