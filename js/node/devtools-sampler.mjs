// Chromium's DevTools sampler, for intervals the native Profiler cannot give:
// `Document-Policy: js-profiling`'s Profiler samples every 10 ms at the
// finest (it rounds up to a multiple of 10), while V8's CPU profiler behind
// the DevTools protocol takes Profiler.setSamplingInterval in µs. So when
// the native sampler is asked for below 10 ms (`webprof record --native
// --interval 0.1`), Node drives that profiler over CDP and imports its
// .cpuprofile with the core's importer (src/import/cpuprofile.h,
// js/import/cpuprofile.mjs). The page is not touched: no agent, no
// rewriting — so no frame of webprof can be in it. The profile is the page's
// renderer isolate's: a same-site navigation stays in it; a cross-site one
// moves the page to another process, whose samples it does not hold.
import { importCpuProfile } from '../import/cpuprofile.mjs';
import { ready } from '../core/core.mjs';

/** The native sampler's floor (ms): below it, the DevTools sampler runs. */
export const NATIVE_FLOOR_MS = 10;

/**
 * Starts V8's sampler for `page` (a Playwright Page in Chromium) every
 * `intervalMs`; resolves to {stop()}, whose result is the data makeResult takes.
 */
export async function startDevToolsSampler(page, intervalMs) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  // µs; V8 takes 1 µs at the finest.
  await cdp.send('Profiler.setSamplingInterval', { interval: Math.max(1, Math.round(intervalMs * 1000)) });
  await cdp.send('Profiler.start');
  return {
    async stop() {
      const { profile } = await cdp.send('Profiler.stop');
      await cdp.send('Profiler.disable').catch(() => {});
      await cdp.detach().catch(() => {});
      await ready;
      const imported = importCpuProfile(profile, { sampleInterval: intervalMs });
      return { trace: imported.trace, backend: 'devtools', sampleInterval: intervalMs, startedAt: 0 };
    },
  };
}
