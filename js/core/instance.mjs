// Loads the Wasm core once and holds the instance: core() hands it out after
// `ready` unless a trap poisoned it. The raw exports are called from
// js/core/boundary.mjs (with this loader, the only two modules that do).
// Data leaves Wasm memory only as copies: memory growth detaches every
// typed-array view, so views are re-read per call.
//
// Which build loads is decided once the module graph has run, before
// loading: the page's core (js/core/core.mjs asks for it as it evaluates:
// every module of the full API imports it) or else the probes' own small
// core (js/core/wasm-probes.mjs), all that `webprof/perf` alone needs. One
// instance serves both the probes and the full API. Only when the full API
// arrives after the probes' core started loading (a later module graph, e.g.
// `import('webprof')` on demand) does a second instance load for the full
// API; the probes stay on the first (one probes state), and exporters read
// their windows from JS (probesShareCore()).
import { pageHost } from './page.mjs';
import { isNode, readBytes, readBytesSync } from './wasm-bytes.mjs';
import {
  createProbesCore,
  WASM_FILE as PROBES_FILE,
  wasmBesideModule as probesBeside,
} from './wasm-probes.mjs';

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

// A build of the core: {file, beside() (its URL next to this module, by the
// literal pattern bundlers rewrite), create(options) (Emscripten's loader
// options: wasmBinary or locateFile, onAbort, printErr)}.
// The drop-in script always holds the full API, so it leaves this out (the
// build constant itself, so the minifier drops the probes' loader).
const probesBuild =
  typeof __WEBPROF_CLASSIC__ !== 'undefined' && __WEBPROF_CLASSIC__
    ? null
    : { file: PROBES_FILE, beside: probesBeside, create: createProbesCore };

let poisoned = null;
// The instance loaded in the microtask after the module graph ran, and a
// second one only for the full API asked for after that (see above).
let first = null;
let second = null;
let wanted = null; // the full build, when a complete entry asked in time
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
  const full = fullInstance();
  if (full && full.url !== null)
    throw new WebprofError('webprof: setWasmUrl() came after the Wasm core started loading');
  wasmUrlOverride = String(url);
}

function wasmUrl(build) {
  if (build.sibling && siblingUrl) return siblingUrl;
  const override = wasmUrlOverride || globalThis.webprofWasmUrl;
  if (override) {
    if (build !== probesBuild && !build.sibling) return String(override);
    // An explicit location names the page's core: the probes' own and the
    // tools module are looked for beside it (a data: URL has no "beside": then next to
    // this module).
    try {
      // A relative location (a worker's `webprofWasmUrl = '/dist/…'`) is
      // relative to the realm's location, as its fetch is.
      const base = globalThis.location
        ? new URL(String(override), globalThis.location.href)
        : String(override);
      const beside = new URL(build.file, base);
      if (/^(https?|file):$/.test(beside.protocol)) return beside.href;
    } catch {
      /* not a hierarchical URL */
    }
  }
  // Beside the module, by the literal `new URL('./…', import.meta.url)` that
  // Vite and webpack 5 (and bundlers with the same support) rewrite to the
  // asset they emit (js/core/wasm-page.mjs, wasm-probes.mjs). The
  // classic-script build has no import.meta.url: the .wasm is next to the
  // script, or to the page.
  if (!CLASSIC) return build.beside();
  return new URL(build.file, loadedFrom || (globalThis.location && globalThis.location.href)).href;
}

// One loaded (or loading) build. `url` is where it was loaded from, kept for
// the own-frame rule: the source it came from may go (the agent deletes its
// `webprofWasmUrl` once loaded).
class Instance {
  constructor(build) {
    this.build = build;
    this.module = null;
    this.url = null;
    this.failed = null;
    // Started in a microtask: setWasmUrl() at the top level of the module
    // that asked still counts.
    this.ready = Promise.resolve()
      .then(() => load(this))
      .then(
        () => undefined,
        (e) => {
          throw (this.failed = failure(e, this));
        },
      );
    // A load failure is reported through `ready`; keep it from also
    // surfacing as an unhandled rejection when nobody awaits it.
    this.ready.catch(() => {});
  }
}

