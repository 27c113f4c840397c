// `webprof/polyfill`: defines globalThis.Profiler where the engine's own is
// missing or not allowed (Chromium without `Document-Policy: js-profiling`,
// Firefox, Safari, file:// pages). Where the native one works it is left in
// place. The drop-in script does the same when its tag has `data-polyfill`
// (js/index.mjs).
import { Profiler, nativeProfilerAllowed } from './profiler/profiler.mjs';
import { wantPlatformSites } from './profiler/platform-sites.mjs';

export { nativeProfilerAllowed };

/** Installs the polyfill if needed; returns true when it did. */
export function installProfilerPolyfill() {
  if (nativeProfilerAllowed()) return false;
  // Code written for the native API runs here untransformed: its clock
  // reads become sample points (js/profiler/platform-sites.mjs).
  wantPlatformSites();
  globalThis.Profiler = Profiler;
  return true;
}
