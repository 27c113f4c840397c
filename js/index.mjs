// The public API of webprof. Each line re-exports one module; the classic
// <script> build exposes the same names on the single global `webprof`.
export { ready, isReady, WebprofError } from './core.mjs';
export { TraceSession } from './trace.mjs';
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
} from './probes.mjs';
export { installFrameworkProbes } from './framework-probes.mjs';
export { consoleReporter, createConsoleReporter } from './console-reporter.mjs';
export { toChromeTrace, toCpuProfile, toPerfettoTrace, lastExportTimings } from './export.mjs';
export {
  openInPerfetto,
  perfettoUrl,
  sanitizePerfettoText,
  PerfettoHandle,
  PERFETTO_ORIGIN,
} from './perfetto.mjs';
export { Profiler, importTrace } from './profiler.mjs';
export { probe } from './sampler.mjs';
export { wrap, instrument } from './probe-sites.mjs';
export { isMutedScriptUrl } from './muted.mjs';
export { installProfilerPolyfill, nativeProfilerAllowed } from './polyfill.mjs';
export { RuntimeProfiler, loadInto, serveWorkerRuntime } from './runtime-profiler.mjs';
export { startWorker, WorkerRuntime } from './worker-runtime.mjs';
export { resolveFrameDefinitions, clearSourceCache } from './fidelity.mjs';
export { __wp$f, __wp$s, denseMode } from './dense.mjs';
export { summarize, formatSummary } from './summary.mjs';
