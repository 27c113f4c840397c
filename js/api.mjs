// The public API of webprof, one line per module. The entry points
// (js/index.mjs, js/perf.mjs) publish it once per page or forward to the
// copy that did (js/core/page.mjs).
export { ready, isReady, WebprofError, setWasmUrl } from './core/core.mjs';
// Test-only: makes the core trap at its next call (tests/js/trap-*.test.mjs).
export { debugTrapNextCall as __debugTrapNextCall } from './core/boundary.mjs';
export { TraceSession, releaseTrace } from './profiler/trace.mjs';
export { loadExporters } from './core/tools.mjs';
export {
  start,
  end,
  aggrStart,
  aggrEnd,
  traceStart,
  traceEnd,
  mark,
  setReporter,
  clearReporter,
  scopeStart,
  scopeEnd,
  measureStart,
  measureEnd,
} from './probes/probes.mjs';
export { installFrameworkProbes } from './probes/framework-probes.mjs';
export { consoleReporter, createConsoleReporter } from './probes/console-reporter.mjs';
export {
  toChromeTrace,
  toCpuProfile,
  toPerfettoTrace,
  toPprof,
  exportTrace,
  exportFormats,
  registerExportFormat,
  lastExportTimings,
} from './export/export.mjs';
export {
  openInPerfetto,
  perfettoUrl,
  sanitizePerfettoText,
  PerfettoHandle,
  PERFETTO_ORIGIN,
} from './export/perfetto.mjs';
export { Profiler, importTrace } from './profiler/profiler.mjs';
export { symbolicate, openSourceMap } from './core/tools-calls.mjs';
export { probe, keepBuiltinFrames } from './profiler/sampler.mjs';
export { wrap, instrument } from './profiler/probe-sites.mjs';
export { isMutedScriptUrl } from './profiler/muted.mjs';
export { installProfilerPolyfill, nativeProfilerAllowed } from './polyfill.mjs';
export { RuntimeProfiler, loadInto, serveWorkerRuntime } from './runtime-profiler/runtime-profiler.mjs';
export { startWorker, WorkerRuntime } from './runtime-profiler/worker-runtime.mjs';
export { resolveFrameDefinitions, clearSourceCache } from './profiler/fidelity.mjs';
export { __wp$f, __wp$p, __wp$s, denseMode } from './profiler/dense.mjs';
export { summarize, formatSummary } from './export/summary-calls.mjs';
export { transformForSampling, transformHtmlForSampling } from './core/tools-calls.mjs';
export { denseReady } from './service-worker/dropin.mjs';
export { collectProfiles } from './field/collect.mjs';
