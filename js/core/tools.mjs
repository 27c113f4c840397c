// The tools module: what a page uses only when it rewrites a script (the
// transform's probe sites and HTML <script> rows) or reads a source map —
// functions from text to rows that hold no state of the page's — kept out of
// the load-time core and fetched on first use (webprof-tools.wasm beside
// webprof-core.wasm: wasm/CMakeLists.txt, docs/ARCHITECTURE.md "What a page
// loads"). The Node-side tools' core links these bindings itself
// (js/core/wasm-node.mjs has no tools build), so there it is the full core.
// A trap in the tools module leaves the page's core healthy: that module is
// dropped and the next use loads a fresh one.
import { WebprofError, core, ready } from './core.mjs';
import { loadSibling } from './instance.mjs';
import { toolsCore } from './wasm-page.mjs';

let failed = null; // the build whose instance trapped (reloaded once asked again)

/** Resolves with the tools module (rejects with why it could not load). */
export function tools() {
  if (toolsCore === null) return ready.then(() => core());
  return loadSibling(failed || toolsCore);
}

/**
 * Runs fn(m) on the tools module and returns its result: a WebprofError for
 * a Wasm trap in it (that instance is not used again).
 */
export async function withTools(fn) {
  const m = await tools();
  try {
    return fn(m);
  } catch (e) {
    if (!(e instanceof WebAssembly.RuntimeError)) throw e;
    if (toolsCore === null) throw e;
    // A fresh instance next time: a copy of the build, so it loads anew.
    failed = { ...toolsCore };
    throw new WebprofError(
      `webprof: the Wasm tools module trapped (${e.message}); it will be reloaded`,
      'Trapped',
    );
  }
}