// Where the tools module is, when whoever set the page core's location gave
// it too (`webprofToolsWasmUrl`: the Playwright agent's data: URL); read
// when the page's core loads, as the agent withdraws its globals after.
let siblingUrl = null;

async function load(inst) {
  const options = {};
  if (!siblingUrl && globalThis.webprofToolsWasmUrl) siblingUrl = String(globalThis.webprofToolsWasmUrl);
  const url = wasmUrl(inst.build);
  inst.url = url;
  const bytes = await readBytes(url);
  if (bytes) options.wasmBinary = bytes;
  else options.locateFile = () => url;
  // A module holding no state of the page's (the tools) fails alone: its
  // caller sees the trap (js/core/tools.mjs).
  options.onAbort = inst.build.sibling
    ? () => {}
    : (what) => {
        poison(`aborted (${plain(what)})`);
      };
  // Emscripten prints its own diagnostics (with the wasm URL) to the console;
  // what webprof reports goes through `ready` instead.
  options.printErr = () => {};
  const m = await inst.build.create(options);
  // Take references to the plain exports only after one call each: before
  // that they are slow lazy wrappers (TOOLCHAIN.md).
  m._wp_scratch(16);
  inst.module = m;
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

function failure(e, inst) {
  let hint = '';
  const where = inst.url || inst.build.file;
  if (where.startsWith('file:') && !isNode()) {
    hint =
      ' (pages opened from file:// cannot fetch it: serve the page over http, e.g. `python3 -m http.server`)';
  } else if (/Content.Security.Policy|unsafe-eval/i.test(String(e && e.message ? e.message : e))) {
    hint = " (the page's Content-Security-Policy must allow 'wasm-unsafe-eval' in script-src)";
  }
  return new WebprofError(`webprof: could not load the Wasm core from ${plain(where)}: ${plain(e)}${hint}`);
}

const never = new Promise(() => {});

/**
 * Resolves once the probes' core is loaded (rejects with why it could not
 * be): the first instance, loaded after the current task's imports have run,
 * so setWasmUrl() called by the importer still counts and a complete entry
 * evaluated meanwhile makes it the page's full core (requireCore). A copy of
 * webprof that found another one on the page (js/core/page.mjs) never
 * settles its own `ready` and loads nothing: its public API is the other
 * copy's.
 */
export const ready = pageHost()
  ? never
  : Promise.resolve().then(() => {
      first = new Instance(wanted || probesBuild);
      return first.ready;
    });
ready.catch(() => {});

/**
 * The full API needs `build` (js/core/core.mjs, as it evaluates): the first
 * instance loads it if loading has not started, else a second instance does.
 * Returns the promise the full API's `ready` is.
 */
export function requireCore(build) {
  if (pageHost()) return never;
  if (first === null) {
    wanted = build;
    return ready;
  }
  if (first.build === build) return ready;
  if (second === null) second = new Instance(build);
  return second.ready;
}

// The instance serving the full API (null before the decision, or when
// only the probes' core was asked for).
function fullInstance() {
  return second || (first !== null && first.build !== probesBuild ? first : null);
}

const siblings = new Map();
/**
 * A module beside the page's core that holds none of its state (the tools
 * module, js/core/tools.mjs): loaded once, on the first ask, after the page's
 * core; resolves with it (rejects with why it could not load). Its traps
 * poison nothing here.
 */
export function loadSibling(build) {
  let inst = siblings.get(build);
  if (!inst) {
    inst = { ready: null };
    inst.ready = ready.then(() => {
      const i = new Instance(build);
      return i.ready.then(() => i.module);
    });
    // A load that failed (a fetch the network dropped) is tried again on the
    // next ask rather than failing for the page's lifetime.
    inst.ready.catch(() => {
      if (siblings.get(build) === inst) siblings.delete(build);
    });
    siblings.set(build, inst);
  }
  return inst.ready;
}

/**
 * loadSibling() for a caller that cannot wait (js/core/tools.mjs toolsSync):
 * the module read (js/core/wasm-bytes.mjs readBytesSync) and compiled now,
 * blocking, after the page's core. Throws why it could not (no
 * XMLHttpRequest, an HTTP error, a refused compile). Not cached here.
 */
export function loadSiblingSync(build) {
  const full = fullInstance();
  if (full === null || full.module === null || !build.createSync)
    throw new WebprofError('webprof: the Wasm core is not loaded yet; await webprof.ready');
  const m = build.createSync(readBytesSync(wasmUrl(build)), { onAbort: () => {} });
  m._wp_scratch(16); // see load(): references after one call
  return m;
}

/** Whether the probes record into the instance the full API uses (exporters may read the recorder). */
export function probesShareCore() {
  return second === null;
}

/**
 * Where a build loads, or would load, from (its frames are webprof's own:
 * Chromium's native trace samples the core's and the tools module's Wasm);
 * its file name when the location cannot be said.
 */
export function wasmUrlOf(build) {
  try {
    return wasmUrl(build);
  } catch {
    return build.file;
  }
}

/** Where the Wasm core is (or will be) loaded from; its frames are webprof's own. */
export function coreWasmUrl() {
  const full = fullInstance() || first;
  if (full && full.url) return full.url;
  return wasmUrlOf(wanted || probesBuild);
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
    for (const m of loaded()) {
      try {
        m._wp_poison();
      } catch {
        /* the core is gone: JS keeps the verdict */
      }
    }
    for (const fn of poisonListeners) fn(poisoned);
  }
  return poisoned;
}

