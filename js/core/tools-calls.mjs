// The load-time names of what runs in the tools module's JS
// (js/tools-js.mjs): each loads the tools module (its Wasm and JS, js/core/tools.mjs)
// on first use and calls through. All were asynchronous already, so a caller
// sees no difference.
import { toolsAndJs, toolsJs } from './tools.mjs';

const withJs = (fn) => toolsAndJs().then(fn);

/** Source maps applied to a trace (js/symbolicate/symbolicate.mjs). */
export function symbolicate(trace, maps, options) {
  return withJs((js) => js.symbolicate(trace, maps, options));
}

/** A source map opened for lookups (js/symbolicate/symbolicate.mjs). */
export function openSourceMap(map, mapUrl) {
  return withJs((js) => js.openSourceMap(map, mapUrl));
}

/** The sampling transform of a script (js/transform/index.mjs). */
export function transformForSampling(code, options) {
  return withJs((js) => js.transformForSampling(code, options));
}

/** The sampling transform of an HTML document (js/transform/html.mjs). */
export function transformHtmlForSampling(html, options) {
  return withJs((js) => js.transformHtmlForSampling(html, options));
}

/**
 * A page's source maps found and applied at a Profiler's stop()
 * (js/symbolicate/discover.mjs): only its JS is loaded here, the Wasm only
 * when a map is found; a tools module that cannot load leaves the trace as
 * it is.
 */
export function symbolicateInPage(trace, option) {
  if (option === false || typeof fetch !== 'function') return Promise.resolve(trace);
  return toolsJs().then(
    (js) => js.symbolicateInPage(trace, option),
    () => trace,
  );
}

/**
 * A sampled load's trace encoded within its budget and sent (js/field/send.mjs),
 * at page hide: collectProfiles() loaded the tools module when its sampled
 * load started.
 */
export function sendFieldTrace(trace, o, d, error, run) {
  return withJs((js) => js.sendFieldTrace(trace, o, d, error, run));
}
