// Published types of the `webprof` package. Sections follow js/api.mjs.

// ---- compile-time probe flags (js/build-flags/) ----
// A bundler plugin (webprof/build-flags/esbuild, /rollup, /webpack) replaces these by `true` or `false`; code
// writes `if (__webprof_perf_user__) { … }` so a build with the probes off keeps none of them. A project group
// declared with `groups: ['net']` is declared by the project the same way:
//   declare global { const __webprof_perf_net__: boolean; }
declare global {
  /** The master probe flag: true when the build enabled any probe group. */
  const __webprof_perf__: boolean;
  /** The built-in `user` probe group (the application's own aggrStart/traceStart/mark calls). */
  const __webprof_perf_user__: boolean;
  /** The built-in `framework` probe group (installFrameworkProbes and framework integrations). */
  const __webprof_perf_framework__: boolean;
  /** Where the Wasm core is, for a worker or a page that cannot call setWasmUrl() (read once, at load). */
  var webprofWasmUrl: string | undefined;
}

// ---- core ----
/** Resolves once the Wasm core is loaded; rejects with a WebprofError saying why not. */
export const ready: Promise<void>;
/** True once the core can be called synchronously. */
export function isReady(): boolean;
/**
 * Where to fetch `webprof-core.wasm` from (a CDN, an asset your build renamed). Call it at the top level of the module
 * that statically imports webprof (the core starts loading right after); later it throws. Bundlers that understand
 * `new URL('./file', import.meta.url)` (Vite, webpack 5, Rollup, Parcel) need no call.
 */
export function setWasmUrl(url: string | URL): void;
/** Every error webprof raises itself; `code` is the core's status name when it came from the core. */
export class WebprofError extends Error {
  readonly code?: string;
}

// ---- trace model (W3C JS Self-Profiling dictionaries) ----
export type ProfilerResource = string;
export interface ProfilerFrame {
  name: string;
  resourceId?: number;
  line?: number;
  column?: number;
  /** webprof extension: where a frame mapped through a source map was sampled (symbolicate()). */
  generated?: { name: string; resourceId?: number; line?: number; column?: number };
}
export interface ProfilerStack {
  parentId?: number;
  frameId: number;
}
export interface ProfilerSample {
  timestamp: number;
  stackId?: number;
}
export interface ProfilerTrace {
  resources: ProfilerResource[];
  frames: ProfilerFrame[];
  stacks: ProfilerStack[];
  samples: ProfilerSample[];
  /**
   * webprof extension, present only when something went wrong while the
   * polyfill sampled (a clock that went backwards, a stack that could not be
   * captured): one sentence each, never thrown at the page.
   */
  diagnostics?: string[];
}

/**
 * Frees now the core's copy of a trace that a Profiler's stop() (or
 * importTrace) returned; otherwise it is freed when the trace object is
 * garbage. Until then exporting that object writes the core's copy in place
 * (an edit that keeps the table lengths is not seen: export a structuredClone
 * you edited instead). Returns whether the core still held it.
 */
export function releaseTrace(trace: ProfilerTrace): boolean;
/**
 * A profiling session of the core driven by hand: intern resources, frames and
 * stacks, append samples, read the ProfilerTrace back. Requires `await ready`.
 * Call dispose() when done (frees Wasm memory).
 */
export class TraceSession {
  constructor(options: { sampleInterval?: number; maxBufferSize: number; timeOrigin?: number });
  readonly state: 'started' | 'paused' | 'stopped';
  readonly sampleInterval: number;
  readonly maxBufferSize: number;
  readonly sampleCount: number;
  pause(): void;
  resume(): void;
  stop(): void;
  resource(url: string): number;
  frame(frame: ProfilerFrame): number;
  stack(frameId: number, parentId?: number): number;
  /** true if kept; false if the buffer just became full (the session is now stopped). */
  sample(timestamp: number, stackId?: number): boolean;
  /** The script URLs, by resource id. */
  resources(): string[];
  toTrace(): ProfilerTrace;
  dispose(): void;
}

