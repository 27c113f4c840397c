// webprof/playwright: profile any page from Playwright, no change to the page.
//
// The page gets webprof through an init script that runs before any page
// script, in every frame, and hides itself behind one non-enumerable global
// (`__webprof__`); the Wasm core travels inside the init script as a data:
// URL, so nothing is fetched from the page's origin. Traces come back to
// Node as plain W3C dictionaries and are exported here, in Node, by the same
// core — the page does no export work while it is being measured.
//
// Samplers: Chromium's native Profiler runs only when the document is served
// with `Document-Policy: js-profiling`. With `native: true` we add that header
// to every document response through request interception, so any page gets
// the native sampler in Chromium; otherwise the polyfill runs. The result
// says which one ran. The polyfill samples at probe sites; on a page nobody
// built for it those are only task boundaries, so with `dense: true` (the
// default of the fixture and of `webprof record` when the polyfill runs)
// every script the page loads is passed through the sampling transform on
// its way in (js/transform/), which adds a probe site to every function
// entry and loop body without moving a line.
//
// The modules: page-profile.mjs (install, start/stop in a page, profile()),
// result.mjs (exported files, summary, save), fixture.mjs (withWebprof),
// documents.mjs (profiles across navigations), agent.mjs and rewrite.mjs
// (what runs in the page and the route).
export {
  install,
  transformScripts,
  grantNativeProfiler,
  startProfile,
  stopProfile,
  watchPageErrors,
  profile,
} from './page-profile.mjs';
export { makeResult } from './result.mjs';
export { withWebprof } from './fixture.mjs';
// The export registry, so tools can add a format the fixture and
// `webprof record` then write too (same module instance as makeResult's).
export { exportFormats, exportTrace, registerExportFormat } from '../export/export.mjs';
export { ready } from '../core/core.mjs';
export { record } from './cli.mjs';
// Firefox's own (Gecko) sampler: a profiled Firefox and the importer of its profile.
export { launchProfiledFirefox } from './firefox.mjs';
export { importGeckoProfile } from '../import/gecko.mjs';
// For a browser launched by the user: the switch that lets the polyfill's ticker run.
export { withSharedMemory, SHARED_MEMORY_ARG } from './chromium.mjs';
