// `webprof/polyfill`: defines globalThis.Profiler where the engine's own is
// missing or not allowed (Chromium without `Document-Policy: js-profiling`,
// Firefox, Safari, file:// pages). Where the native one works it is left in
// place. The drop-in script does the same when its tag has `data-polyfill`.
import { NativeProfiler, Profiler } from './profiler/profiler.mjs';

/** True when the engine's Profiler exists and this document may use it. */
export function nativeProfilerAllowed() {
  if (!NativeProfiler) return false;
  try {
    // Chromium throws synchronously without the policy; with it, a profiler
    // starts, so stop it at once (its trace is dropped).
    const p = new NativeProfiler({ sampleInterval: 10, maxBufferSize: 0 });
    p.stop().catch(() => {});
    return true;
  } catch {
    return false;
  }
}

/** Installs the polyfill if needed; returns true when it did. */
export function installProfilerPolyfill() {
  if (nativeProfilerAllowed()) return false;
  globalThis.Profiler = Profiler;
  return true;
}

// The drop-in <script src=".../webprof.js" data-polyfill> installs at once
// (document.currentScript exists only while a classic script evaluates).
const tag = typeof document !== 'undefined' ? document.currentScript : null;
if (tag && tag.hasAttribute && tag.hasAttribute('data-polyfill')) installProfilerPolyfill();
