// Loads the Wasm core once and holds the instance: core() hands it out after
// `ready` unless a trap poisoned it. The raw exports are called from
// js/core/boundary.mjs (with this loader, the only two modules that do).
// Data leaves Wasm memory only as copies: memory growth detaches every
// typed-array view, so views are re-read per call.
import { pageHost } from './page.mjs';
import { createWebprofCore, WASM_FILE, wasmBesideModule } from './wasm-page.mjs';

// The classic-script build (dist/webprof.js) defines this true: it has no
// import.meta. js/tools/build.mjs defines it false everywhere else.
const CLASSIC = typeof __WEBPROF_CLASSIC__ !== 'undefined' && __WEBPROF_CLASSIC__;

// Where webprof's own code was loaded from: the src of the classic <script>
// (captured while it evaluates; later it is gone), or '' (a module, or the
// classic build in a worker: js/profiler/stack_capture.mjs then reads the URL
// off a stack). Never a bare `import.meta.url`: webpack replaces that by the
// build machine's file:// path, which would end up in the app's bundle.
const currentScript = typeof document !== 'undefined' ? document.currentScript : null;
export const loadedFrom = (currentScript && currentScript.src) || '';

export class WebprofError extends Error {
  constructor(message, code) {
    super(message);
    this.name = 'WebprofError';
    if (code !== undefined) this.code = code;
  }
}

let module = null;
let poisoned = null;
let loading = false;
// An explicit location: setWasmUrl(), the drop-in's `data-wasm-url`
// attribute, or a global `webprofWasmUrl` set before webprof loads (workers).
let wasmUrlOverride =
  (currentScript && currentScript.getAttribute && currentScript.getAttribute('data-wasm-url')) || null;

/**
 * Where to fetch webprof-core.wasm from (a CDN, a renamed asset). Call it at
 * the top level of a module that statically imports webprof: the core starts
 * loading in the microtask after the module graph has run.
 */
export function setWasmUrl(url) {
  if (loading) throw new WebprofError('webprof: setWasmUrl() came after the Wasm core started loading');
  wasmUrlOverride = String(url);
}

function wasmUrl() {
  const override = wasmUrlOverride || globalThis.webprofWasmUrl;
  if (override) return String(override);
  // Beside the module, by the literal `new URL('./…', import.meta.url)` that
  // Vite and webpack 5 (and bundlers with the same support) rewrite to the
  // asset they emit (js/core/wasm-page.mjs). The classic-script build has no
  // import.meta.url: the .wasm is next to the script, or to the page.
  if (!CLASSIC) return wasmBesideModule();
  return new URL(WASM_FILE, loadedFrom || (globalThis.location && globalThis.location.href)).href;
}

// The URL the core was loaded from, kept for the own-frame rule: the source
// it came from may go (the agent deletes its `webprofWasmUrl` once loaded).
let loadedUrl = null;

async function load() {
  loading = true;
  const options = {};
  const url = wasmUrl();
  loadedUrl = url;
  const isNode = typeof process === 'object' && process.versions && typeof process.versions.node === 'string';
  if (isNode && url.startsWith('file:')) {
    const fsName = 'node:fs/promises';
    const fs = await import(/* webpackIgnore: true */ /* @vite-ignore */ fsName);
    options.wasmBinary = await fs.readFile(new URL(url));
  } else {
    options.locateFile = () => url;
  }
  options.onAbort = (what) => {
    poison(`aborted (${plain(what)})`);
  };
  // Emscripten prints its own diagnostics (with the wasm URL) to the console;
  // what webprof reports goes through `ready` instead.
  options.printErr = () => {};
  module = await createWebprofCore(options);
  // Take references to the plain exports only after one call each: before
  // that they are slow lazy wrappers (TOOLCHAIN.md).
  module._wp_scratch(16);
  return module;
}

