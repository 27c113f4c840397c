// Loads the Wasm core once and holds the instance: core() hands it out after
// `ready` unless a trap poisoned it. The raw exports are called from
// js/core/boundary.mjs (with this loader, the only two modules that do).
// Data leaves Wasm memory only as copies: memory growth detaches every
// typed-array view, so views are re-read per call.
import createWebprofCore from '../../build/wasm/wasm/webprof-core.mjs';

const WASM_FILE = 'webprof-core.wasm';

// Where webprof's own code was loaded from: the module URL, or the src of
// the classic <script> (captured while it evaluates; later it is gone), or
// '' (e.g. the classic build in a worker). import.meta.url is replaced by
// `undefined` in the classic-script build.
export const loadedFrom =
  import.meta.url ||
  (typeof document !== 'undefined' && document.currentScript && document.currentScript.src) ||
  '';

export class WebprofError extends Error {
  constructor(message, code) {
    super(message);
    this.name = 'WebprofError';
    if (code !== undefined) this.code = code;
  }
}

let module = null;
let poisoned = null;

function wasmUrl() {
  const override = globalThis.webprofWasmUrl;
  if (override) return String(override);
  const base = loadedFrom || (globalThis.location && globalThis.location.href);
  return new URL(WASM_FILE, base).href;
}

async function load() {
  const options = {};
  const isNode = typeof process === 'object' && process.versions && typeof process.versions.node === 'string';
  if (isNode && !globalThis.webprofWasmUrl) {
    const fsName = 'node:fs/promises';
    const fs = await import(/* webpackIgnore: true */ /* @vite-ignore */ fsName);
    options.wasmBinary = await fs.readFile(new URL(wasmUrl()));
  } else {
    options.locateFile = (path) => (path === WASM_FILE ? wasmUrl() : path);
  }
  options.onAbort = (what) => {
    poisoned = new WebprofError(`webprof: the Wasm core aborted (${what}); this instance is unusable`);
  };
  module = await createWebprofCore(options);
  // Take references to the plain exports only after one call each: before
  // that they are slow lazy wrappers (TOOLCHAIN.md).
  module._wp_scratch(16);
  return module;
}

/** Resolves once the Wasm core is loaded (rejects with why it could not be). */
export const ready = load().then(
  () => undefined,
  (e) => {
    const err = new WebprofError(
      `webprof: could not load the Wasm core from ${safeUrl()}: ${e && e.message ? e.message : e}`,
    );
    poisoned = err;
    throw err;
  },
);
// A load failure is reported through `ready`; keep it from also surfacing as
// an unhandled rejection when nobody awaits it.
ready.catch(() => {});

function safeUrl() {
  try {
    return wasmUrl();
  } catch {
    return WASM_FILE;
  }
}

/** True once the core can be called synchronously. */
export function isReady() {
  return module !== null && poisoned === null;
}

/** The Emscripten module; throws if not loaded yet or poisoned by a trap. */
export function core() {
  if (poisoned) throw poisoned;
  if (!module) throw new WebprofError('webprof: the Wasm core is not loaded yet; await webprof.ready');
  return module;
}

/** Runs fn(core()); a Wasm trap poisons the instance and is reported, never reused. */
export function guard(fn) {
  const m = core();
  try {
    return fn(m);
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) {
      poisoned = new WebprofError(`webprof: the Wasm core trapped (${e.message}); this instance is unusable`);
      throw poisoned;
    }
    throw e;
  }
}
