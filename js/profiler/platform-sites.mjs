// Platform calls as sample points: where untouched code calls into the
// platform, a check can sample for free, so the polyfill samples inside long
// synchronous code that nobody transformed — as long as it calls one of
// these. The set is chosen by cost and coverage (docs/BENCHMARKS.md):
//  - `performance.now()` and `Date.now()`: the clocks every busy loop that
//    bounds itself by time reads (the shape of the conformance tests, and of
//    frame-budget loops); a wrapped call costs one decrement more.
// Each wrapper runs the dense check of transformed code (js/profiler/
// dense.mjs: one decrement of the shared counter; the slow path only when it
// runs out) and then the original. When a sample is taken the wrapper is the
// capture's entry, so its own frame is not in the stack: the sample names
// the page's function that called the clock.
// Identity: the wrapper replaces the method where the platform defines it
// (Performance.prototype.now, Date.now); its `name`, `length` and
// `toString()` are the original's, it is not a constructor, and
// `performance.now === Performance.prototype.now` still holds. Installed once
// per realm that asked for it (wantPlatformSites: the drop-in and
// webprof/polyfill), when the first polyfill session starts; with no session
// running the counter is parked and the wrapper costs a decrement.
import { __wp$f, __wp$s, IDLE } from './dense.mjs';
import { ORIGINAL } from '../core/clock.mjs';

let installed = false;

function wrapMethod(owner, key) {
  const orig = owner && owner[key];
  if (typeof orig !== 'function') return;
  // A method (not a constructor), named with the sampler's marker so an
  // engine whose stacks show it (SpiderMonkey) drops it with webprof's frames.
  const wrapper = {
    __webprof$platform() {
      if (--__wp$f[0] < __wp$f[1]) {
        // The sampler's clock calls the original (ORIGINAL); parking the
        // counter first also keeps any other read of it from coming back.
        __wp$f[0] = IDLE;
        __wp$s(wrapper);
      }
      return orig.call(this); // both wrapped methods take no arguments
    },
  }.__webprof$platform;
  Object.defineProperty(wrapper, 'name', { value: orig.name, configurable: true });
  // webprof's clock (js/core/clock.mjs) calls the original directly.
  Object.defineProperty(wrapper, ORIGINAL, { value: orig });
  Object.defineProperty(wrapper, 'length', { value: orig.length, configurable: true });
  const text = Function.prototype.toString.call(orig);
  Object.defineProperty(wrapper, 'toString', {
    value: function toString() {
      return text;
    },
    configurable: true,
    writable: true,
  });
  const d = Object.getOwnPropertyDescriptor(owner, key);
  Object.defineProperty(owner, key, { ...d, value: wrapper });
}

let wanted = false;
/**
 * Asks for platform sample points in this realm: the drop-in's
 * `data-polyfill` and `webprof/polyfill` do (code written for the native
 * API, running untransformed); a bundle built with the transform has its
 * own checks and does not pay for the wrappers.
 */
export function wantPlatformSites() {
  wanted = true;
}

/** Wraps the platform calls of this realm as sample points (once, if wanted). */
export function installPlatformSites() {
  if (installed || !wanted) return;
  installed = true;
  const g = globalThis;
  if (typeof g.Performance === 'function') wrapMethod(g.Performance.prototype, 'now');
  if (typeof g.Date === 'function') wrapMethod(g.Date, 'now');
}
