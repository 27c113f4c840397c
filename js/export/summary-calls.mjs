// The load-time names of the summary (js/export/summary.mjs, the tools
// module's JS): like the exporters, they need the tools module loaded
// (`await loadExporters()`, or a Profiler's stop()) and otherwise throw a
// WebprofError with code NotLoaded (js/core/tools.mjs toolsJsNow).
import { toolsJsNow } from '../core/tools.mjs';

/**
 * The hottest functions of a trace (js/export/summary.mjs summarize).
 * @param {{resources: string[], frames: object[], stacks: object[], samples: object[]}} trace
 * @param {{top?: number}} [options]
 */
export function summarize(trace, options) {
  return toolsJsNow('summarize()').summarize(trace, options);
}

/** A summary as text lines (js/export/summary.mjs formatSummary). */
export function formatSummary(summary, options) {
  return toolsJsNow('formatSummary()').formatSummary(summary, options);
}