// ---- RuntimeProfiler (Mozilla JS Profiling proposal, seed 002) ----
/**
 * Where a function is: its script (absent for builtins), its definition line (when the script's source could
 * be read: same-origin or CORS-readable), and its name ("<top level>" for a script's top-level code, "" for an
 * anonymous function or, without the source, for top-level code too).
 */
export interface RuntimeFunction {
  file?: string;
  line?: number;
  name: string;
}
/** The call site in the parent frame: the line where the caller was executing. */
export interface RuntimeSite {
  file?: string;
  line?: number;
}
/** A node of results(): one function reached from one call site. Invariant: samples = selfCount + Σ children.samples. */
export interface RuntimeNode {
  function: RuntimeFunction;
  /** Absent for outermost frames. */
  site?: RuntimeSite;
  samples: number;
  selfCount: number;
  children: RuntimeNode[];
  /** Properties attached to frame() objects of this node's backtraces. */
  [annotation: string]: unknown;
}
/** The root of results(): selfCount counts samples with no JS on the stack (idle). */
export interface RuntimeResults {
  samples: number;
  selfCount: number;
  children: RuntimeNode[];
}
/**
 * Names another runtime: a same-origin iframe's window (or an object of its realm) that loaded webprof,
 * or a WorkerRuntime from startWorker(). Omitted: the current runtime.
 */
export type RuntimeTarget = Window | WorkerRuntime | object;

/**
 * The Mozilla JS Profiling API. Samples come from the polyfill sampler's probe sites (wrapped tasks,
 * wrap(), instrument(), probe()). Requires `await ready`. For a WorkerRuntime every method returns a Promise.
 */
export class RuntimeProfiler {
  constructor();
  /** sampleRate: µs between samples (default 1000; a floor); maxSamples default 1,000,000. */
  start(obj: WorkerRuntime, sampleRate?: number, maxSamples?: number): Promise<void>;
  start(obj?: RuntimeTarget, sampleRate?: number, maxSamples?: number): void;
  isProfiling(obj: WorkerRuntime): Promise<boolean>;
  isProfiling(obj?: RuntimeTarget): boolean;
  /** The same object for the same backtrace until reset(); throws if the current runtime is not profiled. */
  frame(): Record<string, unknown>;
  results(obj: WorkerRuntime): Promise<RuntimeResults>;
  results(obj?: RuntimeTarget): RuntimeResults;
  reset(obj: WorkerRuntime): Promise<void>;
  reset(obj?: RuntimeTarget): void;
  stop(obj: WorkerRuntime): Promise<void>;
  stop(obj?: RuntimeTarget): void;
  /** Whether this realm's runtime is profiled by any RuntimeProfiler. */
  static isProfiling(): boolean;
  /** Samples held for this realm's runtime; full = maxSamples reached. */
  static stats(): { samples: number; full: boolean };
}

/** A dedicated Worker running a page script behind webprof's bootstrap (webprof is a global there). */
export class WorkerRuntime {
  constructor(url: string | URL, options?: { webprofScript?: string; name?: string });
  readonly worker: Worker;
  /** Resolves when webprof's core is loaded in the worker. */
  readonly ready: Promise<void>;
  postMessage(message: unknown, transfer?: Transferable[]): void;
  terminate(): void;
}
/** Starts `url` (a classic worker script) as a runtime RuntimeProfiler can profile. */
export function startWorker(
  url: string | URL,
  options?: { webprofScript?: string; name?: string },
): WorkerRuntime;
/**
 * Loads webprof's classic build (dist/webprof.js) into a same-origin frame that lacks it; resolves when the
 * frame's core is ready. Then RuntimeProfiler can profile that frame (obj = its window).
 */
export function loadInto(win: Window, options?: { webprofScript?: string }): Promise<void>;
/** Worker side of startWorker(); called by its bootstrap. */
export function serveWorkerRuntime(): void;

