// How the drop-in script (dist/webprof.js, one classic script) gets the
// tools module's JS: dist/webprof-tools.js, a classic script built from
// js/tools-js.mjs by js/tools/build.mjs. The modules both use (the loader,
// the core's boundary, trace objects: their state) are webprof.js's own: the
// build puts them in this copy's slot (classicSlot.shared) and offers the
// slot under Symbol.for('webprof.tools-js') when webprof.js has run and
// again right before loading; webprof-tools.js takes the shared modules from
// the offered slot (of its own version) and puts its exports there. It is
// found beside the page's core (or beside webprof.js), evaluated by import()
// in a document and by importScripts() in a worker; a service worker cannot
// load scripts later, so the dense service worker imports it up front
// (js/service-worker/sw.mjs), and the Playwright agent carries it inline
// after webprof.js (js/node/agent.mjs).
import { WebprofError, coreWasmUrl, loadedFrom } from './instance.mjs';

const FILE = 'webprof-tools.js';

/** This copy's slot: `shared` is set by the build, `exports` by webprof-tools.js. */
export const classicSlot = {
  version: typeof __WEBPROF_VERSION__ !== 'undefined' ? __WEBPROF_VERSION__ : '',
  shared: null,
  exports: null,
};

function scriptUrl() {
  const here = loadedFrom || (globalThis.location && globalThis.location.href);
  try {
    // The core's location may be relative (a worker's `webprofWasmUrl`).
    const beside = new URL(FILE, new URL(coreWasmUrl(), here));
    if (/^(https?|file):$/.test(beside.protocol)) return beside.href;
  } catch {
    /* not a hierarchical URL (a data: URL) */
  }
  return new URL(FILE, here).href;
}

function loaded(url) {
  if (classicSlot.exports) return classicSlot.exports;
  throw new WebprofError(
    `webprof: ${url} did not provide the tools module's JS (a different webprof version?)`,
  );
}

/** Resolves with the tools module's JS, loading webprof-tools.js if it is not in yet. */
export function loadClassicToolsJs() {
  if (classicSlot.exports) return Promise.resolve(classicSlot.exports);
  let url;
  try {
    globalThis[Symbol.for('webprof.tools-js')] = classicSlot;
    url = scriptUrl();
    if (typeof importScripts === 'function') {
      importScripts(url);
      return Promise.resolve(loaded(url));
    }
  } catch (e) {
    return Promise.reject(failed(url, e));
  }
  return import(/* webpackIgnore: true */ /* @vite-ignore */ url).then(
    () => loaded(url),
    (e) => {
      throw failed(url, e);
    },
  );
}

function failed(url, e) {
  if (e instanceof WebprofError) return e;
  return new WebprofError(
    `webprof: could not load the tools module's script ${url || FILE} (keep webprof-tools.js beside ` +
      `webprof.js and webprof-core.wasm): ${String((e && e.message) || e).slice(0, 200)}`,
  );
}
