// The public API of webprof (`webprof`; the classic <script> build exposes
// the same names on the single global `webprof`). The first copy of webprof
// on a page publishes its API and later copies use it, so the drop-in script,
// this module and webprof/perf share one Wasm core and one probes state
// (js/core/page.mjs). The list matches js/api.mjs (tests/js/entries.test.mjs).
import * as own from './api.mjs';
import { claimPage } from './core/page.mjs';

const api = claimPage(own);

export const {
  ready,
  isReady,
  WebprofError,
  setWasmUrl,
  __debugTrapNextCall,
  TraceSession,
  releaseTrace,
  loadExporters,
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
  installFrameworkProbes,
  consoleReporter,
  createConsoleReporter,
  toChromeTrace,
  toCpuProfile,
  toPerfettoTrace,
  toPprof,
  exportTrace,
  exportFormats,
  registerExportFormat,
  lastExportTimings,
  openInPerfetto,
  perfettoUrl,
  sanitizePerfettoText,
  PerfettoHandle,
  PERFETTO_ORIGIN,
  Profiler,
  importTrace,
  symbolicate,
  openSourceMap,
  probe,
  keepBuiltinFrames,
  wrap,
  instrument,
  isMutedScriptUrl,
  installProfilerPolyfill,
  nativeProfilerAllowed,
  RuntimeProfiler,
  loadInto,
  serveWorkerRuntime,
  startWorker,
  WorkerRuntime,
  resolveFrameDefinitions,
  clearSourceCache,
  __wp$f,
  __wp$p,
  __wp$s,
  denseMode,
  summarize,
  formatSummary,
  transformForSampling,
  transformHtmlForSampling,
  denseReady,
  collectProfiles,
} = api;

// The drop-in <script src=".../webprof.js" data-polyfill> installs the
// Profiler polyfill at once (document.currentScript exists only while a
// classic script evaluates).
const tag = typeof document !== 'undefined' ? document.currentScript : null;
if (tag && tag.hasAttribute && tag.hasAttribute('data-polyfill')) api.installProfilerPolyfill();