// Error text for users: no Emscripten build advice, no megabyte-long
// data: URLs (the Playwright agent's .wasm travels as one), capped length.
const MAX_MESSAGE = 300;
function plain(what) {
  let text = String(what && what.message ? what.message : what);
  text = text.replace(/\s*Build with -s ASSERTIONS=1 for more info\.?/g, '');
  text = text.replace(/^Aborted\((.*)\)\.?$/s, '$1');
  text = text.replace(/data:[^\s'")]{64,}/g, (d) => `${d.slice(0, d.indexOf(',') + 1)}… (${d.length} chars)`);
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
}

function failure(e) {
  let hint = '';
  const where = safeUrl();
  if (
    where.startsWith('file:') &&
    !(typeof process === 'object' && process.versions && process.versions.node)
  ) {
    hint =
      ' (pages opened from file:// cannot fetch it: serve the page over http, e.g. `python3 -m http.server`)';
  } else if (/Content.Security.Policy|unsafe-eval/i.test(String(e && e.message ? e.message : e))) {
    hint = " (the page's Content-Security-Policy must allow 'wasm-unsafe-eval' in script-src)";
  }
  return new WebprofError(`webprof: could not load the Wasm core from ${plain(where)}: ${plain(e)}${hint}`);
}

/**
 * Resolves once the Wasm core is loaded (rejects with why it could not be).
 * Loading starts after the current task's imports have run, so setWasmUrl()
 * called by the importer still counts. A copy of webprof that found another
 * one on the page (js/core/page.mjs) never settles its own `ready` and loads
 * nothing: its public API is the other copy's.
 */
export const ready = pageHost()
  ? new Promise(() => {})
  : Promise.resolve()
      .then(load)
      .then(
        () => undefined,
        (e) => {
          const err = failure(e);
          poisoned = err;
          throw err;
        },
      );
// A load failure is reported through `ready`; keep it from also surfacing as
// an unhandled rejection when nobody awaits it.
ready.catch(() => {});

/** Where the Wasm core is (or will be) loaded from; its frames are webprof's own. */
export function coreWasmUrl() {
  return loadedUrl || safeUrl();
}

function safeUrl() {
  try {
    return wasmUrl();
  } catch {
    return WASM_FILE;
  }
}

// ---- poisoning (the rule itself is the core's: src/boundary/health.h) ----
const poisonListeners = [];

/**
 * Marks the instance unusable for good — a trap or abort seen here, or the
 * core's own verdict — and tells the core and every listener. Returns the
 * WebprofError every later call throws.
 */
export function poison(what) {
  if (poisoned === null) {
    poisoned = new WebprofError(`webprof: the Wasm core ${what}; this instance is unusable`, 'Trapped');
    try {
      if (module) module._wp_poison();
    } catch {
      /* the core is gone: JS keeps the verdict */
    }
    for (const fn of poisonListeners) fn(poisoned);
  }
  return poisoned;
}

/** Calls fn(error) once the instance is poisoned (at once if it is). */
export function onPoison(fn) {
  poisonListeners.push(fn);
  if (poisoned !== null && module !== null) fn(poisoned);
}

/** A caught error as callers see it: a Wasm trap poisons the instance and becomes its WebprofError. */
export function trapped(e) {
  return e instanceof WebAssembly.RuntimeError ? poison(`trapped (${plain(e)})`) : e;
}

// Asks the core whether a call trapped since (a trap JS did not see).
function healthy() {
  if (poisoned === null && module !== null && module._wp_health() !== 1) poison('trapped');
  return poisoned === null;
}

/** The error a trap left, once the loaded core is poisoned; else null. */
export function trapError() {
  return module !== null && !healthy() ? poisoned : null;
}

/** True once the core can be called synchronously (false for good after a trap). */
export function isReady() {
  return module !== null && healthy();
}

/** The Emscripten module; throws if not loaded yet or poisoned by a trap. */
export function core() {
  if (!healthy()) throw poisoned;
  if (!module) throw new WebprofError('webprof: the Wasm core is not loaded yet; await webprof.ready');
  return module;
}

/**
 * core() without asking the core first, for the per-sample calls: their
 * exports open an entry on the core's health and refuse (Status Trapped)
 * when it is poisoned, so asking first would only add a call.
 */
export function coreUnchecked() {
  if (poisoned !== null) throw poisoned;
  if (!module) throw new WebprofError('webprof: the Wasm core is not loaded yet; await webprof.ready');
  return module;
}

/** Runs fn(core()); a Wasm trap poisons the instance and is reported, never reused. */
export function guard(fn) {
  const m = core();
  try {
    return fn(m);
  } catch (e) {
    throw trapped(e);
  }
}
