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

// ---- RuntimeProfiler (Mozilla JS Profiling proposal, seed 002) ----
/** Where a function is: its script (absent for builtins) and name ("" = anonymous or top-level code). */
export interface RuntimeFunction {
  file?: string;
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