// ---- explicit probes (seed 004; js/probes/probes.mjs) ----
/** One aggregate bucket of a window: durations in ms; p50/p90/p99 within 1/128 relative error. */
export interface AggrResult {
  count: number;
  sum: number;
  avg: number;
  max: number;
  min: number;
  p50: number;
  p90: number;
  p99: number;
}
export interface MarkEvent {
  name: string;
  /** ms from the window start. */
  start: number;
  /** The raw clock value (performance.now, nativePerformanceNow or Date.now), ms. */
  timestamp: number;
  /** The object given to mark(), by reference; absent when none was given. */
  info?: unknown;
}
export interface MarkTimeline {
  events: MarkEvent[];
  dropped: number;
}
export interface TraceEvent {
  name: string;
  start: number;
  timestamp: number;
  duration: number;
  info?: unknown;
}
export interface TraceTimeline {
  events: TraceEvent[];
  dropped: number;
  incomplete: number;
}
export interface PerfStartOptions {
  /** Marks per window including the start/end boundaries; integer >= 2, else 1024. */
  markLimit?: number;
  /** Traces per window; integer >= 0 (0 = none stored), else 1024; at most 2^20. */
  traceLimit?: number;
}
export type Reporter = (
  aggregates: Map<string, AggrResult>,
  marks?: MarkTimeline,
  traces?: TraceTimeline,
) => void;
export interface ConsoleReporterOptions {
  /** Orders aggregates only (descending; 'name' ascending). Default 'sum'. */
  sortBy?: 'count' | 'sum' | 'avg' | 'max' | 'min' | 'p50' | 'p90' | 'p99' | 'name';
  /** A name prefix, or a predicate; the start/end boundary marks are always shown. */
  filter?: string | ((name: string) => boolean);
  /** Print the title line. Default true. */
  header?: boolean;
}

/** Opens a recording window; while one is open, does nothing (data and capacity kept). */
export function start(options?: PerfStartOptions): void;
/** Closes the window; the global reporter then `reporter` receive the same objects. */
export function end(reporter?: Reporter): void;
/** Id mode: returns an id for aggrEnd (-1 when not recording). useName: pairs by name, returns -1. */
export function aggrStart(name: string, useName?: boolean): number;
export function aggrEnd(idOrName: number | string): void;
/** Traces must start inside a window; returns -1 otherwise or when dropped by traceLimit. */
export function traceStart(name: string, useName?: boolean): number;
export function traceEnd(idOrName: number | string, info?: unknown): void;
export function mark(name: string, info?: unknown): void;
export function setReporter(reporter: Reporter): void;
export function clearReporter(): void;
export const consoleReporter: Reporter;
export function createConsoleReporter(options?: ConsoleReporterOptions): Reporter;
/** Legacy: aggrStart(name). */
export function scopeStart(name: string): number;
/** Legacy: aggrEnd(id). */
export function scopeEnd(id: number): void;
/** Legacy: aggrStart(name, true). */
export function measureStart(name: string): number;
/** Legacy: aggrEnd(name). */
export function measureEnd(name: string): void;
/**
 * Built-in `framework` probes: aggregates `task:timeout`, `task:interval`, `task:raf`, `event:<type>` and
 * `longtask` (PerformanceObserver, also as traces). Returns a function that restores everything it patched.
 */
export function installFrameworkProbes(target?: object): () => void;

// ---- Exporters (js/export/export.mjs) ----------------------------------------------
/**
 * What to export. `profile` is a W3C ProfilerTrace object (loaded into the
 * core in bulk) or a TraceSession (exported in place). `info` and aggregate
 * results are JSON.stringify'd; text that is not JSON is kept as a string.
 */
