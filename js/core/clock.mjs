// The clock of the explicit probes, in ms.
//
// performance.now where it exists (browsers, Node, workers), else a host
// high-resolution clock (Hermes' nativePerformanceNow), else Date.now. The
// function returned reads the clock through the object each time, so a host
// that replaces performance.now later is still honoured.

/** Where a platform-call wrapper keeps the method it wraps. */
export const ORIGINAL = Symbol.for('webprof.original');

/** @param {object} g the global object to look in */
export function pickClock(g) {
  const perf = g.performance;
  if (perf && typeof perf.now === 'function')
    return () => {
      // webprof's own clock reads skip its sample-point wrapper
      // (js/profiler/platform-sites.mjs): a read there is not the page's.
      const f = perf.now;
      return (f[ORIGINAL] || f).call(perf);
    };
  const hostNow = g.nativePerformanceNow;
  if (typeof hostNow === 'function') return () => hostNow();
  return () => Date.now();
}

/** The epoch ms that performance.now() counts from (0 where unknown). */
export function timeOrigin(g = globalThis) {
  const perf = g.performance;
  return perf && typeof perf.timeOrigin === 'number' ? perf.timeOrigin : 0;
}
