// Capturing the current JS stack outside a sample, plus what the core needs
// to drop webprof's own frames from it.
//
// A polyfill cannot interrupt running JS: a stack is captured where webprof's
// code runs, as the text of Error.stack, and the core parses it
// (src/stack_parser.h). RuntimeProfiler's frame() captures through
// captureStack(); samples are
// captured by the polyfill sampler (js/sampler.mjs) in the same way, and
// both texts go to the same core parser and frame filter.
//
// V8's stack has 10 frames by default: the limit is raised for the capture
// only, and a page's Error.prepareStackTrace (e.g. source-map support) is
// bypassed so the text keeps V8's own format. Error.captureStackTrace also
// cuts the frames above `entry` (webprof's public function) there; other
// engines rely on the own-URL prefix the core filters on.

import { loadedFrom } from './core.mjs';

/** Frames kept per capture (V8). Deeper stacks lose their outermost frames. */
export const MAX_DEPTH = 256;

/** The URL of the script webprof runs from ('' when unknown). */
export function ownScriptUrl() {
  return loadedFrom || urlOfThisScript();
}

/**
 * The URL prefix of webprof's own scripts, or '' when webprof does not have
 * a script of its own: the js/ directory when running from source, the
 * dist/ file (webprof.js / webprof.mjs) when loaded as such. Bundled into a
 * page's script, that script is the page's too, so no prefix: webprof's own
 * frames are then recognised by the function-name marker only.
 */
export function ownUrlPrefix() {
  const url = ownScriptUrl();
  if (/\/js\/[^/]+\.mjs$/.test(url)) return url.slice(0, url.lastIndexOf('/') + 1);
  return /\/webprof\.m?js$/.test(url) ? url : '';
}

// Where no URL is given (the classic build in a worker), this function's
// own frame in Error.stack names the script.
function urlOfThisScript() {
  const m = /((?:https?|file|blob):[^\s()@]+?):\d+:\d+/.exec(String(new Error().stack || ''));
  return m ? m[1] : '';
}

/**
 * The current stack as Error.stack text, innermost first, without `entry`
 * and the frames it called when the engine can cut them (V8).
 * @param {Function} [entry] webprof's public function the caller is in
 */
export { __webprof$captureStack as captureStack };
// Named with the sampler's own-frame marker: the core drops this frame.
function __webprof$captureStack(entry) {
  const E = Error;
  if (typeof E.captureStackTrace === 'function') {
    // Only touch what differs: writing Error.prepareStackTrace or the limit
    // needlessly costs V8 time on every capture.
    const limit = E.stackTraceLimit;
    const prepare = E.prepareStackTrace;
    if (limit !== MAX_DEPTH) E.stackTraceLimit = MAX_DEPTH;
    if (prepare !== undefined) E.prepareStackTrace = undefined;
    const holder = {};
    try {
      E.captureStackTrace(holder, entry || __webprof$captureStack);
      return String(holder.stack);
    } finally {
      if (limit !== MAX_DEPTH) E.stackTraceLimit = limit;
      if (prepare !== undefined) E.prepareStackTrace = prepare;
    }
  }
  return String(new E().stack || '');
}

/**
 * webprof's classic build (dist/webprof.js) next to the loaded one, for
 * loading webprof into another realm (a worker, an iframe).
 * @param {string} what the caller, for the error message
 */
export function classicBuildUrl(what) {
  const own = ownUrlPrefix() && ownScriptUrl();
  if (/\.mjs$/.test(own)) return own.replace(/\.mjs$/, '.js');
  if (/\.js$/.test(own)) return own;
  throw new Error(`webprof: ${what}: cannot locate dist/webprof.js from ${own || 'an unknown URL'}`);
}
