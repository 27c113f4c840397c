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

/**
 * The sampler's clock: the platform's own performance.now, taken when
 * webprof loads (a page that later replaces performance.now, or makes it
 * return NaN, go backwards or stand still, does not move the sampling
 * clock). What it returns never goes backwards: a value below the last one,
 * NaN, or a throw gives the last value and calls onFault(kind) — counted and
 * reported in the trace's diagnostics (js/profiler/sampler.mjs).
 * @param {object} g the global object
 * @param {(kind: 'clock') => void} onFault
 */
export function samplingClock(g, onFault) {
  const perf = g.performance;
  const proto = typeof g.Performance === 'function' ? g.Performance.prototype : null;
  let f = proto && typeof proto.now === 'function' ? proto.now : perf && perf.now;
  if (typeof f !== 'function') return pickClock(g);
  f = f[ORIGINAL] || f;
  let last = 0;
  return () => {
    let t;
    try {
      t = f.call(perf);
    } catch {
      t = NaN;
    }
    if (t >= last) return (last = t);
    onFault('clock');
    return last;
  };
}
