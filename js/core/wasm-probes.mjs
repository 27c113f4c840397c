// The explicit probes' own build of the core (webprof-probes.wasm: the probes,
// the console reporter's text and the boundary, plain `extern "C"` exports, no
// embind; wasm/CMakeLists.txt) and its loader. The module is linked
// standalone: its imports are WASI's proc_exit (what abort() calls) and a
// note that memory grew (the views below notice by themselves), it grows its
// memory itself and its exports keep their C names, so these few
// lines replace Emscripten's generated loader. What it returns looks like the
// part of an Emscripten module js/core/boundary.mjs uses: `_wp_*` exports and
// HEAP views (re-made after memory growth detached the old ones).

export const WASM_FILE = 'webprof-probes.wasm';
// Written literally: `new URL('./…', import.meta.url)` is the pattern Vite
// and webpack 5 rewrite to the asset they emit (js/core/core.mjs wasmUrl).
export const wasmBesideModule = () => new URL('./webprof-probes.wasm', import.meta.url).href;

/**
 * Instantiates the probes' core from `wasmBinary` (bytes) or the URL
 * `locateFile()` returns. `onAbort(what)` is told before the call that
 * aborted throws (a trap, as in Emscripten's loader).
 * @param {{wasmBinary?: BufferSource, locateFile?: () => string, onAbort?: (what: string) => void}} options
 */
export async function createProbesCore(options) {
  const onAbort = options.onAbort || (() => {});
  const imports = {
    env: { emscripten_notify_memory_growth() {} },
    wasi_snapshot_preview1: {
      proc_exit(code) {
        onAbort(`abort (exit ${code})`);
        throw new WebAssembly.RuntimeError(`abort (exit ${code})`);
      },
    },
  };
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
  const exports = result.instance.exports;
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
        HEAPF64: new Float64Array(buffer),
      };
    }
    return views[key];
  };
  for (const key of ['HEAPU8', 'HEAP32', 'HEAPF64']) Object.defineProperty(m, key, { get: () => view(key) });
  return m;
}