/** Calls fn(error) once the instance is poisoned (at once if it is). */
export function onPoison(fn) {
  poisonListeners.push(fn);
  if (poisoned !== null && loaded().length > 0) fn(poisoned);
}

/** A caught error as callers see it: a Wasm trap poisons the instance and becomes its WebprofError. */
export function trapped(e) {
  return e instanceof WebAssembly.RuntimeError ? poison(`trapped (${plain(e)})`) : e;
}

// The loaded modules (one, or two when the full API came late).
function loaded() {
  const out = [];
  if (first !== null && first.module !== null) out.push(first.module);
  if (second !== null && second.module !== null) out.push(second.module);
  return out;
}

// Asks the cores whether a call trapped since (a trap JS did not see). A
// trap in either instance poisons both: webprof is unusable on the page.
function healthy() {
  if (poisoned === null && loaded().some((m) => m._wp_health() !== 1)) poison('trapped');
  return poisoned === null;
}

/** The error a trap left, once a loaded core is poisoned; else null. */
export function trapError() {
  return loaded().length > 0 && !healthy() ? poisoned : null;
}

function moduleOf(inst) {
  if (inst !== null && inst.failed !== null) throw inst.failed;
  if (inst === null || inst.module === null)
    throw new WebprofError('webprof: the Wasm core is not loaded yet; await webprof.ready');
  return inst.module;
}

/** True once the full API's core can be called synchronously (false for good after a trap). */
export function isReady() {
  const full = fullInstance();
  return full !== null && full.module !== null && healthy();
}

/** True once the probes' core can be called synchronously (false for good after a trap). */
export function probesReady() {
  return first !== null && first.module !== null && healthy();
}

/** The full API's Emscripten module; throws if not loaded yet or poisoned by a trap. */
export function core() {
  if (!healthy()) throw poisoned;
  return moduleOf(fullInstance());
}

/** The probes' core (the page's full one, or the probes' own); throws like core(). */
export function probesCore() {
  if (!healthy()) throw poisoned;
  return moduleOf(first);
}

/** Every loaded module (the boundary's declarations are the same in each; test hooks). */
export function loadedModules() {
  return loaded();
}

/**
 * core() without asking the core first, for the per-sample calls: their
 * exports open an entry on the core's health and refuse (Status Trapped)
 * when it is poisoned, so asking first would only add a call.
 */
export function coreUnchecked() {
  if (poisoned !== null) throw poisoned;
  return moduleOf(fullInstance());
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
