// A bare core's loader: the page's core (webprof-core.wasm) and the probes'
// own (webprof-probes.wasm) are linked standalone (wasm/CMakeLists.txt): their
// imports are WASI's proc_exit (what abort() calls) and a note that memory
// grew (the views below notice by themselves), they grow their memory
// themselves and their exports keep their C names, so these few lines replace
// Emscripten's generated loader. What it returns looks like the part of an
// Emscripten module js/core/ uses: `_wp_*` exports (and `_malloc`/`_free`
// where linked) and HEAP views (re-made after memory growth detached the old
// ones).

function importsFor(onAbort) {
  return {
    env: { emscripten_notify_memory_growth() {} },
    wasi_snapshot_preview1: {
      proc_exit(code) {
        onAbort(`abort (exit ${code})`);
        throw new WebAssembly.RuntimeError(`abort (exit ${code})`);
      },
    },
  };
}

/**
 * Instantiates a bare core from `wasmBinary` (bytes) or the URL
 * `locateFile()` returns. `onAbort(what)` is told before the call that
 * aborted throws (a trap, as in Emscripten's loader).
 * @param {{wasmBinary?: BufferSource, locateFile?: () => string, onAbort?: (what: string) => void}} options
 */
export async function createBareCore(options) {
  const imports = importsFor(options.onAbort || (() => {}));
  let result;
  if (options.wasmBinary) {
    result = await WebAssembly.instantiate(options.wasmBinary, imports);
  } else {
    const response = fetch(options.locateFile());
    // Streaming needs the application/wasm type; a server that sends
    // another one still gets the bytes compiled.
    result = await WebAssembly.instantiateStreaming(response, imports).catch(async (e) => {
      const r = await response;
      if (!r.ok) throw new Error(`HTTP ${r.status} ${r.statusText}`.trim());
      if (r.headers.get('content-type') === 'application/wasm') throw e;
      return WebAssembly.instantiate(await r.arrayBuffer(), imports);
    });
  }
  return wrap(result.instance);
}

/**
 * createBareCore() from bytes, compiled and instantiated synchronously: for
 * a caller that cannot wait (js/core/tools.mjs toolsSync). Browsers compile
 * a module of this size synchronously, on the main thread too (Chromium 156:
 * a 341 KB module in 16 ms).
 */
export function createBareCoreSync(bytes, options) {
  const imports = importsFor(options.onAbort || (() => {}));
  return wrap(new WebAssembly.Instance(new WebAssembly.Module(bytes), imports));
}

function wrap(instance) {
  const exports = instance.exports;
  exports._initialize(); // static constructors (a reactor module: --no-entry)
  const memory = exports.memory;
  const m = {};
  for (const [name, value] of Object.entries(exports)) {
    if (typeof value === 'function') m[`_${name}`] = value;
  }
  let buffer = null;
  let views = null;
  const view = (key) => {
    if (memory.buffer !== buffer) {
      buffer = memory.buffer;
      views = {
        HEAPU8: new Uint8Array(buffer),
        HEAP32: new Int32Array(buffer),
        HEAPU32: new Uint32Array(buffer),
        HEAPF64: new Float64Array(buffer),
      };
    }
    return views[key];
  };
  for (const key of ['HEAPU8', 'HEAP32', 'HEAPU32', 'HEAPF64'])
    Object.defineProperty(m, key, { get: () => view(key) });
  return m;
}
