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

// ---- Spec frame positions (js/fidelity.mjs) ----

/** What happened to one resource's source: 'Scanned', 'NotFetchable', 'SourceTooLarge', 'SourceUnscannable'. */
export type SourceScanStatus = 'Scanned' | 'NotFetchable' | 'SourceTooLarge' | 'SourceUnscannable' | string;

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
 */
export function resolveFrameDefinitions(
  trace: TraceSession,
  options?: { fetch?: typeof fetch },
): Promise<FrameResolution>;
/** Forgets every cached source scan. */
export function clearSourceCache(): void;
