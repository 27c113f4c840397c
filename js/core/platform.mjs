// The platform as webprof loaded it: the timer, idle-callback and listener
// methods webprof's own scheduling calls, taken once, when webprof loads.
//
// A polyfill session wraps the page's setTimeout and addEventListener with
// probe sites (js/profiler/probe-sites.mjs), and the page may wrap them too
// (zone.js): webprof's own timers (the sampler's tick, resolving deferred
// stacks, the tools module's wait at stop()) must be neither a probe site nor
// run in the page's zone. Each is called with the global as its receiver, as
// the platform requires. What a stack capture or the sampling clock take at
// load stays with them (js/profiler/stack_capture.mjs, js/core/clock.mjs):
// those are not calls to schedule work.

const g = globalThis;
const setTimeoutAtLoad = g.setTimeout;
const clearTimeoutAtLoad = g.clearTimeout;
const requestIdleAtLoad = typeof g.requestIdleCallback === 'function' ? g.requestIdleCallback : null;
const queueMicrotaskAtLoad = typeof g.queueMicrotask === 'function' ? g.queueMicrotask : null;
const addListenerAtLoad = g.EventTarget ? g.EventTarget.prototype.addEventListener : null;
const removeListenerAtLoad = g.EventTarget ? g.EventTarget.prototype.removeEventListener : null;

/** The platform's setTimeout(fn, ms) as webprof loaded it; returns its id. */
export function platformSetTimeout(fn, ms) {
  return setTimeoutAtLoad.call(g, fn, ms);
}

/** The platform's clearTimeout(id) as webprof loaded it. */
export function platformClearTimeout(id) {
  clearTimeoutAtLoad.call(g, id);
}

export const TIMED_OUT = 'TimedOut';
/**
 * The values of `promises`, each one not settled within `ms` (if given and a
 * timer can hold it) as TIMED_OUT, on webprof's own timer. A value that
 * settles in the moment between the timer and the caller's resumption may
 * still be used.
 */
export function settledWithin(promises, ms) {
  if (!(ms < 2 ** 31)) return Promise.all(promises);
  if (!promises.length) return Promise.resolve([]);
  const out = promises.map(() => TIMED_OUT);
  return new Promise((resolve) => {
    const t = platformSetTimeout(() => resolve(out.slice()), ms);
    let left = promises.length;
    promises.forEach((p, i) =>
      p.then((v) => {
        out[i] = v;
        if (--left === 0) {
          platformClearTimeout(t);
          resolve(out);
        }
      }),
    );
  });
}

/**
 * The platform's queueMicrotask(fn) as webprof loaded it; false where there is
 * none (the caller then knows nothing of microtask checkpoints).
 */
export function platformQueueMicrotask(fn) {
  if (!queueMicrotaskAtLoad) return false;
  queueMicrotaskAtLoad.call(g, fn);
  return true;
}

/**
 * The platform's requestIdleCallback(fn, options) as webprof loaded it; null
 * where the platform has none (workers, Node).
 */
export const platformRequestIdleCallback =
  requestIdleAtLoad && ((fn, options) => requestIdleAtLoad.call(g, fn, options));

/**
 * Adds `fn` as a `type` listener on `target` with EventTarget's
 * addEventListener as webprof loaded it; false where there is no EventTarget.
 */
export function platformAddEventListener(target, type, fn, options) {
  if (!addListenerAtLoad) return false;
  addListenerAtLoad.call(target, type, fn, options);
  return true;
}

/** Removes what platformAddEventListener added (the same `capture`). */
export function platformRemoveEventListener(target, type, fn, options) {
  if (removeListenerAtLoad) removeListenerAtLoad.call(target, type, fn, options);
}