export interface ExportInput {
  profile?: ProfilerTrace | TraceSession;
  marks?: MarkTimeline | MarkEvent[];
  traces?: TraceTimeline | TraceEvent[];
  aggregates?: Map<string, AggrResult> | Record<string, AggrResult>;
}
export interface TraceExportOptions {
  pid?: number;
  tid?: number;
  processName?: string;
  threadName?: string;
}
/** One entry of the export format registry (the core's list, then formats registered in JS). */
export interface ExportFormat {
  /** What exportTrace() takes: 'chrome', 'cpuprofile', 'perfetto', or a registered id. */
  id: string;
  /** For people, e.g. 'Perfetto protobuf trace'. */
  name: string;
  /** Without the dot, e.g. 'pftrace'. */
  extension: string;
  mimeType: string;
  /** The default file name, e.g. 'trace.pftrace' (what the CLI and the Playwright fixture write). */
  fileName: string;
}
/**
 * Resolves once the exporters can be called synchronously: toChromeTrace,
 * toCpuProfile, toPerfettoTrace, toPprof, exportTrace, summarize and
 * formatSummary run in the tools module (webprof-tools.wasm beside the core),
 * fetched on first use. A Profiler's stop() loads it before it resolves, so
 * `toChromeTrace({ profile: await profiler.stop() })` needs nothing more;
 * exporting without stopping a Profiler (probes only, a trace from a file)
 * needs `await loadExporters()` first. Called before it resolved, an exporter
 * throws a WebprofError (code 'NotLoaded') saying so. Rejects with why the
 * module could not load.
 */
export function loadExporters(): Promise<void>;
/** Every export format, the core's first (needs `ready` only: the core declares its formats). */
export function exportFormats(): ExportFormat[];
/** `input` in the export format `format` (an ExportFormat id). Unknown id: TypeError. */
export function exportTrace(format: string, input: ExportInput, options?: TraceExportOptions): ArrayBuffer;
/** A format written in JS, for tools and tests; listed after the core's. */
export interface ExportFormatDefinition {
  id: string;
  name: string;
  extension: string;
  mimeType: string;
  /** Default `${id}.${extension}`. */
  fileName?: string;
  write(input: ExportInput, options: TraceExportOptions): ArrayBuffer | ArrayBufferView;
}
/** Adds a format to exportFormats()/exportTrace(); returns the function that removes it. */
export function registerExportFormat(format: ExportFormatDefinition): () => void;
/** Chrome Trace Event JSON ({"traceEvents":[...]}, UTF-8). Throws WebprofError on bad input. */
export function toChromeTrace(input: ExportInput, options?: TraceExportOptions): ArrayBuffer;
/** V8 .cpuprofile JSON of `input.profile` (UTF-8). */
export function toCpuProfile(input: ExportInput): ArrayBuffer;
/** Perfetto protobuf trace (.pftrace). */
export function toPerfettoTrace(input: ExportInput, options?: TraceExportOptions): ArrayBuffer;
/** pprof profile.proto, gzipped (profile.pb.gz): CPU time in ns and sample counts per stack. */
export function toPprof(input: ExportInput): ArrayBuffer;
/** Where the last export spent its time (diagnostics for benchmarks). */
export function lastExportTimings(): {
  loadMs: number;
  writeMs: number;
  copyMs: number;
  bytes: number;
} | null;

// ---- Perfetto UI embedding (js/export/perfetto.mjs) --------------------------------

