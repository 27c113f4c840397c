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
