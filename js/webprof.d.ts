// Published types of the `webprof` package. Sections follow js/index.mjs.

// ---- core ----
/** Resolves once the Wasm core is loaded; rejects with a WebprofError saying why not. */
export const ready: Promise<void>;
/** True once the core can be called synchronously. */
export function isReady(): boolean;
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
}

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
  toTrace(): ProfilerTrace;
  dispose(): void;
}

// ---- explicit probes (seed 004; js/probes.mjs) ----
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

// ---- Exporters (js/export.mjs) ----------------------------------------------
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
/** Chrome Trace Event JSON ({"traceEvents":[...]}, UTF-8). Throws WebprofError on bad input. */
export function toChromeTrace(input: ExportInput, options?: TraceExportOptions): ArrayBuffer;
/** V8 .cpuprofile JSON of `input.profile` (UTF-8). */
export function toCpuProfile(input: ExportInput): ArrayBuffer;
/** Perfetto protobuf trace (.pftrace). */
export function toPerfettoTrace(input: ExportInput, options?: TraceExportOptions): ArrayBuffer;
/** Where the last export spent its time (diagnostics for benchmarks). */
export function lastExportTimings(): {
  loadMs: number;
  writeMs: number;
  copyMs: number;
  bytes: number;
} | null;

// ---- Perfetto UI embedding (js/perfetto.mjs) --------------------------------

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