export const PERFETTO_ORIGIN: 'https://ui.perfetto.dev';
export interface PerfettoUrlParams {
  url?: string;
  local_cache_key?: string;
  /** Slice selection start / duration, ns. */
  ts?: number | string;
  dur?: number | string;
  pid?: number;
  tid?: number;
  visStart?: number | string;
  visEnd?: number | string;
  query?: string;
  startupCommands?: unknown[] | string;
  enablePlugins?: string[] | string;
  mode?: 'embedded';
  hideSidebar?: boolean;
}
/** The UI URL (`<base>/#!/?…`) with the documented parameters, percent-encoded. */
export function perfettoUrl(params?: PerfettoUrlParams, base?: string): string;
/** The UI's own sanitisation: characters outside [A-Za-z0-9.\-_#:/?=&;%+$ ] become spaces. */
export function sanitizePerfettoText(text: string): string;
export interface OpenInPerfettoOptions {
  title: string;
  /** Exactly one of container (a new iframe goes in it), iframe (reused) or newWindow. */
  container?: Element;
  iframe?: HTMLIFrameElement;
  newWindow?: boolean;
  /** UI origin or self-hosted base URL; default https://ui.perfetto.dev. */
  origin?: string;
  /** Keep the UI listening after the trace (needed for the handle's control methods). */
  keepApiOpen?: boolean;
  /** No PONG within this time -> PerfettoTimeoutError. Default 15000. */
  timeoutMs?: number;
  /** PING period, clamped to 50..250 ms. Default 100. */
  pingIntervalMs?: number;
  urlParams?: PerfettoUrlParams;
  fileName?: string;
  url?: string;
}
export class PerfettoHandle {
  readonly origin: string;
  readonly keepApiOpen: boolean;
  readonly iframe: HTMLIFrameElement | null;
  readonly window: Window | null;
  /** {perfetto: {timeStart, timeEnd}} in absolute trace seconds. Needs keepApiOpen. */
  setVisibleRange(timeStartSec: number, timeEndSec: number): void;
  /** {perfetto: {sliceId}} as the embedding reference documents (upstream ignores it). Needs keepApiOpen. */
  selectSlice(sliceId: number): void;
  /** Other traffic, sent with perfettoIgnore: true. */
  post(message: object): void;
}
/**
 * Opens the trace in the Perfetto UI: PING until the UI window answers PONG,
 * then post {perfetto: {buffer, title, ...}} transferring the buffer.
 */
export function openInPerfetto(
  buffer: ArrayBuffer | ArrayBufferView,
  options: OpenInPerfettoOptions,
): Promise<PerfettoHandle>;

// ---- W3C Profiler, polyfill and native (js/profiler/profiler.mjs, js/profiler/sampler.mjs) ----
export interface ProfilerInitOptions {
  /** Requested interval (ms), >= 0. The polyfill honours down to 1 ms; Chromium's native rounds up to 10 ms. */
  sampleInterval: number;
  /** Samples kept; converted like a WebIDL unsigned long. */
  maxBufferSize: number;
  /** webprof extension: 'auto' (native where the page's policy allows it, else polyfill), 'native', 'polyfill'. */
  backend?: 'auto' | 'native' | 'polyfill';
  /**
   * webprof extension: source maps applied at stop(). Default: each script's map is found from its
   * `SourceMap` header or `//# sourceMappingURL=` (same-origin or CORS only); an object supplies maps by
   * script URL (others are still found); false switches it off.
   */
  sourceMaps?: false | Record<string, SourceMapInput>;
}
/** A v3 source map (or index map) as JSON text, its bytes or the parsed object. */
export type SourceMapInput = string | ArrayBuffer | ArrayBufferView | object;
/** What symbolicate() did: frames mapped, and maps that failed (their scripts' frames are unchanged). */
export interface Symbolication {
  mapped: number;
  errors: { resource: string; message: string }[];
}
/**
 * A new trace whose frames are mapped through the scripts' source maps (keyed by script URL as in
 * `trace.resources`): original function name, file, line and column, the sampled position in
 * `frame.generated`. Original files are appended to `resources`. Asynchronous: a page fetches the
 * tools module that decodes maps on first use.
 */
export function symbolicate(
  trace: ProfilerTrace,
  maps: Record<string, SourceMapInput> | Map<string, SourceMapInput>,
  options?: { mapUrls?: Record<string, string> },
): Promise<ProfilerTrace & { symbolication: Symbolication }>;
/** A decoded source map held in the core; dispose() frees it. */
export interface OpenSourceMap {
  readonly sources: string[];
  readonly names: string[];
  readonly segmentCount: number;
  /** [line, column, …] 1-based -> Uint32Array rows [source, line, column, name]; 0xffffffff = none. */
  lookup(positions: ArrayLike<number>): Uint32Array;
  dispose(): void;
}
/**
 * Decodes a v3 source map (or index map); rejects with a WebprofError (code 'SourceMapInvalid') when
 * malformed. Asynchronous (the tools module loads on first use); lookups on the result are synchronous.
 */
