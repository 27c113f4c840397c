// The Node-side tools' build of the core (js/core/wasm-page.mjs says why
// there are two): every binding of the page's core plus the importers of other
// profilers' files and the merger (embind, so Emscripten's loader). Read from
// disk beside the tool's bundle in dist/.
import createWebprofCore from '../../build/wasm/wasm/webprof-core-node.mjs';
import { installBindings } from './bindings.mjs';
import * as toolsJs from '../tools-js.mjs';

export const pageCore = {
  file: 'webprof-core-node.wasm',
  beside: () => new URL('./webprof-core-node.wasm', import.meta.url).href,
  create: (options) => createWebprofCore(options).then(installBindings),
};

// The tools' bindings are linked into this core (js/core/tools.mjs).
export const toolsCore = null;
// And so is the tools module's JS (a function: the two modules import each
// other, so the namespace is read once both ran).
export const loadToolsJs = null;
export const toolsJsLinked = () => toolsJs;
