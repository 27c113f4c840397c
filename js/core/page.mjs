// One webprof per page: the handoff between copies of the library.
//
// A page can hold several copies of webprof's code: the drop-in script
// (dist/webprof.js, its own bundle), the ES module entries (webprof,
// webprof/perf, webprof/polyfill: one shared chunk, so one copy between
// them), an application bundle that inlined them. Each copy has its own
// module state (probe windows, reporters, samplers, wrapped timers) and would
// load its own Wasm core, so probes recorded through one would be invisible
// to a reporter set through another.
//
// So the first complete copy to evaluate publishes its public API under one
// registry key on globalThis, and every later copy of the same version
// forwards its exports to that API and never starts its own core (`ready` in
// js/core/core.mjs). A symbol key from Symbol.for is the same in every copy
// and invisible to `for...in` and JSON. Copies of different versions do not
// share (their cores may disagree): each keeps its own.

const KEY = Symbol.for('webprof.page');
// Bumped with the package version at build time; unbundled, 'source'.
const VERSION = typeof __WEBPROF_VERSION__ === 'string' ? __WEBPROF_VERSION__ : 'source';
// The Node-side tools (Playwright fixture, CLI, build-time transforms) are
// built with this false: each keeps its own core, as none of them forwards
// its API to another copy in the same Node process.
const SHARE = typeof __WEBPROF_SHARE_PAGE__ === 'undefined' || __WEBPROF_SHARE_PAGE__;

/** The API another copy of this version published on this page, else null. */
export function pageHost() {
  if (!SHARE) return null;
  const g = typeof globalThis === 'object' ? globalThis : null;
  const host = g && g[KEY];
  return host && host.version === VERSION && host.api ? host.api : null;
}

/**
 * Returns the page's API: the one already published, or `api` after
 * publishing it. Called once by each complete entry (js/index.mjs).
 */
export function claimPage(api) {
  const host = pageHost();
  if (host) return host;
  if (SHARE && typeof globalThis === 'object' && !globalThis[KEY]) {
    Object.defineProperty(globalThis, KEY, {
      value: Object.freeze({ version: VERSION, api }),
      configurable: true, // the hidden Playwright agent withdraws it (js/node/playwright.mjs)
    });
  }
  return api;
}
