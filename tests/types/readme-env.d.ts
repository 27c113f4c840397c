// What the README's snippets take from the reader's own code (tests/types/check.mjs
// type-checks each snippet as a module with these in scope).
import type { ProfilerTrace, MarkTimeline, TraceTimeline, AggrResult } from 'webprof';
declare global {
  function doWork(): Promise<void>;
  function heavyWork(): void;
  /** A same-origin iframe of the page. */
  const iframe: { contentWindow: Window };
  function save(name: string, bytes: ArrayBuffer, mimeType: string): void;
  const trace: ProfilerTrace;
  const marks: MarkTimeline;
  const traces: TraceTimeline;
  const aggregates: Map<string, AggrResult>;
}
