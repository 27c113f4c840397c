// Which Emscripten build of the core this copy of webprof loads: the page's
// (webprof-core.wasm, every binding a page can use). js/tools/build.mjs swaps
// this module for ./wasm-node.mjs in the Node-side tools (webprof/playwright,
// the CLI, the transforms), whose core adds what only Node runs
// (wasm/CMakeLists.txt says which bindings each build has).
import createWebprofCore from '../../build/wasm/wasm/webprof-core.mjs';

export { createWebprofCore };
export const WASM_FILE = 'webprof-core.wasm';
// Written literally: `new URL('./…', import.meta.url)` is the pattern Vite
// and webpack 5 rewrite to the asset they emit (js/core/core.mjs wasmUrl).
export const wasmBesideModule = () => new URL('./webprof-core.wasm', import.meta.url).href;