export function openSourceMap(map: SourceMapInput, mapUrl?: string): Promise<OpenSourceMap>;
export interface ProfilerEventMap {
  samplebufferfull: Event;
}
/**
 * The W3C JS Self-Profiling `Profiler`. Missing options -> TypeError; negative
 * sampleInterval -> RangeError; a second stop() -> rejected "InvalidStateError"
 * DOMException; backend 'native' without a usable native Profiler -> the
 * engine's error (or "NotSupportedError" where there is none).
 */
export class Profiler extends EventTarget {
  constructor(options: ProfilerInitOptions);
  /** The interval really used (ms). */
  readonly sampleInterval: number;
  /** True once stopped, including after samplebufferfull. */
  readonly stopped: boolean;
  /** webprof extension: which sampler runs this session. */
  readonly backend: 'native' | 'polyfill';
  stop(): Promise<ProfilerTrace>;
  /** webprof extension: same as the module-level wrap(). */
  wrap<F extends (...args: any[]) => any>(fn: F): F;
  /** webprof extension: same as the module-level instrument(). */
  instrument<T extends object>(obj: T): T;
  addEventListener<K extends keyof ProfilerEventMap>(
    type: K,
    listener: (this: Profiler, ev: ProfilerEventMap[K]) => any,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ): void;
  onsamplebufferfull?: never;
}
/** Returns a function that calls fn and is a polyfill probe site at entry and exit. Wrapping twice is the identity. */
export function wrap<F extends (...args: any[]) => any>(fn: F): F;
/** Replaces every own writable function-valued property of obj (for a class, pass its prototype) by wrap(fn). */
export function instrument<T extends object>(obj: T): T;
/** An explicit probe site: takes a polyfill sample if one is due (≈1–10 ns when none is). */
export function probe(): void;
/**
 * Keeps frames without a resource (builtins such as `Array.prototype.map`, `sort`, `String.prototype.replace`, a
 * generator's `next`; `eval` and `new Function` code) in the polyfill's traces. Chromium's native Profiler reports
 * none, and by default neither does the polyfill (their time is their caller's). Page-wide; call it before starting a Profiler.
 */
export function keepBuiltinFrames(keep: boolean): void;
/**
 * Loads a ProfilerTrace (e.g. Chromium's) through the core's W3C loader, as the polyfill would have recorded it:
 * webprof's own frames (the core's rule) and frames of resources `hideResource` hides (default: the CORS-muted
 * rule, `isMutedScriptUrl`) map to their caller; stacks are numbered in first-use order. A stack whose parentId
 * is not an earlier stack (itself, a cycle, a forward reference) is refused with a WebprofError.
 */
export function importTrace(
  trace: ProfilerTrace,
  sampleInterval?: number,
  hideResource?: (url: string) => boolean,
): ProfilerTrace;
/** The CORS-muted / other-realm rule for a script URL as Error.stack shows it (docs/ARCHITECTURE.md). */
export function isMutedScriptUrl(url: string): boolean;
/** True when the engine's own Profiler exists and the document is known to allow it (`Server-Timing: js-profiling`); never tries it. */
export function nativeProfilerAllowed(): boolean;
/** Sets globalThis.Profiler to webprof's where the native one is missing or not allowed; true if it did. */
export function installProfilerPolyfill(): boolean;

/**
 * With the drop-in `<script src="webprof.js" data-dense>`: resolves true when this document's scripts were
 * rewritten for dense sampling by webprof's service worker (dist/webprof-sw.js), false on a first visit (the
 * worker is then active: reload) or without data-dense.
 */
export const denseReady: Promise<boolean>;
/**
 * The dense-sampling transform of one script (what the bundler plugins and the service worker run).
 * `format` binds the runtime: 'esm' (default) an import at the end, 'cjs' a `require` before the first
 * statement, 'auto' by the file's own syntax. `exitChecks: false` leaves function bodies without their
 * exit checks (at each `return` and before the body's `}`; smaller code, and a function's time after its last
 * check is then charged to its caller). Result: `sites` checks inserted, `wrapped` of them in unbraced loop bodies, `exits` of them exit
 * checks; `reason` says why a file was left as it is (status not 'Ok').
 */
