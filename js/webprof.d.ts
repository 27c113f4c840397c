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
