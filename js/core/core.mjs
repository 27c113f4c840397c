// The full API's core: every module of webprof that needs more than the
// probes imports its core from here, and importing this module is what
// asks for the page's build (js/core/wasm-page.mjs; the Node-side tools'
// build swaps it for wasm-node.mjs). `webprof/perf` alone never reaches this
// module, so its bundle carries neither the page's loader nor its .wasm and
// the probes' own core loads instead (js/core/instance.mjs says when).
import { requireCore } from './instance.mjs';
import { pageCore } from './wasm-page.mjs';

export {
  WebprofError,
  setWasmUrl,
  loadedFrom,
  isReady,
  core,
  coreUnchecked,
  coreWasmUrl,
  guard,
  poison,
  onPoison,
  trapped,
  trapError,
} from './instance.mjs';

/**
 * Resolves once the Wasm core is loaded (rejects with why it could not be).
 * Loading starts after the current task's imports have run, so setWasmUrl()
 * called by the importer still counts. A copy of webprof that found another
 * one on the page (js/core/page.mjs) never settles its own `ready` and loads
 * nothing: its public API is the other copy's.
 */
export const ready = requireCore(pageCore);
