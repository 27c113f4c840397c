// The explicit probes' own build of the core (webprof-probes.wasm: the probes,
// the console reporter's text and the boundary, plain `extern "C"` exports;
// wasm/CMakeLists.txt), loaded by the bare cores' loader (js/core/wasm-bare.mjs).
export { createBareCore as createProbesCore } from './wasm-bare.mjs';

export const WASM_FILE = 'webprof-probes.wasm';
// Written literally: `new URL('./…', import.meta.url)` is the pattern Vite
// and webpack 5 rewrite to the asset they emit (js/core/core.mjs wasmUrl).
export const wasmBesideModule = () => new URL('./webprof-probes.wasm', import.meta.url).href;