export function transformForSampling(
  code: string,
  options?: { runtime?: string | null; file?: string; format?: 'esm' | 'cjs' | 'auto'; exitChecks?: boolean },
): Promise<{
  code: string;
  sites: number;
  status: string;
  map: object | null;
  wrapped: number;
  exits: number;
  reason: string | null;
  format: 'esm' | 'cjs' | null;
}>;
/** The dense-sampling transform of an HTML document's inline scripts, in place (lines and columns kept). */
export function transformHtmlForSampling(
  html: string,
  options?: { csp?: string; from?: number; file?: string },
): Promise<{
  code: string;
  scripts: number;
  sites: number;
  skipped: { line: number; reason: string }[];
  integrity: string[];
  before: string[];
}>;

// ---- Spec frame positions (js/profiler/fidelity.mjs) ----

/**
 * What happened to one resource's source: 'Scanned', 'NotFetchable', 'SourceTooLarge', 'SourceUnscannable',
 * 'NotLoaded' (the tools module did not load), 'TimedOut' (not scanned within `waitMs`).
 */
export type SourceScanStatus =
  'Scanned' | 'NotFetchable' | 'SourceTooLarge' | 'SourceUnscannable' | 'NotLoaded' | 'TimedOut' | string;

export interface FrameResolution {
  scripts: Record<string, SourceScanStatus>;
  framesIn?: number;
  framesOut?: number;
  framesResolved?: number;
  /** Set when the core could not rebuild the trace (a table cap); the trace is unchanged. */
  error?: string;
}

/**
 * Rewrites a stopped session's frames from execution positions to the definition position
 * (the `(` of the parameters) and spec name of the innermost enclosing function. Sources are
 * fetched once per page; unreadable or unscannable scripts keep their frames as captured.
 * With `waitMs`, sources not scanned by then keep their frames too (status `TimedOut`); the
 * trace is never changed after the promise resolves.
 */
export function resolveFrameDefinitions(
  trace: TraceSession,
  options?: { fetch?: typeof fetch; waitMs?: number },
): Promise<FrameResolution>;
/** Forgets every cached source scan. */
export function clearSourceCache(): void;

// ---- summary (js/export/summary.mjs) ----
export interface TraceSummaryRow {
  name: string;
  url: string;
  line?: number;
  /** Samples whose innermost frame is this function. */
  self: number;
  /** Samples with this function anywhere on the stack (once per sample). */
  total: number;
  selfPercent: number;
  totalPercent: number;
}
export interface TraceSummary {
  samples: number;
  withStack: number;
  durationMs: number;
  /** The median time between consecutive samples (ms; NaN with fewer than two): what the sampler gave. */
  medianGapMs: number;
  top: TraceSummaryRow[];
}
/**
 * The hottest functions of a ProfilerTrace by self samples, counted by the core (after `ready`): a row is
 * (name, url, line); a sample counts once per row in `total` (recursion), so `self <= total`.
 */
export function summarize(trace: ProfilerTrace, options?: { top?: number }): TraceSummary;
/**
 * The summary as aligned text lines (in the tools module's JS, as summarize: see loadExporters); the first line names the sampler (`backend`), the polyfill's dense-check mode
 * (`denseMode`: 'ticker' or 'counter', docs/ARCHITECTURE.md "Dense sampling and the accuracy model") and the interval.
 */
export function formatSummary(
  summary: TraceSummary,
  options?: { backend?: string; denseMode?: 'ticker' | 'counter' | null; sampleInterval?: number },
): string;
/**
 * How the polyfill's dense checks (the sampling transform's) decide that a sample is due: 'ticker' (a Worker ticks a
 * SharedArrayBuffer once per interval: samples land where time is spent) where the page may share memory with a
 * Worker, else 'counter' (shares lean toward code with dense checks).
 */
