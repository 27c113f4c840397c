// Which build of the core the full API loads: the page's (webprof-core.wasm,
// every binding a page can use: a bare module with plain exports, loaded by
// js/core/wasm-bare.mjs, its object API from js/core/bindings.mjs).
// js/tools/build.mjs swaps this module for ./wasm-node.mjs in the Node-side
// tools (webprof/playwright, the CLI, the transforms), whose core adds what
// only Node runs (wasm/CMakeLists.txt says which bindings each build has).
// The probes alone load their own core (js/core/wasm-probes.mjs).
import { createBareCore, createBareCoreSync } from './wasm-bare.mjs';
import { installBindings } from './bindings.mjs';
import { loadClassicToolsJs } from './tools-js-classic.mjs';

export const pageCore = {
  file: 'webprof-core.wasm',
  // Written literally: `new URL('./…', import.meta.url)` is the pattern Vite
  // and webpack 5 rewrite to the asset they emit (js/core/instance.mjs wasmUrl).
  beside: () => new URL('./webprof-core.wasm', import.meta.url).href,
  create: (options) => createBareCore(options).then(installBindings),
};

// The tools module (js/core/tools.mjs): fetched beside the page's core on
// first use.
export const toolsCore = {
  file: 'webprof-tools.wasm',
  sibling: true,
  beside: () => new URL('./webprof-tools.wasm', import.meta.url).href,
  create: (options) => createBareCore(options).then(installBindings),
  // A blocking load for a caller that cannot wait (js/core/tools.mjs toolsSync).
  createSync: (bytes, options) => installBindings(createBareCoreSync(bytes, options)),
};

// The tools module's JS (js/core/tools.mjs toolsJs): a chunk of the ES
// module build beside this one (bundlers follow the dynamic import), or for
// the drop-in script its sibling classic script (js/core/tools-js-classic.mjs).
export const loadToolsJs =
  typeof __WEBPROF_CLASSIC__ !== 'undefined' && __WEBPROF_CLASSIC__
    ? loadClassicToolsJs
    : () => import('../tools-js.mjs');
export const toolsJsLinked = null;
