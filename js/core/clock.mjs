// The clock of the explicit probes, in ms.
//
// performance.now where it exists (browsers, Node, workers), else a host
// high-resolution clock (Hermes' nativePerformanceNow), else Date.now. The
// function returned reads the clock through the object each time, so a host
// that replaces performance.now later is still honoured.

/** @param {object} g the global object to look in */
export function pickClock(g) {
  const perf = g.performance;
  if (perf && typeof perf.now === 'function') return () => perf.now();
  const hostNow = g.nativePerformanceNow;
  if (typeof hostNow === 'function') return () => hostNow();
  return () => Date.now();
}

/** The epoch ms that performance.now() counts from (0 where unknown). */
export function timeOrigin(g = globalThis) {
  const perf = g.performance;
  return perf && typeof perf.timeOrigin === 'number' ? perf.timeOrigin : 0;
}
