// Types of `webprof/merge` (Node): adding profiles of any format up into one.
export { ready, WebprofError } from '../webprof.js';

/** A source map: its JSON text, bytes or parsed object. */
export type SourceMapSource = string | Uint8Array | ArrayBuffer | object;

export interface MergeOptions {
  /**
   * Source maps applied before functions are compared: script URL, or a bare file name ("app.js": any
   * URL whose path ends in /app.js; an exact URL wins) -> its map.
   */
  sourceMaps?: Record<string, SourceMapSource> | Map<string, SourceMapSource>;
  /** Where each map was found: its relative `sources` resolve against it (default: kept as written). */
  mapUrls?: Record<string, string>;
}

/**
 * One profile: a file path (a string that does not start with `{` or `[`) or file: URL, read in chunks,
 * or its bytes or JSON text; gzipped or not. W3C ProfilerTrace JSON, Chrome trace JSON, .cpuprofile or
 * Firefox Gecko profile JSON.
 */
export type MergeInput = string | URL | Uint8Array | ArrayBuffer;

/** What one input added. */
export interface MergeInputInfo {
  name: string;
  /** ".cpuprofile", "Chrome trace JSON", "W3C ProfilerTrace JSON", "Firefox Gecko profile JSON". */
  format: string;
  /** Sampled threads in it (a Chrome trace can hold several). */
  profiles: number;
  samples: number;
  /** Its samples' time in ns: each sample lasts until the next; the last until the profile's end. */
  timeNs: number;
}

export interface MergeTotals {
  inputs: number;
  profiles: number;
  /** The sum of the inputs' samples. */
  samples: number;
  /** The sum of the inputs' times, ns. */
  timeNs: number;
  /** Distinct stacks with samples. */
  stacks: number;
  /** Distinct functions: (name, resource, line, column) after source maps. */
  frames: number;
  /** Bytes the merge holds in Wasm memory (merged tables, the largest input's buffer). */
  memoryBytes: number;
  /** The Wasm instance's whole linear memory (it never shrinks: its peak). */
  wasmMemoryBytes: number;
}

/**
 * A merge in progress: add inputs one by one (memory stays bounded by the distinct stacks, whatever their
 * number), write the sum in any export format at any time. Needs `await ready` first; call dispose()
 * (or `using`) when done.
 */
export class ProfileMerger {
  constructor(options?: MergeOptions);
  /** Adds one profile; a malformed one throws a WebprofError naming it and what is wrong, and changes nothing. */
  add(input: MergeInput, name?: string): MergeInputInfo;
  /** Adds one profile arriving in chunks (a Node Readable, a web ReadableStream, any async iterable). */
  addStream(chunks: AsyncIterable<Uint8Array | string>, name?: string): Promise<MergeInputInfo>;
  addSourceMap(script: string, map: SourceMapSource, mapUrl?: string): void;
  totals(): MergeTotals;
  /** The merged profile in an export format of the core's registry ('pprof', 'cpuprofile', 'chrome', 'perfetto'). */
  write(format: string): ArrayBuffer;
  /** One file per export format in `dir` (profile.pb.gz, profile.cpuprofile, trace.json, trace.pftrace); the paths. */
  writeFiles(dir: string): Promise<string[]>;
  dispose(): void;
  [Symbol.dispose](): void;
}

export interface MergeResult {
  totals: MergeTotals;
  inputs: MergeInputInfo[];
  /** Inputs skipped with `skipInvalid`. */
  errors: { name: string; message: string }[];
  /** File name (profile.pb.gz, …) -> bytes, one per export format. */
  files: Record<string, ArrayBuffer>;
}

/** Merges `inputs` into one profile; with `out`, writes one file per export format there. */
export function mergeProfiles(
  inputs: MergeInput[],
  options?: MergeOptions & { out?: string; skipInvalid?: boolean },
): Promise<MergeResult>;