export function denseMode(): {
  mode: 'ticker' | 'counter';
  shared: boolean;
  ticker: boolean;
  ticking: boolean;
  stride: number;
  interval: number;
  /** Ticker mode: how long after its tick each of the last 4096 ticks was taken (ms, check time - tick time). */
  lateness: { p50: number; p99: number; ticks: number };
};

// ---- field collection (js/field/) ----
export interface FieldCollectOptions {
  /** Where the payload is POSTed (README "Field collection": the wire format; examples/field-server receives it). */
  endpoint: string | URL;
  /** Fraction of page loads profiled, decided once per load (default 0.01). */
  sampleRate?: number;
  /** Makes the decision a pure function of this value (e.g. a session id): the same seed, the same answer. */
  seed?: string | number;
  /** Forces the decision (tests, users who opted in). */
  sampled?: boolean;
  /** The app's release; the server picks the source maps and the merged profile by it. */
  release?: string;
  /** The Profiler's interval (ms; default 10, Chromium's native minimum). */
  sampleInterval?: number;
  /** The Profiler's buffer (samples; default 10 000); a full buffer ends profiling and sends. */
  maxBufferSize?: number;
  /** Profiling ends and the trace is sent this long after the call (default 10 000 ms), if the page is not hidden first. */
  maxDurationMs?: number;
  /** Samples sent at most: more are thinned evenly by the core (default 5 000). Idle samples are never sent. */
  maxSamples?: number;
  /**
   * Payload bytes (after gzip) at most (default 61 440, under the 64 KiB a page may have in flight at unload):
   * the sample cap shrinks until it fits; a payload that still does not is not sent (counted). Above 64 KiB a
   * payload goes by plain fetch, which an unloading page cancels.
   */
  maxBytes?: number;
  /** The Profiler backend (default 'auto': Chromium's native one where the page's policy allows it). */
  backend?: 'auto' | 'native' | 'polyfill';
  /** JSON-serialisable data sent with the trace (e.g. a route name); never the page's query string by default. */
  metadata?: unknown;
}
export interface FieldDiagnostics {
  sampled: boolean;
  /** 'off' (not sampled), 'profiling', 'sending', 'sent', or 'failed' (see errors). */
  state: 'off' | 'profiling' | 'sending' | 'sent' | 'failed';
  sampler: 'native' | 'polyfill' | null;
  /** What ended profiling: 'duration', 'hidden', 'pagehide', 'full' (buffer) or 'flush'. */
  reason: 'duration' | 'hidden' | 'pagehide' | 'full' | 'flush' | null;
  /** Samples the Profiler recorded, the number sent, and those left out (idle; thinned by maxSamples/maxBytes). */
  recorded: number;
  sent: number;
  idleDropped: number;
  thinnedDropped: number;
  /** Payload size as sent, and whether it is gzip (CompressionStream) or plain JSON. */
  bytes: number;
  compressed: boolean;
  transport: 'beacon' | 'fetch-keepalive' | 'fetch' | null;
  /** The endpoint's HTTP status (fetch only; a beacon's answer is not readable). */
  status: number | null;
  /** Every failure counted, the first 20 in words. */
  failures: number;
  errors: string[];
}
export interface FieldCollector {
  readonly sampled: boolean;
  readonly state: FieldDiagnostics['state'];
  /** A snapshot of where collection stands. */
  readonly diagnostics: FieldDiagnostics;
  /** Ends profiling and sends now (once); resolves with the diagnostics, never rejects. */
  flush(): Promise<FieldDiagnostics>;
}
/**
 * Profiles a fraction of page loads and sends each trace, trimmed and gzipped, to `endpoint` when the page is
 * hidden, after maxDurationMs or when the buffer fills. Never throws into the page: a bad option or any failure
 * later is in `diagnostics`. One collector per page load: a second call returns the first.
 */
export function collectProfiles(options: FieldCollectOptions): FieldCollector;
