// The tools module's JS: what a page runs only when it exports, reads source
// maps, rewrites a script, opens the Perfetto UI or sends a field payload.
// Loaded on first use with webprof-tools.wasm (js/core/tools.mjs toolsJs): a
// chunk of the ES module build, dist/webprof-tools.js for the drop-in script
// (js/core/tools-js-classic.mjs); linked in where the tools are the core
// (Node, js/core/wasm-node.mjs). The public names are the load-time
// modules' (js/api.mjs), which call through to these.
export { exportAs, lastExportTimings } from './export/write.mjs';
export { summarize, formatSummary, warnIfSparse } from './export/summary.mjs';
export { openInPerfetto } from './export/perfetto-open.mjs';
export { symbolicate, openSourceMap } from './symbolicate/symbolicate.mjs';
export { symbolicateInPage } from './symbolicate/discover.mjs';
export { transformForSampling } from './transform/index.mjs';
export { transformHtmlForSampling } from './transform/html.mjs';
export { sendFieldTrace } from './field/send.mjs';
